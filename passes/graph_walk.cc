#include "passes/graph_walk.h"

#include "ir/status_macros.h"

namespace onnx_opt::passes {

absl::StatusOr<bool> ForEachGraphOuterFirst(
    ir::Graph& graph, const std::function<absl::StatusOr<bool>(ir::Graph&)>& fn) {
  ASSIGN_OR_RETURN(bool any, fn(graph));
  // Most graphs hold no subgraph: then there is no need to walk their nodes.
  if (graph.num_subgraph_holders() == 0) return any;
  for (ir::Node* node : graph.nodes()) {
    if (!node->may_have_subgraphs()) continue;
    for (ir::Graph* sub : node->subgraphs()) {
      ASSIGN_OR_RETURN(const bool changed, ForEachGraphOuterFirst(*sub, fn));
      any |= changed;
    }
  }
  return any;
}

absl::StatusOr<bool> ForEachGraphOuterFirst(
    ir::Model& model, const std::function<absl::StatusOr<bool>(ir::Graph&)>& fn) {
  ASSIGN_OR_RETURN(bool any, ForEachGraphOuterFirst(model.graph(), fn));
  for (auto& f : model.functions()) {
    ASSIGN_OR_RETURN(const bool changed, ForEachGraphOuterFirst(f->body(), fn));
    any |= changed;
  }
  return any;
}

}  // namespace onnx_opt::passes
