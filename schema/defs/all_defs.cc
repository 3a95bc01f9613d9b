// Lists every family table by domain; a new family file is one more line here.

#include <vector>

#include "schema/defs/defs.h"
#include "schema/defs/dsl.h"
#include "schema/domains.h"

namespace onnx_opt::schema::defs {

std::vector<DomainOpDefinition> AllOpDefinitions() {
  struct Family {
    std::string_view domain;
    absl::Span<const OpDefinition> (*ops)();
  };
  static constexpr Family kFamilies[] = {
      {kOnnxDomain, MathOps},
      {kOnnxDomain, ActivationOps},
      {kOnnxDomain, LogicalOps},
      {kOnnxDomain, NnOps},
      {kOnnxDomain, AttentionOps},
      {kOnnxDomain, RnnOps},
      {kOnnxDomain, ReductionOps},
      {kOnnxDomain, CastOps},
      {kOnnxDomain, TensorOps},
      {kOnnxDomain, IndexingOps},
      {kOnnxDomain, ImageOps},
      {kOnnxDomain, ObjectDetectionOps},
      {kOnnxDomain, GeneratorOps},
      {kOnnxDomain, QuantizationOps},
      {kOnnxDomain, SignalOps},
      {kOnnxDomain, TextOps},
      {kOnnxDomain, ControlFlowOps},
      {kOnnxDomain, SequenceOps},
      {kMlDomain, MlOps},
      {kPreviewTrainingDomain, TrainingOps},
      {kPreviewDomain, PreviewOps},
  };
  std::vector<DomainOpDefinition> all;
  all.reserve(256);
  for (const Family& f : kFamilies) {
    for (const OpDefinition& op : f.ops()) all.push_back({f.domain, op});
  }
  return all;
}

}  // namespace onnx_opt::schema::defs
