// fuse-add-into-conv: Conv followed by Add of a per-channel constant (shape [M,1,...], [1,M,1,...],
// [1] or a scalar) becomes one Conv whose bias includes the constant.
#include "ir/name_generator.h"
#include "optimizer/pass_registry.h"
#include "passes/constant.h"
#include "passes/forward_value.h"
#include "passes/graph_walk.h"

namespace onnx_opt::passes {
namespace {

// The per-channel values of `c` for `channels` output channels of a conv whose output has rank
// `rank` (when known; -1 otherwise), or nullopt if `c` does not broadcast per channel.
std::optional<std::vector<double>> PerChannel(const ir::Tensor& c, int64_t channels, int64_t rank) {
  std::optional<std::vector<double>> v = ConstantAsDoubles(c);
  if (!v.has_value()) return std::nullopt;
  const std::vector<int64_t>& d = c.dims();
  if (v->size() == 1) {
    // A scalar or [1]-like constant: as long as it does not raise the output's rank.
    if (rank < 0 || static_cast<int64_t>(d.size()) > rank) return std::nullopt;
    return std::vector<double>(channels, (*v)[0]);
  }
  if (static_cast<int64_t>(v->size()) != channels || rank < 0) return std::nullopt;
  // The channel axis of the conv output is 1, i.e. position rank-1-… counted from the right:
  // the constant must be [M, 1, ..., 1] with rank-1 dims, or [1, M, 1, ..., 1] with rank dims.
  const int64_t r = static_cast<int64_t>(d.size());
  if (r != rank && r != rank - 1) return std::nullopt;
  const int64_t channel_axis = r - (rank - 1);
  for (int64_t i = 0; i < r; ++i) {
    if (i == channel_axis ? d[i] != channels : d[i] != 1) return std::nullopt;
  }
  return v;
}

class FuseAddIntoConvBias final : public optimizer::Pass {
 public:
  std::string_view name() const override { return "fuse-add-into-conv"; }

  absl::StatusOr<bool> Run(ir::Model& model, optimizer::PassContext& ctx) override {
    ir::NameGenerator names(model);
    return ForEachGraphOuterFirst(model, [&](ir::Graph& g) -> absl::StatusOr<bool> {
      if (g.CountOpType("Add") == 0 || g.CountOpType("Conv") == 0) return false;  // needs an Add after a Conv
      bool changed = false;
      for (ir::Node* add : g.nodes()) {
        if (!add->is_onnx_domain() || add->op_type() != "Add" || add->num_inputs() != 2 ||
            !add->has_input(0) || !add->has_input(1)) {
          continue;
        }
        // Pre-7 Add broadcasts only with attributes; leave those alone.
        if (add->FindAttribute("broadcast") != nullptr || add->FindAttribute("axis") != nullptr) continue;
        for (size_t side = 0; side < 2; ++side) {
          ir::Node* conv = add->input(side)->producer();
          const ir::Tensor* c = GetConstantTensor(add->input(1 - side));
          if (conv == nullptr || c == nullptr || conv->graph() != &g || !conv->is_onnx_domain() ||
              conv->op_type() != "Conv" || conv->output(0)->uses().size() != 1) {
            continue;
          }
          if (Fuse(g, *conv, *add, *c, names)) {
            if (absl::Status s = g.Erase(add); !s.ok()) return s;
            ctx.CountRewrite();
            changed = true;
            break;
          }
        }
      }
      g.ReleaseErased();
      return changed;
    });
  }

 private:
  static bool Fuse(ir::Graph& g, ir::Node& conv, ir::Node& add, const ir::Tensor& c,
                   ir::NameGenerator& names) {
    const ir::Tensor* w = GetConstantTensor(conv.input(1));
    if (w == nullptr || w->dims().size() < 3) return false;
    const ir::DataType type = w->data_type();
    if ((type != ir::DataType::kFloat && type != ir::DataType::kDouble) || c.data_type() != type) return false;
    const int64_t channels = w->dims()[0];
    const int64_t rank = static_cast<int64_t>(w->dims().size());  // the conv output has the weight's rank
    std::optional<std::vector<double>> extra = PerChannel(c, channels, rank);
    if (!extra.has_value()) return false;
    std::vector<double> bias(channels, 0.0);
    if (conv.has_input(2)) {
      const ir::Tensor* b = GetConstantTensor(conv.input(2));
      if (b == nullptr || b->data_type() != type) return false;
      std::optional<std::vector<double>> v = ConstantAsDoubles(*b);
      if (!v.has_value() || static_cast<int64_t>(v->size()) != channels) return false;
      bias = std::move(*v);
    }
    for (int64_t m = 0; m < channels; ++m) bias[m] += (*extra)[m];
    ir::Tensor new_b = MakeFloatTensor(type, {channels}, bias);
    new_b.set_name(names.Fresh(conv.output(0)->name() + "_bias"));
    ir::Value* b_value = g.AddInitializer(std::move(new_b));
    if (!ForwardValue(add.output(0), conv.output(0))) return false;
    if (conv.num_inputs() < 3) {
      conv.AddInput(b_value);
    } else {
      conv.SetInput(2, b_value);
    }
    return true;
  }
};

}  // namespace

REGISTER_PASS(FuseAddIntoConvBias, "fuse-add-into-conv", "fold a per-channel constant Add into the Conv bias");

}  // namespace onnx_opt::passes
