// identity: removes Identity nodes by forwarding their input to their users. An Identity that
// produces a graph output stays unless its input can take over the output's name.
#include "ir/status_macros.h"
#include "optimizer/pass_registry.h"
#include "passes/forward_value.h"
#include "passes/graph_walk.h"

namespace onnx_opt::passes {
namespace {

class EliminateIdentity final : public optimizer::Pass {
 public:
  std::string_view name() const override { return "identity"; }

  absl::StatusOr<bool> Run(ir::Model& model, optimizer::PassContext& ctx) override {
    return ForEachGraphOuterFirst(model, [&](ir::Graph& g) -> absl::StatusOr<bool> {
      if (g.CountOpType("Identity") == 0) return false;  // nothing to remove
      bool changed = false;
      for (ir::Node* n : g.nodes()) {
        if (!n->is_onnx_domain() || n->op_type() != "Identity" || !n->has_input(0) ||
            n->num_outputs() != 1) {
          continue;
        }
        // Identity on sequences and optionals is fine too: it is the same value either way.
        if (!ForwardValue(n->output(0), n->input(0))) continue;
        RETURN_IF_ERROR(g.Erase(n));
        ctx.CountRewrite();
        changed = true;
      }
      g.ReleaseErased();
      return changed;
    });
  }
};

}  // namespace

REGISTER_PASS(EliminateIdentity, "identity", "remove Identity nodes");

}  // namespace onnx_opt::passes
