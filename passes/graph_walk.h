// Visiting every graph of a model: the main graph, graphs nested in node attributes, function
// bodies.
#ifndef ONNX_OPT_PASSES_GRAPH_WALK_H_
#define ONNX_OPT_PASSES_GRAPH_WALK_H_

#include <functional>

#include "absl/status/statusor.h"
#include "ir/model.h"

namespace onnx_opt::passes {

// Runs `fn` on `graph` and then on every graph nested in it (outer before inner, since outer
// rewrites may delete whole subgraphs). `fn` returns whether it changed the graph; the result is
// the "or".
absl::StatusOr<bool> ForEachGraphOuterFirst(
    ir::Graph& graph, const std::function<absl::StatusOr<bool>(ir::Graph&)>& fn);

// The same over the main graph and every function body of `model`.
absl::StatusOr<bool> ForEachGraphOuterFirst(
    ir::Model& model, const std::function<absl::StatusOr<bool>(ir::Graph&)>& fn);

}  // namespace onnx_opt::passes

#endif  // ONNX_OPT_PASSES_GRAPH_WALK_H_
