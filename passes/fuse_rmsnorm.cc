// fuse-rmsnorm: RMS normalization as exporters write it, gamma * x / Sqrt(ReduceMean(x^2) + eps)
// over the last axis (x^2 as Pow(x, 2) or Mul(x, x); the division as Div, or Mul by Reciprocal),
// becomes RMSNormalization(x, gamma, axis = -1, epsilon = eps) (opset 23). Only for float32 x:
// RMSNormalization computes in float32 (stash_type 1), which for other types differs from the
// original arithmetic. gamma must be a constant of at most one dimension, so that it scales the
// last axis the way the Mul did.
#include "optimizer/pass_registry.h"
#include "passes/pattern.h"
#include "passes/rewrite/pattern_pass.h"

namespace onnx_opt::passes {
namespace {

using namespace rewrite;  // NOLINT(build/namespaces): the pattern vocabulary

// ReduceMean(x^2) over the last axis of x (as -1 or rank - 1), keeping dims; x must be bound first.
ValuePattern MeanSquareOverLastAxis(ir::Value** x, int64_t opset) {
  auto over_last_axis = [x, opset](const ir::Node& reduce) {
    std::optional<int64_t> rank = RankOf(*x);
    std::optional<std::vector<int64_t>> axes = AxesOf(reduce, opset);
    return reduce.GetInt("keepdims", 1) == 1 && rank && axes && axes->size() == 1 &&
           ((*axes)[0] == -1 || (*axes)[0] == *rank - 1);
  };
  const ValuePattern square = OneOf({Op("Pow", {Capture(x), ConstScalar(2.0)}), Op("Mul", {Capture(x), Capture(x)})});
  return Op("ReduceMean", {square.OneUse()}).OneUse().WhereNode(over_last_axis);
}

RewritePattern RmsNormalizationPattern() {
  return {.root_ops = {"Mul"},
          .needs = {{{"ReduceMean"}}, {{"Sqrt"}}},
          .min_opset = 23,
          .match_and_rewrite = [](ir::Node& scale, Rewriter& rw) -> absl::StatusOr<int64_t> {
            ir::Value* x = nullptr;
            ir::Value* gamma = nullptr;
            double epsilon = 0;
            const ValuePattern float_x =
                Capture(&x).Where([](const ir::Value& v) { return FloatElemType(&v) == ir::DataType::kFloat; });
            const ValuePattern root =
                Op("Sqrt", {Op("Add", {MeanSquareOverLastAxis(&x, rw.opset()), AnyConstScalar(&epsilon)}).OneUse()})
                    .OneUse();
            const ValuePattern normalized =
                OneOf({Op("Div", {float_x, root}), Op("Mul", {float_x, Op("Reciprocal", {root}).OneUse()})});
            const ir::Tensor* gamma_tensor = nullptr;
            const ValuePattern float_gamma = Constant(&gamma_tensor).Capture(&gamma).Where([&](const ir::Value&) {
              return gamma_tensor->dims().size() <= 1 && gamma_tensor->data_type() == ir::DataType::kFloat;
            });
            if (!rw.Match(Op("Mul", {normalized.OneUse(), float_gamma}), scale.output(0))) return 0;
            absl::StatusOr<ir::Node*> fused = rw.ReplaceWithNode(scale, "RMSNormalization", {x, gamma});
            if (fused.ok() && *fused != nullptr) {
              (*fused)->SetAttribute(ir::Attribute::Int("axis", -1));
              (*fused)->SetAttribute(ir::Attribute::Float("epsilon", static_cast<float>(epsilon)));
            }
            return OneIfReplaced(fused);
          }};
}

class FuseRmsNormalization final : public PatternPass {
 public:
  static constexpr char kName[] = "fuse-rmsnorm";
  FuseRmsNormalization() : PatternPass(kName, {RmsNormalizationPattern()}) {}
};

}  // namespace

REGISTER_PASS(FuseRmsNormalization, FuseRmsNormalization::kName,
              "turn gamma * x / Sqrt(ReduceMean(x^2) + eps) into RMSNormalization");

}  // namespace onnx_opt::passes
