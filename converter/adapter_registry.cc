// The global adapter registry: every operator family registers its adapters here, once. Operators
// introduced after opset 1 that no family can rewrite into older operators get an adapter that
// refuses the downgrade with a clear reason.
#include "absl/strings/str_cat.h"
#include "converter/adapter.h"
#include "converter/adapter_util.h"
#include "converter/families.h"
#include "schema/op_registry.h"

namespace onnx_opt::converter {

const AdapterRegistry& AdapterRegistry::Global() {
  static const AdapterRegistry* registry = [] {
    auto* r = new AdapterRegistry();
    RegisterMathAdapters(*r);
    RegisterActivationAdapters(*r);
    RegisterNormalizationAdapters(*r);
    RegisterReductionAdapters(*r);
    RegisterTensorAdapters(*r);
    RegisterIndexingAdapters(*r);
    RegisterNnAdapters(*r);
    RegisterResizeAdapters(*r);
    RegisterRnnAdapters(*r);
    RegisterQuantizationAdapters(*r);
    RegisterControlFlowAdapters(*r);
    RegisterMiscAdapters(*r);
    RegisterMlAdapters(*r);
    for (const schema::OpSchema& s : schema::AllSchemas()) {
      if (s.domain() != "ai.onnx" && s.domain() != "ai.onnx.ml") continue;
      absl::Span<const int> versions = schema::Versions(s.domain(), s.op_type());
      if (versions.empty() || versions.front() != s.since_version() || s.since_version() <= 1) continue;
      if (r->Find(s.domain(), s.op_type(), s.since_version(), kNotDefined) != nullptr) continue;
      r->Register(s.domain(), s.op_type(), s.since_version(), kNotDefined, AdapterKind::kRefuse,
                  "no expansion into older operators",
                  Refuse(absl::StrCat(s.op_type(), " was introduced at ", s.domain(), " opset ",
                                      s.since_version(), " and has no expansion into older operators")));
    }
    return r;
  }();
  return *registry;
}

}  // namespace onnx_opt::converter
