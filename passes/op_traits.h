// What passes may assume about an operator without reading its schema.
#ifndef ONNX_OPT_PASSES_OP_TRAITS_H_
#define ONNX_OPT_PASSES_OP_TRAITS_H_

#include "ir/model.h"
#include "ir/node.h"

namespace onnx_opt::passes {

// True for nodes whose semantics we know: the default ONNX domain, ai.onnx.ml, and calls of
// model-local functions. Nodes of other domains are left untouched by every pass.
bool IsKnownOp(const ir::Model& model, const ir::Node& node);

}  // namespace onnx_opt::passes

#endif  // ONNX_OPT_PASSES_OP_TRAITS_H_
