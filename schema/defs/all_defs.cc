// Lists every family table by domain; a new family file is one more line here.

#include <vector>

#include "schema/defs/defs.h"
#include "schema/defs/dsl.h"
#include "schema/domains.h"

namespace onnx_opt::schema::defs {

std::vector<DomainOpDefinition> AllOpDefinitions() {
  struct Family {
    std::string_view domain;
    const absl::Span<const OpDefinition>* ops;
  };
  static constexpr Family kFamilies[] = {
      {kOnnxDomain, &kMathFamily},
      {kOnnxDomain, &kActivationFamily},
      {kOnnxDomain, &kLogicalFamily},
      {kOnnxDomain, &kNnFamily},
      {kOnnxDomain, &kAttentionFamily},
      {kOnnxDomain, &kRnnFamily},
      {kOnnxDomain, &kReductionFamily},
      {kOnnxDomain, &kCastFamily},
      {kOnnxDomain, &kTensorFamily},
      {kOnnxDomain, &kIndexingFamily},
      {kOnnxDomain, &kImageFamily},
      {kOnnxDomain, &kObjectDetectionFamily},
      {kOnnxDomain, &kGeneratorFamily},
      {kOnnxDomain, &kQuantizationFamily},
      {kOnnxDomain, &kSignalFamily},
      {kOnnxDomain, &kTextFamily},
      {kOnnxDomain, &kControlFlowFamily},
      {kOnnxDomain, &kSequenceFamily},
      {kMlDomain, &kMlFamily},
      {kPreviewTrainingDomain, &kTrainingFamily},
      {kPreviewDomain, &kPreviewFamily},
      {kMicrosoftDomain, &kContribNnFamily},
      {kOnnxDomain, &kOnnxruntimeOnnxDomainFamily},
      {kMicrosoftDomain, &kContribAttentionFamily},
  };
  std::vector<DomainOpDefinition> all;
  all.reserve(256);
  for (const Family& f : kFamilies) {
    for (const OpDefinition& op : *f.ops) all.push_back({f.domain, op});
  }
  return all;
}

}  // namespace onnx_opt::schema::defs
