#ifndef ONNX_OPT_SCHEMA_TESTING_REFERENCE_DATA_H_
#define ONNX_OPT_SCHEMA_TESTING_REFERENCE_DATA_H_

// Finds the shared ONNX reference data (../shared/reference: facts dumped from ONNX itself) for
// tests. The data is never copied into the project; tests read it through ONNX_REFERENCE_DIR and
// skip when it is unset.

#include <optional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace onnx_opt::schema::testing {

inline constexpr char kReferenceDirEnv[] = "ONNX_REFERENCE_DIR";

// The reference folder, or nullopt when ONNX_REFERENCE_DIR is unset or empty. A relative value (CI
// uses ../shared/reference) is taken relative to the workspace root, which a Bazel test finds
// through its runfiles, since tests run in a sandbox rather than in the workspace.
std::optional<std::string> ReferenceDir();

// The loud line a test prints (and passes to GTEST_SKIP) when ONNX_REFERENCE_DIR is unset.
std::string MissingReferenceMessage();

// The contents of `name` inside the reference folder.
absl::StatusOr<std::string> ReadReferenceFile(std::string_view name);

}  // namespace onnx_opt::schema::testing

#endif  // ONNX_OPT_SCHEMA_TESTING_REFERENCE_DATA_H_
