// fuse-hard-sigmoid: relu6(x + 3) / 6, as exporters write PyTorch's hardsigmoid (Div by 6 or Mul by
// 1/6 of Clip(Add(x, 3), 0, 6)), becomes HardSigmoid(x, alpha = 1/6, beta = 0.5): the same
// max(0, min(1, x/6 + 1/2)) up to float rounding. HardSigmoid-6 and later (version 1 had a
// different attribute set); floating-point x only.
#include <memory>

#include "optimizer/pass_registry.h"
#include "passes/rewrite/pattern_pass.h"
#include "passes/rewrite/relu6_pattern.h"
#include "passes/rewrite/value_facts.h"

namespace onnx_opt::passes {
namespace {

using namespace rewrite;  // NOLINT(build/namespaces): the pattern vocabulary

// relu6(x + 3) / 6, or times 1/6, built once; x is bound in the match's captures.
struct HardSigmoidMatcher {
  ValueSlot x;
  const ValuePattern relu6 = Relu6OfXPlus3(x);
  const ValuePattern root =
      OneOf({Op("Div", {relu6, ConstScalar(6.0)}), Op("Mul", {relu6, ConstScalar(1.0 / 6.0)})});
};

RewritePattern HardSigmoidPattern() {
  auto hard_sigmoid = std::make_shared<const HardSigmoidMatcher>();
  return {
      .name = "hard-sigmoid",
      .root_ops = {"Div", "Mul"},
      .needs = {{{"Clip"}}},
      .min_opset = 6,
      .match_and_rewrite = [hard_sigmoid](ir::Node& root, Rewriter& rw) -> absl::StatusOr<int64_t> {
        const Captures* m = rw.Match(hard_sigmoid->root, root.output(0));
        if (m == nullptr) return 0;
        ir::Value* x = (*m)[hard_sigmoid->x];
        if (!FloatElemType(x)) return 0;
        absl::StatusOr<ir::Node*> fused = rw.ReplaceWithNode(root, "HardSigmoid", {x});
        if (fused.ok() && *fused != nullptr) {
          rw.SetAttribute(**fused, ir::Attribute::Float("alpha", 1.0f / 6.0f));
          rw.SetAttribute(**fused, ir::Attribute::Float("beta", 0.5f));
        }
        return OneIfReplaced(fused);
      }};
}

class FuseHardSigmoid final : public PatternPass {
 public:
  static constexpr char kName[] = "fuse-hard-sigmoid";
  FuseHardSigmoid()
      : PatternPass(kName, [] { return std::vector<RewritePattern>{HardSigmoidPattern()}; }) {}
};

}  // namespace

REGISTER_PASS(FuseHardSigmoid, FuseHardSigmoid::kName,
              "turn Clip(x + 3, 0, 6) / 6 into HardSigmoid(x)");

}  // namespace onnx_opt::passes
