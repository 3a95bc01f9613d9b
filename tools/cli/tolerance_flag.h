// --tolerance=RTOL[,ATOL]: how far a float32 element may move and still count as equal, and
// --lossy-tolerance=REL_L2[,MIN_COSINE[,MAX_ABS]]: how far a whole output may move under a lossy
// rewrite; for the tools that compare outputs (onnx-opt's verification, onnx-compare).
#ifndef ONNX_OPT_TOOLS_CLI_TOLERANCE_FLAG_H_
#define ONNX_OPT_TOOLS_CLI_TOLERANCE_FLAG_H_

#include <string>

#include "absl/status/statusor.h"
#include "equivalence/equivalence_options.h"
#include "gflags/gflags.h"

DECLARE_string(tolerance);
DECLARE_string(lossy_tolerance);

namespace onnx_opt::cli {

// "RTOL" or "RTOL,ATOL" (ATOL defaults to RTOL/10), non-negative finite numbers.
absl::StatusOr<equivalence::Tolerance> ParseTolerance(const std::string& text);

// Whether --tolerance was given.
bool ToleranceGiven();

// "REL_L2[,MIN_COSINE[,MAX_ABS]]"; parts left out keep equivalence::LossyTolerance's defaults.
absl::StatusOr<equivalence::LossyTolerance> ParseLossyTolerance(const std::string& text);

// --tolerance and --lossy-tolerance, when given, into `tolerances`; a malformed value is
// InvalidArgument.
absl::Status ApplyToleranceFlag(equivalence::Tolerances& tolerances);

}  // namespace onnx_opt::cli

#endif  // ONNX_OPT_TOOLS_CLI_TOLERANCE_FLAG_H_
