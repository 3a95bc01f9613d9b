// merge-constants: (x * c1) * c2 becomes x * (c1 * c2), and (x + c1) + c2 becomes x + (c1 + c2), when
// the inner result has no other use; the new constant product or sum is computed by fold-constants.
// Broadcasting is associative, so shapes are unchanged; float results may differ in the last bit.
#include "ir/name_generator.h"
#include "optimizer/pass_registry.h"
#include "passes/constant.h"
#include "passes/graph_walk.h"
#include "passes/pattern.h"

namespace onnx_opt::passes {
namespace {

// The non-constant input of a binary node whose other input is constant, and that constant.
bool SplitConstant(const ir::Node& n, ir::Value** x, ir::Value** c) {
  if (n.num_inputs() != 2 || !n.has_input(0) || !n.has_input(1)) return false;
  for (size_t side : {0, 1}) {
    if (GetConstantTensor(n.input(1 - side)) != nullptr && GetConstantTensor(n.input(side)) == nullptr) {
      *x = n.input(side);
      *c = n.input(1 - side);
      return true;
    }
  }
  return false;
}

class MergeConstantOperands final : public optimizer::Pass {
 public:
  std::string_view name() const override { return "merge-constants"; }

  absl::StatusOr<bool> Run(ir::Model& model, optimizer::PassContext& ctx) override {
    // Before opset 7, Add and Mul broadcast only with attributes.
    if (model.OpsetVersion("").value_or(0) < 7) return false;
    ir::NameGenerator names(model);
    return ForEachGraphOuterFirst(model, [&](ir::Graph& g) -> absl::StatusOr<bool> {
      bool changed = false;
      for (ir::Node* outer : g.nodes()) {
        if (!outer->is_onnx_domain() || (outer->op_type() != "Mul" && outer->op_type() != "Add")) continue;
        ir::Value* y = nullptr;
        ir::Value* c2 = nullptr;
        if (!SplitConstant(*outer, &y, &c2)) continue;
        ir::Node* inner = ProducerOf(y, outer->op_type(), &g);
        ir::Value* x = nullptr;
        ir::Value* c1 = nullptr;
        if (inner == nullptr || !HasSingleUse(y) || !SplitConstant(*inner, &x, &c1)) continue;
        // outer = x op (c1 op c2): the constant combination goes in front of the outer node.
        ir::Node* combined = g.InsertBefore(
            outer, ir::Node::Create("", outer->op_type(), {c1, c2}, {names.Fresh(c1->name() + "_merged")}));
        outer->SetInput(0, x);
        outer->SetInput(1, combined->output(0));
        (void)g.Erase(inner);
        ctx.CountRewrite();
        changed = true;
      }
      g.ReleaseErased();
      return changed;
    });
  }
};

}  // namespace

REGISTER_PASS(MergeConstantOperands, "merge-constants",
              "merge chained Mul (or Add) by constants into one Mul (Add) by a folded constant");

}  // namespace onnx_opt::passes
