// Runs every family table; a new family file is one more line here.

#include <vector>

#include "schema/defs/defs.h"
#include "schema/defs/dsl.h"
#include "schema/domains.h"
#include "schema/op_schema.h"

namespace onnx_opt::schema::defs {

void AddAllSchemas(std::vector<OpSchema>& out) {
  out.reserve(out.size() + 700);
  SchemaSink onnx(kOnnxDomain, out);
  AddMathSchemas(onnx);
  AddActivationSchemas(onnx);
  AddLogicalSchemas(onnx);
  AddNnSchemas(onnx);
  AddAttentionSchemas(onnx);
  AddRnnSchemas(onnx);
  AddReductionSchemas(onnx);
  AddCastSchemas(onnx);
  AddTensorSchemas(onnx);
  AddIndexingSchemas(onnx);
  AddImageSchemas(onnx);
  AddObjectDetectionSchemas(onnx);
  AddGeneratorSchemas(onnx);
  AddQuantizationSchemas(onnx);
  AddSignalSchemas(onnx);
  AddTextSchemas(onnx);
  AddControlFlowSchemas(onnx);
  AddSequenceSchemas(onnx);
  SchemaSink ml(kMlDomain, out);
  AddMlSchemas(ml);
  SchemaSink training(kPreviewTrainingDomain, out);
  AddTrainingSchemas(training);
  SchemaSink preview(kPreviewDomain, out);
  AddPreviewSchemas(preview);
}

}  // namespace onnx_opt::schema::defs
