#include "ir/opset_import.h"

namespace onnx_opt::ir {

bool IsOnnxDomain(std::string_view domain) { return domain.empty() || domain == "ai.onnx"; }

bool SameDomain(std::string_view a, std::string_view b) {
  return a == b || (IsOnnxDomain(a) && IsOnnxDomain(b));
}

std::optional<int64_t> FindOpsetVersion(const std::vector<OpsetImport>& imports,
                                        std::string_view domain) {
  for (const OpsetImport& imp : imports) {
    if (SameDomain(imp.domain, domain)) return imp.version;
  }
  return std::nullopt;
}

}  // namespace onnx_opt::ir
