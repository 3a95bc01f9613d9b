// fuse-gelu: the exact (erf) form exporters write,
//   y = x * 0.5 * (1 + Erf(x / sqrt(2)))      (the factors in any order and grouping; x / sqrt(2)
//                                               may be x * (1 / sqrt(2)))
// becomes Gelu(x) where the model's opset has it (20+).
#include <cmath>

#include "optimizer/pass_registry.h"
#include "passes/rewrite/pattern_pass.h"

namespace onnx_opt::passes {
namespace {

using namespace rewrite;  // NOLINT(build/namespaces): the pattern vocabulary

RewritePattern GeluPattern() {
  return {.root_ops = {"Mul"},
          .needs = {{{"Erf"}}},
          .min_opset = 20,
          .match_and_rewrite = [](ir::Node& mul, Rewriter& rw) -> absl::StatusOr<int64_t> {
            ir::Value* x = nullptr;
            const ValuePattern scaled = OneOf({Op("Div", {Capture(&x), ConstScalar(std::sqrt(2.0))}),
                                               Op("Mul", {Capture(&x), ConstScalar(1.0 / std::sqrt(2.0))})});
            const ValuePattern one_plus_erf = Op("Add", {Op("Erf", {scaled.OneUse()}).OneUse(), ConstScalar(1.0)});
            const ValuePattern half = ConstScalar(0.5);
            // The three factors x, 0.5 and 1 + erf: each can be the one multiplied last.
            const ValuePattern product =
                OneOf({Op("Mul", {Op("Mul", {Capture(&x), one_plus_erf.OneUse()}).OneUse(), half}),
                       Op("Mul", {Op("Mul", {one_plus_erf.OneUse(), half}).OneUse(), Capture(&x)}),
                       Op("Mul", {Op("Mul", {Capture(&x), half}).OneUse(), one_plus_erf.OneUse()})});
            if (!rw.Match(product, mul.output(0))) return 0;
            return OneIfReplaced(rw.ReplaceWithNode(mul, "Gelu", {x}, "_gelu"));
          }};
}

class FuseGelu final : public PatternPass {
 public:
  static constexpr char kName[] = "fuse-gelu";
  FuseGelu() : PatternPass(kName, {GeluPattern()}) {}
};

}  // namespace

REGISTER_PASS(FuseGelu, FuseGelu::kName, "turn the primitive erf form of GELU into Gelu (opset 20+)");

}  // namespace onnx_opt::passes
