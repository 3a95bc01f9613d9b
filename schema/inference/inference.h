// Type and shape inference over the IR: InferShapes(model) walks every graph in topological order
// and gives each node output the element type and shape its operator (at the model's opset)
// implies, recursing into If/Loop/Scan bodies and model-local functions.
//
//   std::vector<std::string> warnings;
//   absl::Status s = InferShapes(model, {.strict = false, .warnings = &warnings});
//
// What is known is propagated and nothing is guessed: symbolic dims stay symbolic (N stays N,
// N*2 becomes unknown), and an output whose shape depends on values the graph does not fix stays
// unknown. Values the graph does fix (initializers that are not graph inputs, Constant nodes, and
// shapes computed by Shape/Gather/Slice/Concat/... chains) are used wherever shapes depend on them.
//
// Inferred types are merged with declared ones (value_info, graph outputs): the result keeps the
// most specific facts of both. A contradiction (different element types, ranks or known dims) is
// an error in strict mode and a warning otherwise; so is an operator whose inputs make no sense
// (shapes that cannot broadcast, axes out of range).
#ifndef ONNX_OPT_SCHEMA_INFERENCE_INFERENCE_H_
#define ONNX_OPT_SCHEMA_INFERENCE_INFERENCE_H_

#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "ir/model.h"
#include "ir/type.h"

namespace onnx_opt::schema::inference {

struct InferOptions {
  // Contradictions and invalid operator inputs fail InferShapes instead of becoming warnings.
  bool strict = false;
  // Lists every intermediate value that got a type in its graph's value_info.
  bool fill_value_info = true;
  // Where warnings go (each names the graph node and the problem); dropped when null.
  std::vector<std::string>* warnings = nullptr;
  // When set, the model is left exactly as it was: each type that inference would have written
  // (a value of the main graph or of a subgraph whose merged type differs from its own) goes here
  // instead, and no value_info or graph output description changes. Lets a caller learn the types
  // without paying for a copy of the model to infer on.
  absl::flat_hash_map<const ir::Value*, ir::Type>* types_out = nullptr;
};

absl::Status InferShapes(ir::Model& model, const InferOptions& options = {});

}  // namespace onnx_opt::schema::inference

#endif  // ONNX_OPT_SCHEMA_INFERENCE_INFERENCE_H_
