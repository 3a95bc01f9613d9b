// fuse-add-into-conv: Conv followed by Add of a per-channel constant (shape [M,1,...], [1,M,1,...],
// [1] or a scalar), or by Sub of one (conv - c), becomes one Conv whose bias includes the constant.
#include <memory>

#include "optimizer/pass_registry.h"
#include "passes/conv_constants.h"
#include "passes/rewrite/pattern_pass.h"

namespace onnx_opt::passes {
namespace {

using namespace rewrite;  // NOLINT(build/namespaces): the pattern vocabulary

// Folds constant `c` (negated when `negate`) into the bias of `conv`, whose output `add` uses;
// false, changing nothing, when it does not fit.
bool Fuse(Rewriter& rw, ir::Node& conv, ir::Node& add, const ir::Tensor& c, bool negate) {
  std::optional<ConvConstants> k = ReadConvConstants(conv);
  if (!k.has_value() || c.data_type() != k->type) return false;
  // The conv output has the weight's rank.
  std::optional<std::vector<double>> extra = PerChannel(c, k->out_channels(), k->rank());
  if (!extra.has_value()) return false;
  for (int64_t m = 0; m < k->out_channels(); ++m) k->bias[m] += negate ? -(*extra)[m] : (*extra)[m];
  if (!rw.ForwardUses(add.output(0), conv.output(0))) return false;
  WriteConvConstants(rw, conv, *k, /*weights_changed=*/false, /*bias_changed=*/true, "_bias");
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

RewritePattern AddIntoConvBiasPattern() {
  auto matcher = std::make_shared<const ConvAndConstantMatcher>();
  return {.name = "add-into-conv-bias",
          .root_ops = {"Add", "Sub"},
          .needs = {{{"Add", "Sub"}}, {{"Conv"}}},
          .match_and_rewrite = [matcher](ir::Node& add, Rewriter& rw) -> absl::StatusOr<int64_t> {
            // Pre-7 Add broadcasts only with attributes; leave those alone.
            if (add.FindAttribute("broadcast") != nullptr || add.FindAttribute("axis") != nullptr)
              return 0;
            if (add.num_inputs() != 2 || !add.has_input(0) || !add.has_input(1)) return 0;
            const bool sub = add.op_type() == "Sub";
            // The conv's result may be a graph output; its one use must be the Add. Fusing has
            // effects, so the sides are tried one by one rather than by a commutative match. Sub
            // folds only conv - c.
            for (size_t side : {0, 1}) {
              if (sub && side == 1) break;
              const Captures* m = rw.Match(matcher->conv_used_once, add.input(side));
              if (m == nullptr || rw.Match(matcher->any_constant, add.input(1 - side)) == nullptr)
                continue;
              if (!Fuse(rw, *(*m)[matcher->conv], add, *(*m)[matcher->constant], sub)) continue;
              if (absl::Status s = rw.EraseNode(add); !s.ok()) return s;
              return 1;
            }
            return 0;
          }};
}

class FuseAddIntoConvBias final : public PatternPass {
 public:
  static constexpr char kName[] = "fuse-add-into-conv";
  FuseAddIntoConvBias()
      : PatternPass(kName, [] { return std::vector<RewritePattern>{AddIntoConvBiasPattern()}; }) {}
};

}  // namespace

REGISTER_PASS(FuseAddIntoConvBias, FuseAddIntoConvBias::kName,
              "fold a per-channel constant Add (or Sub) after a Conv into its bias");

}  // namespace onnx_opt::passes
