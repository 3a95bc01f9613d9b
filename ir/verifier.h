// Structural verification of the IR: SSA names, every use defined in scope and before its user,
// use lists consistent with inputs and outputs. Cheap enough to run after every pass.
#ifndef ONNX_OPT_IR_VERIFIER_H_
#define ONNX_OPT_IR_VERIFIER_H_

#include "absl/status/status.h"
#include "ir/model.h"

namespace onnx_opt::ir {

// Checks the main graph, every subgraph and every function body.
absl::Status Verify(const Model& model);

// Checks one graph and the graphs nested in it. Names must be unique across `graph` and its
// subgraphs (outer names that are in scope may not be redefined).
absl::Status VerifyGraph(const Graph& graph);

}  // namespace onnx_opt::ir

#endif  // ONNX_OPT_IR_VERIFIER_H_
