// The inputs and expected outputs a tool verifies a rewritten model against: read from a folder of
// input_K.pb files, or made at random from the declared types (tools/cli/input_flags.h).
#ifndef ONNX_OPT_TOOLS_VERIFICATION_H_
#define ONNX_OPT_TOOLS_VERIFICATION_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "interpreter/value.h"
#include "ir/model.h"
#include "verify/equivalence.h"

namespace onnx_opt::tools {

struct Reference {
  std::vector<interpreter::RuntimeValue> inputs;
  std::vector<interpreter::RuntimeValue> outputs;  // what the original model computes on them
};

// Inputs from `inputs_dir` (input_0.pb, ... in graph-input order) when given, else random ones.
absl::StatusOr<std::vector<interpreter::RuntimeValue>> MakeInputs(const ir::Model& model,
                                                                 const std::string& inputs_dir,
                                                                 const verify::EquivalenceOptions& options);

// MakeInputs, then runs `original` on them.
absl::StatusOr<Reference> MakeReference(const ir::Model& original, const std::string& inputs_dir,
                                        const verify::EquivalenceOptions& options);

// "3 outputs equal (max abs error 1.2e-07, max rel error 3.4e-07)".
std::string DescribeMatch(const std::vector<verify::OutputDifference>& report);

}  // namespace onnx_opt::tools

#endif  // ONNX_OPT_TOOLS_VERIFICATION_H_
