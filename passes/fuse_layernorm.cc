// fuse-layernorm: the primitive form exporters write for layer normalization over the last axis,
//   m = ReduceMean(x, [-1]); d = x - m; v = ReduceMean(d ^ 2, [-1]); y = d / Sqrt(v + eps) * g + b
// (or d * Reciprocal(Sqrt(v + eps)), as the converter writes it below opset 17 from the shared
// definition fused_expr::LayerNormCore()) becomes LayerNormalization(x, g, b, axis=-1,
// epsilon=eps) where the model's opset has it (17+).
// The scale and bias must be constants; the Add may be missing (bias 0).
#include <memory>

#include "ir/constant_value.h"
#include "optimizer/pass_registry.h"
#include "passes/rewrite/expr_pattern.h"
#include "passes/rewrite/pattern_pass.h"
#include "passes/rewrite/value_facts.h"
#include "schema/fused_expr/fused_expr.h"

namespace onnx_opt::passes {
namespace {

using namespace rewrite;  // NOLINT(build/namespaces): the pattern vocabulary

// ReduceMean over axes = [-1], keeping dims.
bool OverLastAxis(const ir::Node& reduce, int64_t opset) {
  std::optional<std::vector<int64_t>> axes = AxesOf(reduce, opset);
  return axes && axes->size() == 1 && (*axes)[0] == -1 && reduce.GetInt("keepdims", 1) == 1;
}

// The normalization over the last axis of x: the shared definition (x - mean) * Reciprocal(std),
// which the converter writes below opset 17, or as exporters write it, (x - mean) / std, with
// d ^ 2 as Pow(d, 2) or Mul(d, d). Built once; a match binds x and eps in its captures.
class NormalizationMatcher {
 public:
  ExprPattern ln{fused_expr::LayerNormCore()};
  const ValuePattern root = Build();

 private:
  ValuePattern Build() {
    using namespace fused_expr::layer_norm;  // NOLINT(build/namespaces): the step names
    for (int reduce : {kMean, kVariance}) {
      ln.AddCondition(reduce, [](const ir::Node& n, const MatchState& state) {
        return OverLastAxis(n, state.opset());
      });
    }
    ln.AddSpelling(kSquare, Op("Pow", {ln.Step(kCentered), ConstScalar(2.0)}));
    ln.AddSpelling(kNormalized, Op("Div", {ln.Step(kCentered), ln.Step(kStdDev)}));
    return ln.Root();
  }
};

// The single user of `v` if it is an ai.onnx `op` whose other input is a constant: that input.
ir::Node* AffineUser(ir::Value* v, const char* op, ir::Value** constant) {
  if (!HasSingleUse(v)) return nullptr;
  ir::Node* user = v->uses()[0].node;
  if (!user->is_onnx_domain() || user->op_type() != op) return nullptr;
  *constant = OtherInput(*user, v);
  return *constant != nullptr && ir::GetConstantTensor(*constant) != nullptr ? user : nullptr;
}

// Scale and bias must be 1-D over the last axis of x's element type; LayerNormalization needs
// them of the normalized shape, so a scalar gamma (which broadcasts) does not do.
bool ScaleAndBiasFit(ir::Value* gamma, ir::Value* beta) {
  const ir::Tensor* gt = ir::GetConstantTensor(gamma);
  const ir::Tensor* bt = beta != nullptr ? ir::GetConstantTensor(beta) : nullptr;
  const ir::DataType type = gt->data_type();
  if (type != ir::DataType::kFloat && type != ir::DataType::kDouble &&
      type != ir::DataType::kFloat16 && type != ir::DataType::kBfloat16) {
    return false;
  }
  if (gt->dims().size() > 1 ||
      (bt != nullptr && (bt->data_type() != type || bt->dims().size() > 1)))
    return false;
  return !gt->dims().empty() && (bt == nullptr || bt->dims() == gt->dims());
}

absl::StatusOr<int64_t> MatchAndRewrite(const NormalizationMatcher& normalization, ir::Node& root,
                                        Rewriter& rw) {
  const Captures* m = rw.Match(normalization.root, root.output(0));
  if (m == nullptr) return 0;
  const ExprPattern& ln = normalization.ln;

  // The affine part y = normalized * gamma (+ beta), followed downstream.
  ir::Value* gamma = nullptr;
  ir::Value* beta = nullptr;
  ir::Node* mul = AffineUser(root.output(0), "Mul", &gamma);
  if (mul == nullptr) return 0;  // the element type and width come from the scale
  rw.Track(mul);
  ir::Node* last = mul;
  if (ir::Node* add = AffineUser(mul->output(0), "Add", &beta); add != nullptr) {
    rw.Track(add);
    last = add;
  }
  if (!ScaleAndBiasFit(gamma, beta)) return 0;

  std::vector<ir::Value*> inputs = {ln.input(*m, 0), gamma};
  const double epsilon = ln.param(*m, 0);
  if (beta != nullptr) inputs.push_back(beta);
  absl::StatusOr<ir::Node*> fused = rw.ReplaceWithNode(*last, "LayerNormalization", inputs, "_ln");
  if (fused.ok() && *fused != nullptr) {
    rw.SetAttribute(**fused, ir::Attribute::Int("axis", -1));
    rw.SetAttribute(**fused, ir::Attribute::Float("epsilon", static_cast<float>(epsilon)));
  }
  return OneIfReplaced(fused);
}

RewritePattern LayerNormalizationPattern() {
  auto normalization = std::make_shared<const NormalizationMatcher>();
  return {.name = "layer-normalization",
          .root_ops = {"Div", "Mul"},
          .needs = {{{"ReduceMean"}, 2}, {{"Sqrt"}}},
          .min_opset = 17,
          .match_and_rewrite = [normalization](ir::Node& root, Rewriter& rw) {
            return MatchAndRewrite(*normalization, root, rw);
          }};
}

class FuseLayerNormalization final : public PatternPass {
 public:
  static constexpr char kName[] = "fuse-layernorm";
  FuseLayerNormalization()
      : PatternPass(kName,
                    [] { return std::vector<RewritePattern>{LayerNormalizationPattern()}; }) {}
};

}  // namespace

REGISTER_PASS(FuseLayerNormalization, FuseLayerNormalization::kName,
              "turn the primitive layer-normalization pattern into LayerNormalization (opset 17+)");

}  // namespace onnx_opt::passes
