// What a subgraph captures: values it (or a graph nested in it) uses that are defined outside it.
#ifndef ONNX_OPT_IR_CAPTURES_H_
#define ONNX_OPT_IR_CAPTURES_H_

#include <vector>

#include "ir/graph.h"

namespace onnx_opt::ir {

// Outer values used by `graph`'s nodes and outputs, including those of graphs nested in it; each
// listed once, in order of first use.
std::vector<Value*> CapturedValues(const Graph& graph);

// Calls `fn(node)` for every node of `graph` and, depth-first, of every graph nested in it.
template <typename Fn>
void ForEachNodeRecursive(const Graph& graph, Fn&& fn) {
  for (Node* node : graph.nodes()) {
    fn(node);
    for (Graph* sub : node->subgraphs()) ForEachNodeRecursive(*sub, fn);
  }
}

}  // namespace onnx_opt::ir

#endif  // ONNX_OPT_IR_CAPTURES_H_
