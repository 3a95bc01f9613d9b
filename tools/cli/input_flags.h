// The flags that choose the inputs a tool runs a model on (onnx-run) or verifies a rewrite with
// (onnx-opt, onnx-convert): --inputs=DIR, or random inputs from --seed, --dim and --shape.
// --dim and --shape take comma lists (--dim=N=2,M=3); given several times their lists add up, as
// the older repeated form (--dim N=2 --dim M=3) did (command_line.h joins them).
#ifndef ONNX_OPT_TOOLS_CLI_INPUT_FLAGS_H_
#define ONNX_OPT_TOOLS_CLI_INPUT_FLAGS_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "equivalence/equivalence.h"
#include "gflags/gflags.h"

DECLARE_string(inputs);
DECLARE_uint64(seed);
DECLARE_string(dim);
DECLARE_string(shape);

namespace onnx_opt::cli {

// The flags to join when repeated (ArgvForms::joined).
std::vector<std::string> RepeatedInputFlags();

// --seed, --dim and --shape into equivalence options; malformed lists are usage errors
// (InvalidArgument).
absl::Status ApplyInputFlags(equivalence::EquivalenceOptions& options);

}  // namespace onnx_opt::cli

#endif  // ONNX_OPT_TOOLS_CLI_INPUT_FLAGS_H_
