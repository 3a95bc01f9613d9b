#include "passes/conv_constants.h"

#include <string>
#include <utility>

#include "ir/constant_value.h"

namespace onnx_opt::passes {

std::optional<std::vector<double>> PerChannel(const ir::Tensor& c, int64_t channels, int64_t rank) {
  std::optional<std::vector<double>> v = ir::ConstantAsDoubles(c);
  if (!v.has_value()) return std::nullopt;
  const std::vector<int64_t>& d = c.dims();
  if (v->size() == 1) {
    // A scalar or [1]-like constant: as long as it does not raise the tensor's rank.
    if (rank < 0 || static_cast<int64_t>(d.size()) > rank) return std::nullopt;
    return std::vector<double>(channels, (*v)[0]);
  }
  if (static_cast<int64_t>(v->size()) != channels || rank < 0) return std::nullopt;
  // The channel axis is 1: the constant must be [M, 1, ..., 1] with rank-1 dims, or [1, M, 1, ...,
  // 1] with rank dims.
  const int64_t r = static_cast<int64_t>(d.size());
  if (r != rank && r != rank - 1) return std::nullopt;
  const int64_t channel_axis = r - (rank - 1);
  for (int64_t i = 0; i < r; ++i) {
    if (i == channel_axis ? d[i] != channels : d[i] != 1) return std::nullopt;
  }
  return v;
}

std::optional<ConvConstants> ReadConvConstants(const ir::Node& conv) {
  if (conv.num_inputs() < 2 || !conv.has_input(1)) return std::nullopt;
  // Inside a function an attribute may refer to the caller's; then group, pads and the rest are
  // unknown.
  for (const ir::Attribute& a : conv.attributes()) {
    if (a.is_reference()) return std::nullopt;
  }
  const ir::Tensor* w = ir::GetConstantTensor(conv.input(1));
  if (w == nullptr || w->dims().size() < 3) return std::nullopt;
  ConvConstants c;
  c.type = w->data_type();
  if (c.type != ir::DataType::kFloat && c.type != ir::DataType::kDouble) return std::nullopt;
  c.dims = w->dims();
  c.group = conv.GetInt("group", 1);
  if (c.group < 1 || c.dims[0] < 1 || c.dims[0] % c.group != 0) return std::nullopt;
  std::optional<std::vector<double>> weights = ir::ConstantAsDoubles(*w);
  if (!weights.has_value() || weights->empty()) return std::nullopt;
  c.weights = std::move(*weights);
  c.bias.assign(c.dims[0], 0.0);
  if (conv.has_input(2)) {
    const ir::Tensor* b = ir::GetConstantTensor(conv.input(2));
    if (b == nullptr || b->data_type() != c.type) return std::nullopt;
    std::optional<std::vector<double>> bias = ir::ConstantAsDoubles(*b);
    if (!bias.has_value() || static_cast<int64_t>(bias->size()) != c.dims[0]) return std::nullopt;
    c.bias = std::move(*bias);
  }
  return c;
}

bool OwnsInput(const ir::Node& conv, size_t i) {
  return !conv.has_input(i) || conv.input(i)->uses().size() == 1;
}

void ReplaceConvWeights(rewrite::Rewriter& rw, ir::Node& conv, ir::Tensor w, const char* suffix) {
  rw.ReplaceInput(conv, 1, rw.AddInitializer(std::move(w), conv.input(1)->name() + suffix));
}

void ReplaceConvBias(rewrite::Rewriter& rw, ir::Node& conv, ir::Tensor b, const char* suffix) {
  const std::string base =
      conv.has_input(2) ? conv.input(2)->name() + suffix : conv.output(0)->name() + "_bias";
  ir::Value* bias = rw.AddInitializer(std::move(b), base);
  if (conv.num_inputs() < 3) {
    rw.AddInput(conv, bias);
  } else {
    rw.ReplaceInput(conv, 2, bias);
  }
}

void WriteConvConstants(rewrite::Rewriter& rw, ir::Node& conv, const ConvConstants& c,
                        bool weights_changed, bool bias_changed, const char* suffix) {
  if (weights_changed)
    ReplaceConvWeights(rw, conv, ir::MakeFloatTensor(c.type, c.dims, c.weights), suffix);
  if (bias_changed)
    ReplaceConvBias(rw, conv, ir::MakeFloatTensor(c.type, {c.dims[0]}, c.bias), suffix);
}

}  // namespace onnx_opt::passes
