// fuse-scale-into-conv: Conv followed by Mul or Div by a per-channel constant (shape [M,1,...],
// [1,M,1,...], [1] or a scalar) becomes one Conv whose weights and bias absorb it:
//   W'[m] = W[m] * c[m];  b'[m] = b[m] * c[m]     (c[m] = 1 / d[m] for a Div by d; d != 0)
#include <memory>

#include "optimizer/pass_registry.h"
#include "passes/conv_constants.h"
#include "passes/rewrite/pattern_pass.h"

namespace onnx_opt::passes {
namespace {

using namespace rewrite;  // NOLINT(build/namespaces): the pattern vocabulary

// Folds `scale` (the Mul's or Div's constant) into `conv`, whose only user is `scale_node`; false,
// changing nothing, when it does not fit.
bool Fuse(Rewriter& rw, ir::Node& conv, ir::Node& scale_node, const ir::Tensor& scale) {
  std::optional<ConvConstants> k = ReadConvConstants(conv);
  // Weights shared with another node would be kept besides the scaled copy.
  if (!k.has_value() || scale.data_type() != k->type || !OwnsInput(conv, 1) || !OwnsInput(conv, 2))
    return false;
  std::optional<std::vector<double>> factor = PerChannel(scale, k->out_channels(), k->rank());
  if (!factor.has_value()) return false;
  if (scale_node.op_type() == "Div") {
    for (double& f : *factor) {
      if (f == 0) return false;
      f = 1.0 / f;
    }
  }
  const int64_t per_channel = k->per_out_channel();
  double* x = k->weights.data();
  for (int64_t m = 0; m < k->out_channels(); ++m, x += per_channel) {  // no division per element
    for (int64_t i = 0; i < per_channel; ++i) x[i] *= (*factor)[m];
  }
  for (int64_t m = 0; m < k->out_channels(); ++m) k->bias[m] *= (*factor)[m];
  if (!rw.ForwardUses(scale_node.output(0), conv.output(0))) return false;
  // A missing bias stays missing: zero times anything is zero.
  WriteConvConstants(rw, conv, *k, /*weights_changed=*/true, /*bias_changed=*/conv.has_input(2),
                     "_scaled");
  return true;
}

// A Conv whose one use is the root (its result may be a graph output), and the constant on the
// root's other side: built once, bound in the match's captures.
struct ConvAndConstantMatcher {
  NodeSlot conv;
  TensorSlot constant;
  const ValuePattern conv_used_once =
      Op("Conv", {}).CaptureNode(conv).Where([](const ir::Value& v) {
        return v.uses().size() == 1;
      });
  const ValuePattern any_constant = Constant(constant);
};

RewritePattern ScaleIntoConvPattern() {
  auto matcher = std::make_shared<const ConvAndConstantMatcher>();
  return {.name = "scale-into-conv",
          .root_ops = {"Mul", "Div"},
          .needs = {{{"Mul", "Div"}}, {{"Conv"}}},
          .match_and_rewrite = [matcher](ir::Node& node, Rewriter& rw) -> absl::StatusOr<int64_t> {
            // Pre-7 Mul/Div broadcast only with attributes; leave those alone.
            if (node.FindAttribute("broadcast") != nullptr || node.FindAttribute("axis") != nullptr)
              return 0;
            if (node.num_inputs() != 2 || !node.has_input(0) || !node.has_input(1)) return 0;
            // The conv's one use must be this node; Div folds only conv / c.
            for (size_t side : {0, 1}) {
              if (node.op_type() == "Div" && side == 1) break;
              const Captures* m = rw.Match(matcher->conv_used_once, node.input(side));
              if (m == nullptr || rw.Match(matcher->any_constant, node.input(1 - side)) == nullptr)
                continue;
              if (!Fuse(rw, *(*m)[matcher->conv], node, *(*m)[matcher->constant])) continue;
              if (absl::Status s = rw.EraseNode(node); !s.ok()) return s;
              return 1;
            }
            return 0;
          }};
}

class FuseScaleIntoConv final : public PatternPass {
 public:
  static constexpr char kName[] = "fuse-scale-into-conv";
  FuseScaleIntoConv()
      : PatternPass(kName, [] { return std::vector<RewritePattern>{ScaleIntoConvPattern()}; }) {}
};

}  // namespace

REGISTER_PASS(FuseScaleIntoConv, FuseScaleIntoConv::kName,
              "fold a per-channel constant Mul or Div after a Conv into its weights and bias");

}  // namespace onnx_opt::passes
