// Deep copies of models and graphs. The IR has no copy constructor (values and nodes are linked by
// pointers), so the converter works on a clone and hands it back only when every step succeeded.
// Tensor data is shared, not copied: tensors view the same immutable buffers (file bytes, mmaps).
#ifndef ONNX_OPT_CONVERTER_MODEL_CLONE_H_
#define ONNX_OPT_CONVERTER_MODEL_CLONE_H_

#include <memory>

#include "absl/status/statusor.h"
#include "ir/attribute.h"
#include "ir/function.h"
#include "ir/graph.h"
#include "ir/model.h"

namespace onnx_opt::converter {

// Everything: graph (with subgraphs), functions, opset imports and metadata. Fails only on a
// structurally broken model (a node using a value that is not in scope).
absl::StatusOr<std::unique_ptr<ir::Model>> CloneModel(const ir::Model& model);

// A standalone graph (e.g. from ParseGraph); every value it uses must be defined in it.
absl::StatusOr<std::unique_ptr<ir::Graph>> CloneGraph(const ir::Graph& graph);

}  // namespace onnx_opt::converter

#endif  // ONNX_OPT_CONVERTER_MODEL_CLONE_H_
