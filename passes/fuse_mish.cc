// fuse-mish: x * Tanh(Softplus(x)) becomes Mish(x) (opset 18), which is defined as that product.
// Runs after fuse-softplus, so the Log(Exp(x) + 1) spelling of softplus is covered too.
#include "optimizer/pass_registry.h"
#include "passes/rewrite/pattern_pass.h"

namespace onnx_opt::passes {
namespace {

using namespace rewrite;  // NOLINT(build/namespaces): the pattern vocabulary

RewritePattern MishPattern() {
  return {.root_ops = {"Mul"},
          .needs = {{{"Tanh"}}, {{"Softplus"}}},
          .min_opset = 18,
          .match_and_rewrite = [](ir::Node& mul, Rewriter& rw) -> absl::StatusOr<int64_t> {
            ir::Value* x = nullptr;
            if (!rw.Match(Op("Mul", {Capture(&x), Op("Tanh", {Op("Softplus", {Capture(&x)}).OneUse()}).OneUse()}),
                          mul.output(0))) {
              return 0;
            }
            return OneIfReplaced(rw.ReplaceWithNode(mul, "Mish", {x}));
          }};
}

class FuseMish final : public PatternPass {
 public:
  static constexpr char kName[] = "fuse-mish";
  FuseMish() : PatternPass(kName, {MishPattern()}) {}
};

}  // namespace

REGISTER_PASS(FuseMish, FuseMish::kName, "turn x * Tanh(Softplus(x)) into Mish(x)");

}  // namespace onnx_opt::passes
