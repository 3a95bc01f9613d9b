// fuse-gelu: the exact (erf) form exporters write,
//   y = x * 0.5 * (1 + Erf(x / sqrt(2)))      (the factors in any order; x / sqrt(2) may be
//                                               x * (1 / sqrt(2)))
// becomes Gelu(x) where the model's opset has it (20+).
#include <cmath>

#include "ir/name_generator.h"
#include "optimizer/pass_registry.h"
#include "passes/forward_value.h"
#include "passes/graph_walk.h"
#include "passes/pattern.h"

namespace onnx_opt::passes {
namespace {

bool Near(std::optional<double> v, double want) {
  return v.has_value() && std::fabs(*v - want) <= 1e-4 * std::fabs(want);
}

class FuseGelu final : public optimizer::Pass {
 public:
  std::string_view name() const override { return "fuse-gelu"; }

  absl::StatusOr<bool> Run(ir::Model& model, optimizer::PassContext& ctx) override {
    if (model.OpsetVersion("").value_or(0) < 20) return false;
    ir::NameGenerator names(model);
    return ForEachGraphOuterFirst(model, [&](ir::Graph& g) -> absl::StatusOr<bool> {
      if (g.CountOpType("Erf") == 0) return false;  // needs an Erf
      bool changed = false;
      for (ir::Node* erf : g.nodes()) {
        if (!erf->is_onnx_domain() || erf->op_type() != "Erf") continue;
        if (TryFuse(g, *erf, names)) {
          ctx.CountRewrite();
          changed = true;
        }
      }
      g.ReleaseErased();
      return changed;
    });
  }

 private:
  // The single node using `v`, if it is `op`.
  static ir::Node* OnlyUser(const ir::Value* v, std::string_view op) {
    if (!HasSingleUse(v)) return nullptr;
    ir::Node* n = v->uses()[0].node;
    return n->is_onnx_domain() && n->op_type() == op && n->num_inputs() == 2 ? n : nullptr;
  }

  static bool TryFuse(ir::Graph& g, ir::Node& erf, ir::NameGenerator& names) {
    // Erf's input: x / sqrt(2) or x * (1/sqrt(2)).
    ir::Node* scale = ProducerOf(erf.input(0), "Div", &g);
    ir::Value* x = nullptr;
    if (scale != nullptr && Near(ScalarConstant(scale->input(1)), std::sqrt(2.0))) {
      x = scale->input(0);
    } else {
      scale = ProducerOf(erf.input(0), "Mul", &g);
      if (scale == nullptr) return false;
      for (size_t side : {0, 1}) {
        if (Near(ScalarConstant(scale->input(1 - side)), 1.0 / std::sqrt(2.0))) x = scale->input(side);
      }
    }
    if (x == nullptr || !HasSingleUse(scale->output(0)) || !HasSingleUse(erf.output(0))) return false;
    // 1 + erf
    ir::Node* add = OnlyUser(erf.output(0), "Add");
    if (add == nullptr || !Near(ScalarConstant(OtherInput(*add, erf.output(0))), 1.0)) return false;
    // Two multiplications combine x, 0.5 and (1 + erf) in some order.
    ir::Node* mul1 = OnlyUser(add->output(0), "Mul");
    if (mul1 == nullptr) return false;
    ir::Value* other = OtherInput(*mul1, add->output(0));
    ir::Node* mul2 = nullptr;
    ir::Node* half = nullptr;
    if (other == x) {
      // (x * (1 + erf)) * 0.5
      mul2 = OnlyUser(mul1->output(0), "Mul");
      if (mul2 == nullptr || !Near(ScalarConstant(OtherInput(*mul2, mul1->output(0))), 0.5)) return false;
    } else if (Near(ScalarConstant(other), 0.5)) {
      // ((1 + erf) * 0.5) * x
      mul2 = OnlyUser(mul1->output(0), "Mul");
      if (mul2 == nullptr || OtherInput(*mul2, mul1->output(0)) != x) return false;
    } else {
      // (x * 0.5) * (1 + erf)
      half = ProducerOf(other, "Mul", &g);
      if (half == nullptr || !HasSingleUse(half->output(0))) return false;
      if (!((half->input(0) == x && Near(ScalarConstant(half->input(1)), 0.5)) ||
            (half->input(1) == x && Near(ScalarConstant(half->input(0)), 0.5)))) {
        return false;
      }
    }
    ir::Node* last = mul2 != nullptr ? mul2 : mul1;
    ir::Value* out = last->output(0);
    ir::Node* gelu = g.InsertAfter(last, ir::Node::Create("", "Gelu", {x}, {names.Fresh(out->name() + "_gelu")}));
    if (!ForwardValue(out, gelu->output(0))) {
      gelu->RemoveAllInputs();
      (void)g.Erase(gelu);
      return false;
    }
    // The matched nodes are dead now; erase users before producers.
    std::vector<ir::Node*> order;
    if (mul2 != nullptr) order.push_back(mul2);
    order.push_back(mul1);
    if (half != nullptr) order.push_back(half);
    for (ir::Node* n : {add, &erf, scale}) order.push_back(n);
    for (ir::Node* n : order) (void)g.Erase(n);
    return true;
  }
};

}  // namespace

REGISTER_PASS(FuseGelu, "fuse-gelu", "turn the primitive erf form of GELU into Gelu (opset 20+)");

}  // namespace onnx_opt::passes
