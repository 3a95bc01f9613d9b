#ifndef ONNX_OPT_SCHEMA_DOMAINS_H_
#define ONNX_OPT_SCHEMA_DOMAINS_H_

#include <string_view>

namespace onnx_opt::schema {

// Canonical names of the operator domains whose schemas we know.
inline constexpr std::string_view kOnnxDomain = "ai.onnx";
inline constexpr std::string_view kMlDomain = "ai.onnx.ml";
inline constexpr std::string_view kPreviewTrainingDomain = "ai.onnx.preview.training";
inline constexpr std::string_view kPreviewDomain = "ai.onnx.preview";
// onnxruntime's contrib operators. An open domain: we know the schemas of some of its operators
// (the ones onnxruntime's model tools emit); the others pass through as custom operators do.
inline constexpr std::string_view kMicrosoftDomain = "com.microsoft";

// Models spell the default domain either "" or "ai.onnx"; everything in schema/ stores and returns
// "ai.onnx". Other domains are returned unchanged.
constexpr std::string_view CanonicalDomain(std::string_view domain) {
  return domain.empty() ? kOnnxDomain : domain;
}

// Whether operators of `domain` we have no schema for are custom operators (accepted unchecked,
// their outputs not inferred) rather than errors, and any opset version of it is accepted.
constexpr bool IsOpenDomain(std::string_view domain) { return domain == kMicrosoftDomain; }

}  // namespace onnx_opt::schema

#endif  // ONNX_OPT_SCHEMA_DOMAINS_H_
