// fuse-rmsnorm: RMS normalization as exporters write it, gamma * x / Sqrt(ReduceMean(x^2) + eps)
// over the last axis (x^2 as Pow(x, 2) or Mul(x, x); the division as Div, or Mul by Reciprocal),
// becomes RMSNormalization(x, gamma, axis = -1, epsilon = eps) (opset 23). Only for float32 x:
// RMSNormalization computes in float32 (stash_type 1), which for other types differs from the
// original arithmetic. gamma must be a constant of at most one dimension, so that it scales the
// last axis the way the Mul did. The normalization is the shared definition
// fused_expr::RmsNormCore(), which the converter writes below opset 23; Pow(x, 2) and the
// Reciprocal are spellings added here.
#include <memory>

#include "schema/fused_expr/fused_expr.h"
#include "optimizer/pass_registry.h"
#include "passes/rewrite/expr_pattern.h"
#include "passes/rewrite/pattern_pass.h"
#include "passes/rewrite/value_facts.h"

namespace onnx_opt::passes {
namespace {

using namespace rewrite;  // NOLINT(build/namespaces): the pattern vocabulary

// The normalization times gamma, built once; a match binds x, eps and gamma in its captures.
class RmsNormMatcher {
 public:
  ExprPattern rms{fused_expr::RmsNormCore()};
  ValueSlot gamma;
  TensorSlot gamma_tensor;
  const ValuePattern root = Build();

 private:
  ValuePattern Build();
};

ValuePattern RmsNormMatcher::Build() {
  using namespace fused_expr::rms_norm;  // NOLINT(build/namespaces): the step names
  rms.AddInputCondition(0, [](const ir::Value& x) { return FloatElemType(&x) == ir::DataType::kFloat; });
  // Over the last axis of x (as -1 or rank - 1), keeping dims; x is bound by then.
  rms.AddCondition(kMeanSquare, [this](const ir::Node& reduce, const MatchState& state) {
    std::optional<int64_t> rank = RankOf(state.captures()[rms.input_slot(0)]);
    std::optional<std::vector<int64_t>> axes = AxesOf(reduce, state.opset());
    return reduce.GetInt("keepdims", 1) == 1 && rank && axes && axes->size() == 1 &&
           ((*axes)[0] == -1 || (*axes)[0] == *rank - 1);
  });
  rms.AddSpelling(kSquare, Op("Pow", {rms.Input(0), ConstScalar(2.0)}));
  rms.AddSpelling(kNormalized, Op("Mul", {rms.Input(0), Op("Reciprocal", {rms.Step(kRms)}).OneUse()}));
  const ValuePattern float_gamma =
      Constant(gamma_tensor).Capture(gamma).Where([this](const ir::Value&, const MatchState& state) {
        const ir::Tensor* t = state.captures()[gamma_tensor];
        return t->dims().size() <= 1 && t->data_type() == ir::DataType::kFloat;
      });
  return Op("Mul", {rms.Root().OneUse(), float_gamma});
}

RewritePattern RmsNormalizationPattern() {
  auto matcher = std::make_shared<const RmsNormMatcher>();
  return {.name = "rms-normalization",
          .root_ops = {"Mul"},
          .needs = {{{"ReduceMean"}}, {{"Sqrt"}}},
          .min_opset = 23,
          .match_and_rewrite = [matcher](ir::Node& scale, Rewriter& rw) -> absl::StatusOr<int64_t> {
            const Captures* m = rw.Match(matcher->root, scale.output(0));
            if (m == nullptr) return 0;
            const double epsilon = matcher->rms.param(*m, 0);
            absl::StatusOr<ir::Node*> fused =
                rw.ReplaceWithNode(scale, "RMSNormalization", {matcher->rms.input(*m, 0), (*m)[matcher->gamma]});
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
