// Deep copies of models and graphs. The IR has no copy constructor (values and nodes are linked by
// pointers); a clone is how to keep the original while editing (the converter works on a clone and
// hands it back only when every step succeeded; onnx-opt keeps the input to verify against).
// Tensor data is shared, not copied: tensors view the same immutable buffers (file bytes, mmaps).
#ifndef ONNX_OPT_IR_CLONE_H_
#define ONNX_OPT_IR_CLONE_H_

#include <memory>

#include "absl/status/statusor.h"
#include "ir/graph.h"
#include "ir/model.h"

namespace onnx_opt::ir {

// Everything: graph (with subgraphs), functions, opset imports and metadata. Fails only on a
// structurally broken model (a node using a value that is not in scope).
absl::StatusOr<std::unique_ptr<Model>> CloneModel(const Model& model);

// A standalone graph (e.g. from ParseGraph); every value it uses must be defined in it.
absl::StatusOr<std::unique_ptr<Graph>> CloneGraph(const Graph& graph);

}  // namespace onnx_opt::ir

#endif  // ONNX_OPT_IR_CLONE_H_
