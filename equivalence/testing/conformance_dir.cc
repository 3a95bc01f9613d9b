#include "equivalence/testing/conformance_dir.h"

#include <cstdlib>
#include <filesystem>
#include <string_view>

#include "absl/strings/str_cat.h"

namespace onnx_opt::conformance {

absl::StatusOr<std::string> ConformanceDir() {
  const char* env = std::getenv("ONNX_CONFORMANCE_DIR");
  const char* ci = std::getenv("CI");
  const bool in_ci = ci != nullptr && *ci != '\0' && std::string_view(ci) != "false";
  if (env == nullptr || *env == '\0') {
    if (in_ci) {
      return absl::FailedPreconditionError(
          "ONNX_CONFORMANCE_DIR is not set, and in CI a run without ONNX's conformance data must "
          "not pass "
          "(scripts/test.sh sets it to ../shared/onnx-conformance beside the checkout)");
    }
    return std::string();
  }
  const std::filesystem::path node = std::filesystem::path(env) / "node";
  std::error_code ec;
  if (!std::filesystem::is_directory(node, ec)) {
    return absl::NotFoundError(
        absl::StrCat("ONNX_CONFORMANCE_DIR is ", env, ", but ", node.string(),
                     " is not a folder (tests run in Bazel's sandbox: give an absolute "
                     "path)"));
  }
  return std::string(env);
}

}  // namespace onnx_opt::conformance
