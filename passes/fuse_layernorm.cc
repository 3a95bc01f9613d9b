// fuse-layernorm: the primitive form exporters write for layer normalization over the last axis,
//   m = ReduceMean(x, [-1]); d = x - m; v = ReduceMean(d ^ 2, [-1]); y = d / Sqrt(v + eps) * g + b
// becomes LayerNormalization(x, g, b, axis=-1, epsilon=eps) where the model's opset has it (17+).
// The scale and bias must be constants; the Add may be missing (bias 0).
#include "ir/constant_value.h"
#include "optimizer/pass_registry.h"
#include "passes/pattern.h"
#include "passes/rewrite/pattern_pass.h"

namespace onnx_opt::passes {
namespace {

using namespace rewrite;  // NOLINT(build/namespaces): the pattern vocabulary

// ReduceMean(operand, axes = [-1], keepdims) used once.
ValuePattern MeanOverLastAxis(ValuePattern operand, int64_t opset) {
  auto over_last_axis = [opset](const ir::Node& reduce) {
    std::optional<std::vector<int64_t>> axes = AxesOf(reduce, opset);
    return axes && axes->size() == 1 && (*axes)[0] == -1 && reduce.GetInt("keepdims", 1) == 1;
  };
  return Op("ReduceMean", {std::move(operand)}).OneUse().WhereNode(over_last_axis);
}

// The single user of `v` if it is an ai.onnx `op` whose other input is a constant: that input.
ir::Node* AffineUser(ir::Value* v, const char* op, ir::Value** constant) {
  if (!HasSingleUse(v)) return nullptr;
  ir::Node* user = v->uses()[0].node;
  if (!user->is_onnx_domain() || user->op_type() != op) return nullptr;
  *constant = OtherInput(*user, v);
  return *constant != nullptr && ir::GetConstantTensor(*constant) != nullptr ? user : nullptr;
}

absl::StatusOr<int64_t> MatchAndRewrite(ir::Node& div, Rewriter& rw) {
  ir::Value* x = nullptr;
  ir::Value* d = nullptr;
  ir::Node* square = nullptr;
  double epsilon = 0;
  const ValuePattern centered = Op("Sub", {Capture(&x), MeanOverLastAxis(Capture(&x), rw.opset())}).Capture(&d);
  const ValuePattern d_squared = OneOf({Op("Pow", {Capture(&d), ConstScalar(2.0)}), Op("Mul", {Capture(&d), Capture(&d)})});
  const ValuePattern variance = MeanOverLastAxis(d_squared.OneUse().CaptureNode(&square), rw.opset());
  const ValuePattern root = Op("Sqrt", {Op("Add", {variance, AnyConstScalar(&epsilon)}).OneUse()}).OneUse();
  if (!rw.Match(Op("Div", {centered, root}), div.output(0))) return 0;
  // d is used by the square and the division only.
  if (d->uses().size() != (square->op_type() == "Mul" ? 3u : 2u)) return 0;

  // The affine part y = normalized * gamma (+ beta), followed downstream.
  ir::Value* gamma = nullptr;
  ir::Value* beta = nullptr;
  ir::Node* mul = AffineUser(div.output(0), "Mul", &gamma);
  if (mul == nullptr) return 0;  // the element type and width come from the scale
  rw.Track(mul);
  ir::Node* last = mul;
  if (ir::Node* add = AffineUser(mul->output(0), "Add", &beta); add != nullptr) {
    rw.Track(add);
    last = add;
  }
  // Scale and bias must be 1-D over the last axis of x's element type; LayerNormalization needs
  // them of the normalized shape, so a scalar gamma (which broadcasts) does not do.
  const ir::Tensor* gt = ir::GetConstantTensor(gamma);
  const ir::Tensor* bt = beta != nullptr ? ir::GetConstantTensor(beta) : nullptr;
  const ir::DataType type = gt->data_type();
  if (type != ir::DataType::kFloat && type != ir::DataType::kDouble && type != ir::DataType::kFloat16 &&
      type != ir::DataType::kBfloat16) {
    return 0;
  }
  if (gt->dims().size() > 1 || (bt != nullptr && (bt->data_type() != type || bt->dims().size() > 1))) return 0;
  if (gt->dims().empty() || (bt != nullptr && bt->dims() != gt->dims())) return 0;

  std::vector<ir::Value*> inputs = {x, gamma};
  if (beta != nullptr) inputs.push_back(beta);
  absl::StatusOr<ir::Node*> fused = rw.ReplaceWithNode(*last, "LayerNormalization", inputs, "_ln");
  if (fused.ok() && *fused != nullptr) {
    (*fused)->SetAttribute(ir::Attribute::Int("axis", -1));
    (*fused)->SetAttribute(ir::Attribute::Float("epsilon", static_cast<float>(epsilon)));
  }
  return OneIfReplaced(fused);
}

class FuseLayerNormalization final : public PatternPass {
 public:
  static constexpr char kName[] = "fuse-layernorm";
  FuseLayerNormalization()
      : PatternPass(kName, {{.root_ops = {"Div"},
                             .needs = {{{"ReduceMean"}, 2}, {{"Sqrt"}}},
                             .min_opset = 17,
                             .match_and_rewrite = MatchAndRewrite}}) {}
};

}  // namespace

REGISTER_PASS(FuseLayerNormalization, FuseLayerNormalization::kName,
              "turn the primitive layer-normalization pattern into LayerNormalization (opset 17+)");

}  // namespace onnx_opt::passes
