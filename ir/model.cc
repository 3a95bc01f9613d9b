#include "ir/model.h"

namespace onnx_opt::ir {

Model::Model() : graph_(std::make_unique<Graph>()) {}

void Model::SetOpsetVersion(std::string_view domain, int64_t version) {
  for (OpsetImport& imp : opset_imports_) {
    if (SameDomain(imp.domain, domain)) {
      imp.version = version;
      return;
    }
  }
  opset_imports_.push_back(OpsetImport{std::string(domain), version});
}

Function* Model::FindFunction(std::string_view domain, std::string_view name,
                              std::string_view overload) const {
  for (const auto& f : functions_) {
    if (f->domain() == domain && f->name() == name && f->overload() == overload) return f.get();
  }
  return nullptr;
}

}  // namespace onnx_opt::ir
