// A model's graph as Graphviz DOT text, built as a Boost.Graph and printed by write_graphviz: one
// box per node (op type, output shapes where known, and the initializers it reads, collapsed into
// its label rather than drawn one box per weight), ellipses for graph inputs and outputs, and each
// If/Loop/Scan body as a cluster ("cluster_N") that the node holding it points into.
//
// Given the model a pipeline started from, the picture also shows what changed: nodes the input did
// not have (new, or rewired) are filled green, and the input's main-graph nodes that are gone are
// drawn dashed red, wired to what is left of their inputs.
#ifndef ONNX_OPT_TOOLS_DOT_GRAPH_DOT_H_
#define ONNX_OPT_TOOLS_DOT_GRAPH_DOT_H_

#include <string>

#include "ir/model.h"

namespace onnx_opt::tools {

struct DotOptions {
  // The model before the pipeline ran; null: no colours.
  const ir::Model* compare_with = nullptr;
};

std::string ToDot(const ir::Model& model, const DotOptions& options = {});

}  // namespace onnx_opt::tools

#endif  // ONNX_OPT_TOOLS_DOT_GRAPH_DOT_H_
