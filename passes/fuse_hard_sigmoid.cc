// fuse-hard-sigmoid: relu6(x + 3) / 6, as exporters write PyTorch's hardsigmoid (Div by 6 or Mul by
// 1/6 of Clip(Add(x, 3), 0, 6)), becomes HardSigmoid(x, alpha = 1/6, beta = 0.5): the same
// max(0, min(1, x/6 + 1/2)) up to float rounding. HardSigmoid-6 and later (version 1 had a
// different attribute set); floating-point x only.
#include "optimizer/pass_registry.h"
#include "passes/graph_walk.h"
#include "passes/pattern.h"

namespace onnx_opt::passes {
namespace {

class FuseHardSigmoid final : public optimizer::Pass {
 public:
  std::string_view name() const override { return "fuse-hard-sigmoid"; }

  absl::StatusOr<bool> Run(ir::Model& model, optimizer::PassContext& ctx) override {
    const int64_t opset = model.OpsetVersion("").value_or(0);
    if (opset < 6) return false;
    ir::NameGenerator names(model);
    return ForEachGraphOuterFirst(model, [&](ir::Graph& g) -> absl::StatusOr<bool> {
      if (g.CountOpType("Clip") == 0) return false;  // needs a Clip (relu6)
      bool changed = false;
      for (ir::Node* n : g.nodes()) {
        if (!n->is_onnx_domain() || (n->op_type() != "Div" && n->op_type() != "Mul")) continue;
        ir::Value* relu6 = n->op_type() == "Div" ? InputBesideScalar(*n, 6.0, /*commutative=*/false)
                                                 : InputBesideScalar(*n, 1.0 / 6.0);
        if (relu6 == nullptr) continue;
        std::optional<Relu6OfXPlus3> m = MatchRelu6OfXPlus3(relu6, g, opset);
        if (!m || !FloatElemType(m->x)) continue;
        ir::Node* fused = ReplaceChain(g, n, "HardSigmoid", {m->x}, {m->clip, m->add}, names);
        if (fused == nullptr) continue;
        fused->SetAttribute(ir::Attribute::Float("alpha", 1.0f / 6.0f));
        fused->SetAttribute(ir::Attribute::Float("beta", 0.5f));
        ctx.CountRewrite();
        changed = true;
      }
      g.ReleaseErased();
      return changed;
    });
  }
};

}  // namespace

REGISTER_PASS(FuseHardSigmoid, "fuse-hard-sigmoid", "turn Clip(x + 3, 0, 6) / 6 into HardSigmoid(x)");

}  // namespace onnx_opt::passes
