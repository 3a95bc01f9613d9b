// fuse-hard-swish: x * HardSigmoid(x, 1/6, 1/2), and x * relu6(x + 3) / 6 as exporters write
// PyTorch's hardswish (Div by 6 or Mul by 1/6 of Mul(x, Clip(Add(x, 3), 0, 6))), become
// HardSwish(x) (opset 14), which is defined as exactly that product; floating-point x only. Runs
// after fuse-hard-sigmoid, which turns the x * (relu6(x + 3) / 6) form into the first one. The
// first form is the shared definition fused_expr::HardSwish(), which the converter writes below 14.
#include <memory>

#include "optimizer/pass_registry.h"
#include "passes/rewrite/expr_pattern.h"
#include "passes/rewrite/pattern_pass.h"
#include "passes/rewrite/relu6_pattern.h"
#include "passes/rewrite/value_facts.h"
#include "schema/fused_expr/fused_expr.h"

namespace onnx_opt::passes {
namespace {

using namespace rewrite;  // NOLINT(build/namespaces): the pattern vocabulary

// Both forms end in the root: HardSwish(x) takes its place when x is floating-point.
absl::StatusOr<int64_t> ReplaceByHardSwish(ir::Node& root, ir::Value* x, Rewriter& rw) {
  if (!FloatElemType(x)) return 0;
  return OneIfReplaced(rw.ReplaceWithNode(root, "HardSwish", {x}));
}

RewritePattern TimesHardSigmoidPattern() {
  auto hard_swish = std::make_shared<ExprPattern>(fused_expr::HardSwish());
  return {.name = "times-hard-sigmoid",
          .root_ops = {"Mul"},
          .needs = {{{"HardSigmoid"}}},
          .min_opset = 14,
          .match_and_rewrite = [hard_swish, root = hard_swish->Root()](
                                   ir::Node& mul, Rewriter& rw) -> absl::StatusOr<int64_t> {
            const Captures* m = rw.Match(root, mul.output(0));
            if (m == nullptr) return 0;
            return ReplaceByHardSwish(mul, hard_swish->input(*m, 0), rw);
          }};
}

// x * relu6(x + 3) / 6, or times 1/6, built once; x is bound in the match's captures.
struct TimesRelu6Over6Matcher {
  ValueSlot x;
  const ValuePattern product = Op("Mul", {Capture(x), Relu6OfXPlus3(x)}).OneUse();
  const ValuePattern root =
      OneOf({Op("Div", {product, ConstScalar(6.0)}), Op("Mul", {product, ConstScalar(1.0 / 6.0)})});
};

RewritePattern TimesRelu6Over6Pattern() {
  auto times_relu6 = std::make_shared<const TimesRelu6Over6Matcher>();
  return {
      .name = "times-relu6-over6",
      .root_ops = {"Div", "Mul"},
      .needs = {{{"Clip"}}},
      .min_opset = 14,
      .match_and_rewrite = [times_relu6](ir::Node& root, Rewriter& rw) -> absl::StatusOr<int64_t> {
        const Captures* m = rw.Match(times_relu6->root, root.output(0));
        if (m == nullptr) return 0;
        return ReplaceByHardSwish(root, (*m)[times_relu6->x], rw);
      }};
}

class FuseHardSwish final : public PatternPass {
 public:
  static constexpr char kName[] = "fuse-hard-swish";
  FuseHardSwish()
      : PatternPass(kName, [] {
          return std::vector<RewritePattern>{TimesHardSigmoidPattern(), TimesRelu6Over6Pattern()};
        }) {}
};

}  // namespace

REGISTER_PASS(FuseHardSwish, FuseHardSwish::kName,
              "turn x * HardSigmoid(x) and x * relu6(x + 3) / 6 into HardSwish(x)");

}  // namespace onnx_opt::passes
