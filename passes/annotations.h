// Visiting every free-text annotation of a model: doc strings and metadata_props of the model,
// functions, graphs (nested ones too), nodes, attributes, values, graph outputs, value_info entries
// and tensors. The strip-* passes use it; nothing here affects what a model computes.
#ifndef ONNX_OPT_PASSES_ANNOTATIONS_H_
#define ONNX_OPT_PASSES_ANNOTATIONS_H_

#include <functional>
#include <string>

#include "ir/model.h"

namespace onnx_opt::passes {

// `metadata` is null where the proto message has no metadata_props (attributes).
using AnnotationVisitor = std::function<void(std::string& doc_string, ir::StringPairs* metadata)>;

void ForEachAnnotation(ir::Model& model, const AnnotationVisitor& visit);

}  // namespace onnx_opt::passes

#endif  // ONNX_OPT_PASSES_ANNOTATIONS_H_
