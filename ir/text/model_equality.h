// Structural comparison of two models: graphs (inputs, outputs, types, initializers by content,
// nodes in order with domain, op, overload, attributes, inputs by what they refer to and outputs),
// value_info, functions and model metadata. For tests: a round trip through the text syntax or the
// protobuf format must give back an equal model.
#ifndef ONNX_OPT_IR_TEXT_MODEL_EQUALITY_H_
#define ONNX_OPT_IR_TEXT_MODEL_EQUALITY_H_

#include "absl/status/status.h"
#include "ir/graph.h"
#include "ir/model.h"

namespace onnx_opt::ir::text {

struct EqualityOptions {
  // Fields the text syntax cannot express: doc strings of graphs, nodes, values, attributes and
  // tensors; metadata_props of graphs, nodes, values and tensors; type and dim denotations;
  // quantization annotations; training_info and configuration; node device configurations; tensor
  // segments.
  bool compare_non_text_fields = true;
  // Which values are listed in value_info, in which order. (Every value's type is always compared,
  // and so are value_info entries that name no value of their graph.)
  bool compare_value_info = true;
  // How tensors were stored: raw_data or typed fields, or no data. (External data references and
  // the data itself are always compared.)
  bool compare_tensor_storage = false;
};

// What a model keeps through PrintModel and ParseModel: everything but the non-text fields and
// value_info membership (the printer lists every typed value).
EqualityOptions TextRoundTripOptions();

// OK when the models are equal; otherwise an error describing the first difference found, with a
// path to it: "graph 'main' > node #3 (Add): input 1 is 'x' in the first model but 'y' in the
// second".
absl::Status StructurallyEqual(const Model& a, const Model& b);
absl::Status StructurallyEqual(const Model& a, const Model& b, const EqualityOptions& options);

// The same for two graphs (with their subgraphs), e.g. from ParseGraph.
absl::Status StructurallyEqualGraphs(const Graph& a, const Graph& b,
                                     const EqualityOptions& options = {});

}  // namespace onnx_opt::ir::text

#endif  // ONNX_OPT_IR_TEXT_MODEL_EQUALITY_H_
