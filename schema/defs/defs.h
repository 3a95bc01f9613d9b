#ifndef ONNX_OPT_SCHEMA_DEFS_DEFS_H_
#define ONNX_OPT_SCHEMA_DEFS_DEFS_H_

// The operator tables, one function per family file. Only op_registry.cc calls these.

#include <vector>

#include "schema/defs/dsl.h"
#include "schema/op_schema.h"

namespace onnx_opt::schema::defs {

void AddMathSchemas(SchemaSink& s);  // math.cc
void AddActivationSchemas(SchemaSink& s);  // activation.cc
void AddLogicalSchemas(SchemaSink& s);  // logical.cc
void AddNnSchemas(SchemaSink& s);  // nn.cc
void AddAttentionSchemas(SchemaSink& s);  // attention.cc
void AddRnnSchemas(SchemaSink& s);  // rnn.cc
void AddReductionSchemas(SchemaSink& s);  // reduction.cc
void AddCastSchemas(SchemaSink& s);  // cast.cc
void AddTensorSchemas(SchemaSink& s);  // tensor.cc
void AddIndexingSchemas(SchemaSink& s);  // indexing.cc
void AddImageSchemas(SchemaSink& s);  // image.cc
void AddObjectDetectionSchemas(SchemaSink& s);  // object_detection.cc
void AddGeneratorSchemas(SchemaSink& s);  // generator.cc
void AddQuantizationSchemas(SchemaSink& s);  // quantization.cc
void AddSignalSchemas(SchemaSink& s);  // signal.cc
void AddTextSchemas(SchemaSink& s);  // text.cc
void AddControlFlowSchemas(SchemaSink& s);  // controlflow.cc
void AddSequenceSchemas(SchemaSink& s);  // sequence.cc
void AddMlSchemas(SchemaSink& s);  // ml.cc
void AddTrainingSchemas(SchemaSink& s);  // training.cc
void AddPreviewSchemas(SchemaSink& s);  // preview.cc

// Every schema of every domain, in no particular order (all_defs.cc).
void AddAllSchemas(std::vector<OpSchema>& out);

}  // namespace onnx_opt::schema::defs

#endif  // ONNX_OPT_SCHEMA_DEFS_DEFS_H_
