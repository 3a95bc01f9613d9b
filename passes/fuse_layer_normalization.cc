// fuse-layernorm: the primitive form exporters write for layer normalization over the last axis,
//   m = ReduceMean(x, [-1]); d = x - m; v = ReduceMean(d ^ 2, [-1]); y = d / Sqrt(v + eps) * g + b
// becomes LayerNormalization(x, g, b, axis=-1, epsilon=eps) where the model's opset has it (17+).
// The scale and bias must be constants; the Mul and Add may be missing (scale 1, bias 0).
#include <cmath>

#include "ir/name_generator.h"
#include "optimizer/pass_registry.h"
#include "passes/constant.h"
#include "passes/forward_value.h"
#include "passes/graph_walk.h"
#include "passes/pattern.h"

namespace onnx_opt::passes {
namespace {

bool IsLastAxis(const std::optional<std::vector<int64_t>>& axes) {
  return axes.has_value() && axes->size() == 1 && (*axes)[0] == -1;
}

class FuseLayerNormalization final : public optimizer::Pass {
 public:
  std::string_view name() const override { return "fuse-layernorm"; }

  absl::StatusOr<bool> Run(ir::Model& model, optimizer::PassContext& ctx) override {
    const int64_t opset = model.OpsetVersion("").value_or(0);
    if (opset < 17) return false;
    ir::NameGenerator names(model);
    return ForEachGraphOuterFirst(model, [&](ir::Graph& g) -> absl::StatusOr<bool> {
      // Skips the walk when the graph cannot hold the pattern: it needs two ReduceMeans and a Sqrt.
      if (g.CountOpType("ReduceMean") < 2 || g.CountOpType("Sqrt") == 0) return false;
      bool changed = false;
      for (ir::Node* div : g.nodes()) {
        if (!div->is_onnx_domain() || div->op_type() != "Div" || div->num_inputs() != 2) continue;
        if (TryFuse(g, *div, opset, names)) {
          ctx.CountRewrite();
          changed = true;
        }
      }
      g.ReleaseErased();
      return changed;
    });
  }

 private:
  static bool TryFuse(ir::Graph& g, ir::Node& div, int64_t opset, ir::NameGenerator& names) {
    // div = d / sqrt(var + eps), d = x - mean
    ir::Node* sub = ProducerOf(div.input(0), "Sub", &g);
    ir::Node* sqrt = ProducerOf(div.input(1), "Sqrt", &g);
    if (sub == nullptr || sqrt == nullptr || !HasSingleUse(sqrt->output(0))) return false;
    ir::Node* mean = ProducerOf(sub->input(1), "ReduceMean", &g);
    if (mean == nullptr || mean->input(0) != sub->input(0) || !IsLastAxis(AxesOf(*mean, opset)) ||
        mean->GetInt("keepdims", 1) != 1 || !HasSingleUse(mean->output(0))) {
      return false;
    }
    ir::Value* x = sub->input(0);
    ir::Node* add_eps = ProducerOf(sqrt->input(0), "Add", &g);
    if (add_eps == nullptr || !HasSingleUse(add_eps->output(0))) return false;
    ir::Node* var = nullptr;
    std::optional<double> eps;
    for (size_t side : {0, 1}) {
      var = ProducerOf(add_eps->input(side), "ReduceMean", &g);
      eps = ScalarConstant(add_eps->input(1 - side));
      if (var != nullptr && eps.has_value()) break;
      var = nullptr;
    }
    if (var == nullptr || !IsLastAxis(AxesOf(*var, opset)) || var->GetInt("keepdims", 1) != 1 ||
        !HasSingleUse(var->output(0))) {
      return false;
    }
    // var = mean(d^2): Pow(d, 2) or Mul(d, d)
    ir::Node* sq = ProducerOf(var->input(0), "Pow", &g);
    if (sq != nullptr) {
      if (sq->input(0) != div.input(0) || ScalarConstant(sq->input(1)) != 2.0) return false;
    } else {
      sq = ProducerOf(var->input(0), "Mul", &g);
      if (sq == nullptr || sq->input(0) != div.input(0) || sq->input(1) != div.input(0)) return false;
    }
    if (!HasSingleUse(sq->output(0))) return false;
    // d is used by the square and the division only.
    if (sub->output(0)->uses().size() != (sq->op_type() == "Mul" ? 3u : 2u)) return false;

    // Optional affine part: y = div * gamma + beta.
    ir::Value* out = div.output(0);
    ir::Value* gamma = nullptr;
    ir::Value* beta = nullptr;
    std::vector<ir::Node*> affine;
    if (HasSingleUse(out)) {
      ir::Node* mul = out->uses()[0].node;
      if (mul->is_onnx_domain() && mul->op_type() == "Mul" && OtherInput(*mul, out) != nullptr &&
          GetConstantTensor(OtherInput(*mul, out)) != nullptr) {
        gamma = OtherInput(*mul, out);
        affine.push_back(mul);
        out = mul->output(0);
        if (HasSingleUse(out)) {
          ir::Node* add = out->uses()[0].node;
          if (add->is_onnx_domain() && add->op_type() == "Add" && OtherInput(*add, out) != nullptr &&
              GetConstantTensor(OtherInput(*add, out)) != nullptr) {
            beta = OtherInput(*add, out);
            affine.push_back(add);
            out = add->output(0);
          }
        }
      }
    }
    // Scale and bias must be 1-D over the last axis (or scalars) of x's element type.
    const ir::Tensor* xt_ref = gamma != nullptr ? GetConstantTensor(gamma) : nullptr;
    const ir::DataType type = xt_ref != nullptr ? xt_ref->data_type() : ir::DataType::kFloat;
    if (type != ir::DataType::kFloat && type != ir::DataType::kDouble && type != ir::DataType::kFloat16 &&
        type != ir::DataType::kBfloat16) {
      return false;
    }
    for (ir::Value* p : {gamma, beta}) {
      if (p == nullptr) continue;
      const ir::Tensor* t = GetConstantTensor(p);
      if (t->data_type() != type || t->dims().size() > 1) return false;
    }
    if (gamma == nullptr) return false;  // the element type and width come from the scale
    const ir::Tensor* gt = GetConstantTensor(gamma);
    // LayerNormalization needs scale and bias of the normalized shape: a scalar gamma is broadcast.
    if (gt->dims().empty() || (beta != nullptr && GetConstantTensor(beta)->dims() != gt->dims())) {
      return false;
    }

    auto ln = ir::Node::Create("", "LayerNormalization", {x, gamma}, {names.Fresh(out->name() + "_ln")});
    if (beta != nullptr) ln->AddInput(beta);
    ln->SetAttribute(ir::Attribute::Int("axis", -1));
    ln->SetAttribute(ir::Attribute::Float("epsilon", static_cast<float>(*eps)));
    ir::Node* last = affine.empty() ? &div : affine.back();
    ir::Node* fused = g.InsertAfter(last, std::move(ln));
    if (!ForwardValue(out, fused->output(0))) {
      fused->RemoveAllInputs();
      (void)g.Erase(fused);
      return false;
    }
    // The matched nodes are now dead; erase them from the last to the first.
    for (auto it = affine.rbegin(); it != affine.rend(); ++it) (void)g.Erase(*it);
    for (ir::Node* n : {&div, sqrt, add_eps, var, sq, sub, mean}) (void)g.Erase(n);
    return true;
  }
};

}  // namespace

REGISTER_PASS(FuseLayerNormalization, "fuse-layernorm",
              "turn the primitive layer-normalization pattern into LayerNormalization (opset 17+)");

}  // namespace onnx_opt::passes
