// OperatorSetIdProto: a (domain, version) pair a model or function imports.
#ifndef ONNX_OPT_IR_OPSET_IMPORT_H_
#define ONNX_OPT_IR_OPSET_IMPORT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/explicit_defaults.h"

namespace onnx_opt::ir {

struct OpsetImport {
  std::string domain;  // "" (or "ai.onnx") is the default ONNX domain
  int64_t version = 0;
  ExplicitDefaults explicit_defaults;  // fields the file wrote with their default value
  // Compares what the import means, not how it was spelled.
  bool operator==(const OpsetImport& other) const {
    return domain == other.domain && version == other.version;
  }
};

// "" and "ai.onnx" name the same domain.
bool IsOnnxDomain(std::string_view domain);
bool SameDomain(std::string_view a, std::string_view b);

// The version imported for `domain`, if any.
std::optional<int64_t> FindOpsetVersion(const std::vector<OpsetImport>& imports,
                                        std::string_view domain);

}  // namespace onnx_opt::ir

#endif  // ONNX_OPT_IR_OPSET_IMPORT_H_
