#ifndef ONNX_OPT_SCHEMA_DOMAINS_H_
#define ONNX_OPT_SCHEMA_DOMAINS_H_

#include <string_view>

namespace onnx_opt::schema {

// Canonical names of the operator domains whose schemas we know.
inline constexpr std::string_view kOnnxDomain = "ai.onnx";
inline constexpr std::string_view kMlDomain = "ai.onnx.ml";
inline constexpr std::string_view kPreviewTrainingDomain = "ai.onnx.preview.training";
inline constexpr std::string_view kPreviewDomain = "ai.onnx.preview";

// Models spell the default domain either "" or "ai.onnx"; everything in schema/ stores and returns
// "ai.onnx". Other domains are returned unchanged.
constexpr std::string_view CanonicalDomain(std::string_view domain) {
  return domain.empty() ? kOnnxDomain : domain;
}

}  // namespace onnx_opt::schema

#endif  // ONNX_OPT_SCHEMA_DOMAINS_H_
