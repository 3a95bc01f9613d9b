// dead-nodes: removes nodes none of whose outputs is used (graph outputs count as uses), in every
// graph and function body. Nodes of unknown domains stay: we cannot know they have no side effects.
#include "ir/status_macros.h"
#include "optimizer/pass_registry.h"
#include "passes/op_traits.h"
#include "passes/rewrite/graph_pass.h"
#include "passes/rewrite/rewriter.h"

namespace onnx_opt::passes {
namespace {

class EliminateDeadNodes final : public rewrite::GraphPass {
 public:
  static constexpr char kName[] = "dead-nodes";
  EliminateDeadNodes() : GraphPass(kName) {}

  absl::StatusOr<int64_t> RunOnGraph(ir::Graph& g, rewrite::GraphRun& run) override {
    rewrite::Rewriter rw(g, run.opset, run.names, rewrite::TouchedNodes::kIgnore);
    int64_t erased = 0;
    // Walking backwards removes whole dead chains in one sweep.
    for (ir::Node* n : g.nodes_last_to_first()) {
      if (IsDead(run.model, *n)) {
        RETURN_IF_ERROR(rw.EraseNode(*n));
        ++erased;
      }
    }
    return erased;
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

REGISTER_PASS(EliminateDeadNodes, EliminateDeadNodes::kName,
              "remove nodes whose outputs are all unused");

}  // namespace onnx_opt::passes
