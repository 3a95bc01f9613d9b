// fuse-bn-into-conv: Conv (or ConvTranspose) followed by an inference-mode BatchNormalization
// becomes one Conv whose weights and bias absorb the normalization:
//   f = scale / sqrt(var + epsilon);  W'[m] = W[m] * f[m];  b'[m] = (b[m] - mean[m]) * f[m] +
//   bias[m]
// where m is the output channel. Weights and statistics must be float32/float64 constants.
#include <cmath>
#include <cstring>
#include <memory>
#include <string>

#include "ir/constant_value.h"
#include "ir/status_macros.h"
#include "optimizer/pass_registry.h"
#include "passes/conv_constants.h"
#include "passes/inference_mode.h"
#include "passes/rewrite/pattern_pass.h"

namespace onnx_opt::passes {
namespace {

using namespace rewrite;  // NOLINT(build/namespaces): the pattern vocabulary

// `w` (of T) with each run of `kernel` consecutive elements r multiplied by factor[r], in double.
// (Not ReadConvConstants: that knows only Conv's weight layout, and keeps the weights as doubles.)
// Written straight into the new tensor's bytes: this pass moves more bytes than any other, and a
// vector in between cost a second pass over them and the faults of its memory.
template <typename T>
ir::Tensor ScaleRuns(const ir::Tensor& w, const std::vector<double>& factor, int64_t kernel) {
  const size_t count = static_cast<size_t>(kernel) * factor.size();
  ir::Tensor t(w.data_type(), w.dims());
  const char* in = w.raw_data();
  char* out = t.AllocateRaw(count * sizeof(T));
  auto scale = [&](size_t i, double f) {
    T v;
    std::memcpy(&v, in + i * sizeof(T), sizeof(T));
    const T scaled = static_cast<T>(static_cast<double>(v) * f);
    std::memcpy(out + i * sizeof(T), &scaled, sizeof(T));
  };
  if (kernel == 1) {  // 1x1 convolutions, most of a mobile network's weights: one flat loop
    for (size_t i = 0; i < count; ++i) scale(i, factor[i]);
  } else {
    for (size_t r = 0, i = 0; r < factor.size(); ++r) {
      for (int64_t k = 0; k < kernel; ++k, ++i) scale(i, factor[r]);
    }
  }
  return t;
}

// Folds `bn`, which is the only user of `conv`'s output, into the conv's weights and bias; false,
// changing nothing, when the constants do not fit.
absl::StatusOr<bool> Fuse(Rewriter& rw, ir::Node& conv, ir::Node& bn) {
  const ir::Tensor* w = ir::GetConstantTensor(conv.input(1));
  if (w == nullptr || w->dims().size() < 3) return false;
  // Weights another node also reads would stay beside the scaled copy: the model would grow by
  // them.
  if (!OwnsInput(conv, 1)) return false;
  const ir::DataType type = w->data_type();
  if (type != ir::DataType::kFloat && type != ir::DataType::kDouble) return false;
  const bool transpose = conv.op_type() == "ConvTranspose";
  const int64_t group = conv.GetInt("group", 1);
  if (group < 1) return false;
  // Output channels: W is [M, C/group, k...] for Conv and [C, M/group, k...] for ConvTranspose.
  const int64_t channels = transpose ? w->dims()[1] * group : w->dims()[0];
  std::vector<std::vector<double>> stats;
  for (size_t i = 1; i < 5; ++i) {
    const ir::Tensor* t = ir::GetConstantTensor(bn.input(i));
    if (t == nullptr || t->data_type() != type || t->dims() != std::vector<int64_t>{channels})
      return false;
    std::optional<std::vector<double>> v = ir::ConstantAsDoubles(*t);
    if (!v.has_value()) return false;
    stats.push_back(std::move(*v));
  }
  std::vector<double> bias(channels, 0.0);
  if (conv.has_input(2)) {
    const ir::Tensor* b = ir::GetConstantTensor(conv.input(2));
    if (b == nullptr || b->data_type() != type || b->dims() != std::vector<int64_t>{channels})
      return false;
    std::optional<std::vector<double>> v = ir::ConstantAsDoubles(*b);
    if (!v.has_value()) return false;
    bias = std::move(*v);
  }
  const std::optional<uint64_t> count = w->num_elements();
  const size_t element_size = type == ir::DataType::kFloat ? sizeof(float) : sizeof(double);
  if (!count.has_value() || *count == 0 || w->raw_size() != *count * element_size) return false;

  const double epsilon = bn.GetFloat("epsilon", 1e-5f);
  const std::vector<double>& scale = stats[0];
  const std::vector<double>& shift = stats[1];
  const std::vector<double>& mean = stats[2];
  const std::vector<double>& var = stats[3];
  std::vector<double> factor(channels);
  for (int64_t m = 0; m < channels; ++m) {
    factor[m] = scale[m] / std::sqrt(var[m] + epsilon);
    bias[m] = (bias[m] - mean[m]) * factor[m] + shift[m];
  }
  // The output channel of each run of `kernel` weights, in W's order.
  const int64_t kernel = static_cast<int64_t>(*count) / (w->dims()[0] * w->dims()[1]);
  std::vector<double> run_factor(static_cast<size_t>(w->dims()[0] * w->dims()[1]));
  if (!transpose) {
    // Nested, not r / runs_per_channel: a division per run was most of this pass's time.
    const int64_t runs_per_channel = w->dims()[1];
    for (int64_t m = 0, r = 0; m < channels; ++m) {
      for (int64_t j = 0; j < runs_per_channel; ++j, ++r) run_factor[r] = factor[m];
    }
  } else {
    const int64_t in_channels = w->dims()[0];
    const int64_t out_per_group = w->dims()[1];
    const int64_t in_per_group = in_channels / group;
    for (int64_t c = 0; c < in_channels; ++c) {
      for (int64_t j = 0; j < out_per_group; ++j) {
        run_factor[c * out_per_group + j] = factor[(c / in_per_group) * out_per_group + j];
      }
    }
  }
  // Straight from the weights' bytes to the new tensor's, in double as before (a float weight times
  // a double factor, rounded once): no vectors of doubles the size of the weights.
  ir::Tensor scaled = type == ir::DataType::kFloat ? ScaleRuns<float>(*w, run_factor, kernel)
                                                   : ScaleRuns<double>(*w, run_factor, kernel);
  ReplaceConvWeights(rw, conv, std::move(scaled), "_bn");
  ReplaceConvBias(rw, conv, ir::MakeFloatTensor(type, {channels}, bias), "_bn");
  // After the new constants, as their names come from the conv's output before it takes the
  // BatchNormalization's. Never refused: the conv's one use is `bn`, so it is no graph output.
  if (!rw.ForwardUses(bn.output(0), conv.output(0))) {
    return absl::InternalError("fuse-bn-into-conv: cannot forward the BatchNormalization's output");
  }
  return true;
}

// A Conv or ConvTranspose whose one use is the root (not also a graph output), built once; the
// node is bound in the match's captures.
struct ConvUsedOnceMatcher {
  NodeSlot conv;
  const ValuePattern conv_used_once =
      OneOf({Op("Conv", {}), Op("ConvTranspose", {})})
          .CaptureNode(conv)
          .Where([](const ir::Value& v) { return v.uses().size() == 1; });
};

RewritePattern BatchNormIntoConvPattern() {
  auto matcher = std::make_shared<const ConvUsedOnceMatcher>();
  return {.name = "batch-norm-into-conv",
          .root_ops = {"BatchNormalization"},
          .needs = {{{"BatchNormalization"}}, {{"Conv", "ConvTranspose"}}},
          .match_and_rewrite = [matcher](ir::Node& bn, Rewriter& rw) -> absl::StatusOr<int64_t> {
            if (!IsInferenceBatchNorm(bn, rw.opset())) return 0;
            const Captures* m = rw.Match(matcher->conv_used_once, bn.input(0));
            if (m == nullptr) return 0;
            ASSIGN_OR_RETURN(const bool fused, Fuse(rw, *(*m)[matcher->conv], bn));
            if (!fused) return 0;
            RETURN_IF_ERROR(rw.EraseNode(bn));
            return 1;
          }};
}

class FuseBatchNormIntoConv final : public PatternPass {
 public:
  static constexpr char kName[] = "fuse-bn-into-conv";
  FuseBatchNormIntoConv()
      : PatternPass(kName, [] { return std::vector<RewritePattern>{BatchNormIntoConvPattern()}; }) {
  }
};

}  // namespace

REGISTER_PASS(FuseBatchNormIntoConv, FuseBatchNormIntoConv::kName,
              "fold an inference BatchNormalization into the Conv/ConvTranspose before it");

}  // namespace onnx_opt::passes
