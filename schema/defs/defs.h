#ifndef ONNX_OPT_SCHEMA_DEFS_DEFS_H_
#define ONNX_OPT_SCHEMA_DEFS_DEFS_H_

// The operator tables, one per family file: which function declares each operator's versions. Only
// op_registry.cc reads them, and runs an operator's function the first time the operator is looked
// up.

#include <string_view>
#include <vector>

#include "absl/types/span.h"
#include "schema/defs/dsl.h"
#include "schema/op_schema.h"

namespace onnx_opt::schema::defs {

// Each family's table, as data: the registry's index reads them all when it is first needed, and
// with a function per family that meant a page of code to fault in for each.
extern const absl::Span<const OpDefinition> kMathFamily;             // math.cc
extern const absl::Span<const OpDefinition> kActivationFamily;       // activation.cc
extern const absl::Span<const OpDefinition> kLogicalFamily;          // logical.cc
extern const absl::Span<const OpDefinition> kNnFamily;               // nn.cc
extern const absl::Span<const OpDefinition> kAttentionFamily;        // attention.cc
extern const absl::Span<const OpDefinition> kRnnFamily;              // rnn.cc
extern const absl::Span<const OpDefinition> kReductionFamily;        // reduction.cc
extern const absl::Span<const OpDefinition> kCastFamily;             // cast.cc
extern const absl::Span<const OpDefinition> kTensorFamily;           // tensor.cc
extern const absl::Span<const OpDefinition> kIndexingFamily;         // indexing.cc
extern const absl::Span<const OpDefinition> kImageFamily;            // image.cc
extern const absl::Span<const OpDefinition> kObjectDetectionFamily;  // object_detection.cc
extern const absl::Span<const OpDefinition> kGeneratorFamily;        // generator.cc
extern const absl::Span<const OpDefinition> kQuantizationFamily;     // quantization.cc
extern const absl::Span<const OpDefinition> kSignalFamily;           // signal.cc
extern const absl::Span<const OpDefinition> kTextFamily;             // text.cc
extern const absl::Span<const OpDefinition> kControlFlowFamily;      // controlflow.cc
extern const absl::Span<const OpDefinition> kSequenceFamily;         // sequence.cc
extern const absl::Span<const OpDefinition> kMlFamily;               // ml.cc
extern const absl::Span<const OpDefinition> kTrainingFamily;         // training.cc
extern const absl::Span<const OpDefinition> kPreviewFamily;          // preview.cc
extern const absl::Span<const OpDefinition> kContribNnFamily;        // contrib_nn.cc
// onnxruntime's ops in the default domain (not ONNX's): contrib_nn.cc.
extern const absl::Span<const OpDefinition> kOnnxruntimeOnnxDomainFamily;
extern const absl::Span<const OpDefinition> kContribAttentionFamily;  // contrib_attention.cc

struct DomainOpDefinition {
  std::string_view domain;
  OpDefinition op;
};
// Every operator of every domain, in no particular order (all_defs.cc).
std::vector<DomainOpDefinition> AllOpDefinitions();

}  // namespace onnx_opt::schema::defs

#endif  // ONNX_OPT_SCHEMA_DEFS_DEFS_H_
