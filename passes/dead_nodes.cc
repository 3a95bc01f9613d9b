// dead-nodes: removes nodes none of whose outputs is used (graph outputs count as uses), in every
// graph and function body. Nodes of unknown domains stay: we cannot know they have no side effects.
#include "ir/status_macros.h"
#include "optimizer/pass_registry.h"
#include "passes/graph_walk.h"
#include "passes/op_traits.h"

namespace onnx_opt::passes {
namespace {

class EliminateDeadNodes final : public optimizer::Pass {
 public:
  std::string_view name() const override { return "dead-nodes"; }

  absl::StatusOr<bool> Run(ir::Model& model, optimizer::PassContext& ctx) override {
    return ForEachGraphOuterFirst(model, [&](ir::Graph& g) -> absl::StatusOr<bool> {
      bool changed = false;
      // Walking backwards removes whole dead chains in one sweep.
      for (ir::Node* n = g.last_node(); n != nullptr;) {
        ir::Node* prev = n->prev();
        if (IsDead(model, *n)) {
          RETURN_IF_ERROR(g.Erase(n));
          ctx.CountRewrite();
          changed = true;
        }
        n = prev;
      }
      g.ReleaseErased();
      return changed;
    });
  }

 private:
  static bool IsDead(const ir::Model& model, const ir::Node& n) {
    for (size_t i = 0; i < n.num_outputs(); ++i) {
      if (n.output(i)->has_uses()) return false;
    }
    return IsKnownOp(model, n);  // a schema lookup: last, since most nodes are used
  }
};

}  // namespace

REGISTER_PASS(EliminateDeadNodes, "dead-nodes", "remove nodes whose outputs are all unused");

}  // namespace onnx_opt::passes
