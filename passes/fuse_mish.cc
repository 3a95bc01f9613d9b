// fuse-mish: x * Tanh(Softplus(x)) becomes Mish(x) (opset 18), which is defined as that product.
// Runs after fuse-softplus, so the Log(Exp(x) + 1) spelling of softplus is covered too. The product
// is the shared definition fused_expr::Mish(), which the converter writes below opset 18.
#include <memory>

#include "optimizer/pass_registry.h"
#include "passes/rewrite/expr_pattern.h"
#include "passes/rewrite/pattern_pass.h"
#include "schema/fused_expr/fused_expr.h"

namespace onnx_opt::passes {
namespace {

using namespace rewrite;  // NOLINT(build/namespaces): the pattern vocabulary

RewritePattern MishPattern() {
  auto mish = std::make_shared<ExprPattern>(fused_expr::Mish());
  return {.name = "mish",
          .root_ops = {"Mul"},
          .needs = {{{"Tanh"}}, {{"Softplus"}}},
          .min_opset = 18,
          .match_and_rewrite = [mish, root = mish->Root()](
                                   ir::Node& mul, Rewriter& rw) -> absl::StatusOr<int64_t> {
            const Captures* m = rw.Match(root, mul.output(0));
            if (m == nullptr) return 0;
            return OneIfReplaced(rw.ReplaceWithNode(mul, "Mish", {mish->input(*m, 0)}));
          }};
}

class FuseMish final : public PatternPass {
 public:
  static constexpr char kName[] = "fuse-mish";
  FuseMish() : PatternPass(kName, [] { return std::vector<RewritePattern>{MishPattern()}; }) {}
};

}  // namespace

REGISTER_PASS(FuseMish, FuseMish::kName, "turn x * Tanh(Softplus(x)) into Mish(x)");

}  // namespace onnx_opt::passes
