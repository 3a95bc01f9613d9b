#include "passes/graph_walk.h"

namespace onnx_opt::passes {

absl::StatusOr<bool> ForEachGraphOuterFirst(ir::Graph& graph,
                                            const std::function<absl::StatusOr<bool>(ir::Graph&)>& fn) {
  absl::StatusOr<bool> changed = fn(graph);
  if (!changed.ok()) return changed;
  bool any = *changed;
  // Most graphs hold no subgraph: then there is no need to walk their nodes.
  if (graph.num_subgraph_holders() == 0) return any;
  for (ir::Node* node : graph.nodes()) {
    if (!node->may_have_subgraphs()) continue;
    for (ir::Graph* sub : node->subgraphs()) {
      absl::StatusOr<bool> c = ForEachGraphOuterFirst(*sub, fn);
      if (!c.ok()) return c;
      any |= *c;
    }
  }
  return any;
}

absl::StatusOr<bool> ForEachGraphOuterFirst(ir::Model& model,
                                            const std::function<absl::StatusOr<bool>(ir::Graph&)>& fn) {
  absl::StatusOr<bool> changed = ForEachGraphOuterFirst(model.graph(), fn);
  if (!changed.ok()) return changed;
  bool any = *changed;
  for (auto& f : model.functions()) {
    absl::StatusOr<bool> c = ForEachGraphOuterFirst(f->body(), fn);
    if (!c.ok()) return c;
    any |= *c;
  }
  return any;
}

}  // namespace onnx_opt::passes
