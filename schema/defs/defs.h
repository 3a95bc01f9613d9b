#ifndef ONNX_OPT_SCHEMA_DEFS_DEFS_H_
#define ONNX_OPT_SCHEMA_DEFS_DEFS_H_

// The operator tables, one per family file: which function declares each operator's versions. Only
// op_registry.cc reads them, and runs an operator's function the first time the operator is looked up.

#include <string_view>
#include <vector>

#include "absl/types/span.h"
#include "schema/defs/dsl.h"
#include "schema/op_schema.h"

namespace onnx_opt::schema::defs {

absl::Span<const OpDefinition> MathOps();  // math.cc
absl::Span<const OpDefinition> ActivationOps();  // activation.cc
absl::Span<const OpDefinition> LogicalOps();  // logical.cc
absl::Span<const OpDefinition> NnOps();  // nn.cc
absl::Span<const OpDefinition> AttentionOps();  // attention.cc
absl::Span<const OpDefinition> RnnOps();  // rnn.cc
absl::Span<const OpDefinition> ReductionOps();  // reduction.cc
absl::Span<const OpDefinition> CastOps();  // cast.cc
absl::Span<const OpDefinition> TensorOps();  // tensor.cc
absl::Span<const OpDefinition> IndexingOps();  // indexing.cc
absl::Span<const OpDefinition> ImageOps();  // image.cc
absl::Span<const OpDefinition> ObjectDetectionOps();  // object_detection.cc
absl::Span<const OpDefinition> GeneratorOps();  // generator.cc
absl::Span<const OpDefinition> QuantizationOps();  // quantization.cc
absl::Span<const OpDefinition> SignalOps();  // signal.cc
absl::Span<const OpDefinition> TextOps();  // text.cc
absl::Span<const OpDefinition> ControlFlowOps();  // controlflow.cc
absl::Span<const OpDefinition> SequenceOps();  // sequence.cc
absl::Span<const OpDefinition> MlOps();  // ml.cc
absl::Span<const OpDefinition> TrainingOps();  // training.cc
absl::Span<const OpDefinition> PreviewOps();  // preview.cc

struct DomainOpDefinition {
  std::string_view domain;
  OpDefinition op;
};
// Every operator of every domain, in no particular order (all_defs.cc).
std::vector<DomainOpDefinition> AllOpDefinitions();

}  // namespace onnx_opt::schema::defs

#endif  // ONNX_OPT_SCHEMA_DEFS_DEFS_H_
