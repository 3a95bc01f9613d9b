// fuse-rmsnorm: RMS normalization as exporters write it, gamma * x / Sqrt(ReduceMean(x^2) + eps)
// over the last axis (x^2 as Pow(x, 2) or Mul(x, x); the division as Div, or Mul by Reciprocal),
// becomes RMSNormalization(x, gamma, axis = -1, epsilon = eps) (opset 23). For float32 x; and for
// float16/bfloat16 x when the normalization runs in float32 between Casts, gamma *
// Cast(norm(Cast(x, float)), x's type), as models exported in half precision write it (Hugging
// Face's RMSNorm): that is RMSNormalization's own arithmetic (stash_type 1: normalized in float32,
// cast back, then scaled). A half-precision normalization without the Casts computes differently
// and is left alone. gamma must be a constant of at most one dimension of x's type, so that it
// scales the last axis as the Mul did. The normalization is the shared definition
// fused_expr::RmsNormCore(), which the converter writes below opset 23; Pow(x, 2) and the
// Reciprocal are spellings added here.
#include <memory>

#include "optimizer/pass_registry.h"
#include "passes/rewrite/expr_pattern.h"
#include "passes/rewrite/pattern_pass.h"
#include "passes/rewrite/value_facts.h"
#include "schema/fused_expr/fused_expr.h"

namespace onnx_opt::passes {
namespace {

using namespace rewrite;  // NOLINT(build/namespaces): the pattern vocabulary

// The normalization times gamma, built once; a match binds x, eps and gamma in its captures. With
// `half`, the normalization's input is Cast(x16, to = float) and its result is cast back to x16's
// type before the scale (the types are checked after the match).
class RmsNormMatcher {
 public:
  explicit RmsNormMatcher(bool half) : half_(half), root(Build()) {}

  ExprPattern rms{fused_expr::RmsNormCore()};
  ValueSlot gamma;
  TensorSlot gamma_tensor;
  NodeSlot cast_back;

 private:
  const bool half_;

 public:
  const ValuePattern root;

 private:
  ValuePattern Build();
};

ValuePattern RmsNormMatcher::Build() {
  using namespace fused_expr::rms_norm;  // NOLINT(build/namespaces): the step names
  rms.AddInputCondition(
      0, [](const ir::Value& x) { return FloatElemType(&x) == ir::DataType::kFloat; });
  // Over the last axis of x (as -1 or rank - 1), keeping dims; x is bound by then.
  rms.AddCondition(kMeanSquare, [this](const ir::Node& reduce, const MatchState& state) {
    std::optional<int64_t> rank = RankOf(state.captures()[rms.input_slot(0)]);
    std::optional<std::vector<int64_t>> axes = AxesOf(reduce, state.opset());
    return reduce.GetInt("keepdims", 1) == 1 && rank && axes && axes->size() == 1 &&
           ((*axes)[0] == -1 || (*axes)[0] == *rank - 1);
  });
  rms.AddSpelling(kSquare, Op("Pow", {rms.Input(0), ConstScalar(2.0)}));
  rms.AddSpelling(kNormalized,
                  Op("Mul", {rms.Input(0), Op("Reciprocal", {rms.Step(kRms)}).OneUse()}));
  const ValuePattern any_gamma =
      Constant(gamma_tensor)
          .Capture(gamma)
          .Where([this](const ir::Value&, const MatchState& state) {
            const ir::Tensor* t = state.captures()[gamma_tensor];
            return t->dims().size() <= 1 && (half_ || t->data_type() == ir::DataType::kFloat);
          });
  if (!half_) return Op("Mul", {rms.Root().OneUse(), any_gamma});
  return Op("Mul", {Op("Cast", {rms.Root().OneUse()}).CaptureNode(cast_back).OneUse(), any_gamma});
}

// For the half-precision form: x16 when the normalization's input is Cast(x16, to = float), x16 is
// float16 or bfloat16, the result is cast back to that type and gamma has it too; else null.
ir::Value* HalfPrecisionInput(const RmsNormMatcher& matcher, const Captures& m) {
  const ir::Value* x32 = matcher.rms.input(m, 0);
  const ir::Node* cast = x32->producer();
  if (cast == nullptr || cast->op_type() != "Cast" || !cast->is_onnx_domain() ||
      cast->num_inputs() != 1) {
    return nullptr;
  }
  ir::Value* x16 = cast->input(0);
  const std::optional<ir::DataType> type = FloatElemType(x16);
  if (!type || (*type != ir::DataType::kFloat16 && *type != ir::DataType::kBfloat16))
    return nullptr;
  const ir::Node* back = m[matcher.cast_back];
  if (back->GetInt("to", 0) != static_cast<int64_t>(*type)) return nullptr;
  if (m[matcher.gamma_tensor]->data_type() != *type) return nullptr;
  return x16;
}

RewritePattern RmsNormalizationPattern(bool half) {
  auto matcher = std::make_shared<const RmsNormMatcher>(half);
  return {.name = half ? "rms-normalization-half" : "rms-normalization",
          .root_ops = {"Mul"},
          .needs = {{{"ReduceMean"}}, {{"Sqrt"}}},
          .min_opset = 23,
          .match_and_rewrite = [matcher, half](ir::Node& scale,
                                               Rewriter& rw) -> absl::StatusOr<int64_t> {
            const Captures* m = rw.Match(matcher->root, scale.output(0));
            if (m == nullptr) return 0;
            ir::Value* x = matcher->rms.input(*m, 0);
            if (half) {
              x = HalfPrecisionInput(*matcher, *m);
              if (x == nullptr) return 0;
              rw.Track(matcher->rms.input(*m, 0)->producer());  // the Cast to float goes once dead
            }
            const double epsilon = matcher->rms.param(*m, 0);
            absl::StatusOr<ir::Node*> fused =
                rw.ReplaceWithNode(scale, "RMSNormalization", {x, (*m)[matcher->gamma]});
            if (fused.ok() && *fused != nullptr) {
              rw.SetAttribute(**fused, ir::Attribute::Int("axis", -1));
              rw.SetAttribute(**fused,
                              ir::Attribute::Float("epsilon", static_cast<float>(epsilon)));
            }
            return OneIfReplaced(fused);
          }};
}

class FuseRmsNormalization final : public PatternPass {
 public:
  static constexpr char kName[] = "fuse-rmsnorm";
  FuseRmsNormalization()
      : PatternPass(kName, [] {
          return std::vector<RewritePattern>{RmsNormalizationPattern(false),
                                             RmsNormalizationPattern(true)};
        }) {}
};

}  // namespace

REGISTER_PASS(FuseRmsNormalization, FuseRmsNormalization::kName,
              "turn gamma * x / Sqrt(ReduceMean(x^2) + eps) into RMSNormalization");

}  // namespace onnx_opt::passes
