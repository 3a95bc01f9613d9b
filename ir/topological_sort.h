// Topological order of a graph's nodes. A node that holds subgraphs depends on whatever those
// subgraphs capture from this graph, as if those values were its inputs.
#ifndef ONNX_OPT_IR_TOPOLOGICAL_SORT_H_
#define ONNX_OPT_IR_TOPOLOGICAL_SORT_H_

#include <vector>

#include "absl/status/statusor.h"
#include "ir/graph.h"

namespace onnx_opt::ir {

// The nodes of `graph` in an order where every producer comes before its users. Stable: nodes
// already in order keep their relative positions. On a cycle, the error names a node on it.
absl::StatusOr<std::vector<Node*>> TopologicalOrder(const Graph& graph);

// Reorders `graph`'s node list (and, recursively, its subgraphs') into topological order.
absl::Status TopologicalSort(Graph& graph);

}  // namespace onnx_opt::ir

#endif  // ONNX_OPT_IR_TOPOLOGICAL_SORT_H_
