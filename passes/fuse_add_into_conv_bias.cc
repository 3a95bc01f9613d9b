// fuse-add-into-conv: Conv followed by Add of a per-channel constant (shape [M,1,...], [1,M,1,...],
// [1] or a scalar) becomes one Conv whose bias includes the constant.
#include "ir/name_generator.h"
#include "optimizer/pass_registry.h"
#include "passes/constant.h"
#include "passes/forward_value.h"
#include "passes/rewrite/pattern_pass.h"

namespace onnx_opt::passes {
namespace {

using namespace rewrite;  // NOLINT(build/namespaces): the pattern vocabulary

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

// Folds constant `c` into the bias of `conv`, whose output `add` uses; false, changing nothing, when
// it does not fit.
bool Fuse(ir::Graph& g, ir::Node& conv, ir::Node& add, const ir::Tensor& c, ir::NameGenerator& names) {
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

RewritePattern AddIntoConvBiasPattern() {
  return {.root_ops = {"Add"},
          .needs = {{{"Add"}}, {{"Conv"}}},
          .match_and_rewrite = [](ir::Node& add, Rewriter& rw) -> absl::StatusOr<int64_t> {
            // Pre-7 Add broadcasts only with attributes; leave those alone.
            if (add.FindAttribute("broadcast") != nullptr || add.FindAttribute("axis") != nullptr) return 0;
            if (add.num_inputs() != 2 || !add.has_input(0) || !add.has_input(1)) return 0;
            // The conv's result may be a graph output; its one use must be the Add. Fusing has
            // effects, so the sides are tried one by one rather than by a commutative match.
            for (size_t side : {0, 1}) {
              ir::Node* conv = nullptr;
              const ir::Tensor* c = nullptr;
              const ValuePattern conv_used_once =
                  Op("Conv", {}).CaptureNode(&conv).Where([](const ir::Value& v) { return v.uses().size() == 1; });
              if (!rw.Match(conv_used_once, add.input(side)) || !rw.Match(Constant(&c), add.input(1 - side))) continue;
              if (!Fuse(rw.graph(), *conv, add, *c, rw.names())) continue;
              if (absl::Status s = rw.graph().Erase(&add); !s.ok()) return s;
              return 1;
            }
            return 0;
          }};
}

class FuseAddIntoConvBias final : public PatternPass {
 public:
  static constexpr char kName[] = "fuse-add-into-conv";
  FuseAddIntoConvBias() : PatternPass(kName, {AddIntoConvBiasPattern()}) {}
};

}  // namespace

REGISTER_PASS(FuseAddIntoConvBias, FuseAddIntoConvBias::kName, "fold a per-channel constant Add into the Conv bias");

}  // namespace onnx_opt::passes
