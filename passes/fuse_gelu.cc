// fuse-gelu: the exact (erf) form exporters write,
//   y = x * 0.5 * (1 + Erf(x / sqrt(2)))      (the factors in any order and grouping; x / sqrt(2)
//                                               may be x * (1 / sqrt(2)))
// becomes Gelu(x) where the model's opset has it (20+). The form the converter writes below opset
// 20 is the shared definition fused_expr::Gelu(); the other spellings are added here.
#include <cmath>
#include <memory>

#include "optimizer/pass_registry.h"
#include "passes/rewrite/expr_pattern.h"
#include "passes/rewrite/pattern_pass.h"
#include "schema/fused_expr/fused_expr.h"

namespace onnx_opt::passes {
namespace {

using namespace rewrite;  // NOLINT(build/namespaces): the pattern vocabulary

// The definition and the spellings exporters write, built once.
std::shared_ptr<ExprPattern> GeluExpr() {
  using namespace fused_expr::gelu;  // NOLINT(build/namespaces): the step names
  auto gelu = std::make_shared<ExprPattern>(fused_expr::Gelu());
  gelu->AddSpelling(kScaled, Op("Div", {gelu->Input(0), ConstScalar(std::sqrt(2.0))}));
  // The three factors x, 0.5 and 1 + erf: each can be the one multiplied last.
  const ValuePattern x = gelu->Input(0);
  const ValuePattern one_plus_erf = gelu->Step(kOnePlusErf);
  const ValuePattern half = ConstScalar(0.5);
  gelu->AddSpelling(kProduct, Op("Mul", {Op("Mul", {x, one_plus_erf}).OneUse(), half}));
  gelu->AddSpelling(kProduct, Op("Mul", {Op("Mul", {one_plus_erf, half}).OneUse(), x}));
  return gelu;
}

RewritePattern GeluPattern() {
  std::shared_ptr<ExprPattern> gelu = GeluExpr();
  return {.name = "gelu",
          .root_ops = {"Mul"},
          .needs = {{{"Erf"}}},
          .min_opset = 20,
          .match_and_rewrite = [gelu, root = gelu->Root()](
                                   ir::Node& mul, Rewriter& rw) -> absl::StatusOr<int64_t> {
            const Captures* m = rw.Match(root, mul.output(0));
            if (m == nullptr) return 0;
            return OneIfReplaced(rw.ReplaceWithNode(mul, "Gelu", {gelu->input(*m, 0)}, "_gelu"));
          }};
}

class FuseGelu final : public PatternPass {
 public:
  static constexpr char kName[] = "fuse-gelu";
  FuseGelu() : PatternPass(kName, [] { return std::vector<RewritePattern>{GeluPattern()}; }) {}
};

}  // namespace

REGISTER_PASS(FuseGelu, FuseGelu::kName,
              "turn the primitive erf form of GELU into Gelu (opset 20+)");

}  // namespace onnx_opt::passes
