// --tolerance=RTOL[,ATOL]: how far a float32 output may move and still count as equal, for the tools
// that compare outputs (onnx-opt --verify, onnx-compare).
#ifndef ONNX_OPT_TOOLS_CLI_TOLERANCE_FLAG_H_
#define ONNX_OPT_TOOLS_CLI_TOLERANCE_FLAG_H_

#include <string>

#include "absl/status/statusor.h"
#include "gflags/gflags.h"
#include "verify/equivalence_options.h"

DECLARE_string(tolerance);

namespace onnx_opt::cli {

// "RTOL" or "RTOL,ATOL" (ATOL defaults to RTOL/10), non-negative finite numbers.
absl::StatusOr<verify::Tolerance> ParseTolerance(const std::string& text);

// Whether --tolerance was given.
bool ToleranceGiven();

// --tolerance, when given, into the float32 tolerance; a malformed value is InvalidArgument.
absl::Status ApplyToleranceFlag(verify::Tolerances& tolerances);

}  // namespace onnx_opt::cli

#endif  // ONNX_OPT_TOOLS_CLI_TOLERANCE_FLAG_H_
