#include "ir/function.h"

#include "absl/strings/str_cat.h"

namespace onnx_opt::ir {

Function::Function(std::string domain, std::string name, std::string overload)
    : domain_(std::move(domain)),
      name_(std::move(name)),
      overload_(std::move(overload)),
      body_(std::make_unique<Graph>()) {
  body_->owner_function_ = this;
}

std::string Function::QualifiedName() const {
  std::string out = absl::StrCat(domain_, "::", name_);
  if (!overload_.empty()) absl::StrAppend(&out, ":", overload_);
  return out;
}

}  // namespace onnx_opt::ir
