// The inputs and expected outputs a tool verifies a rewritten model against: read from a folder of
// input_K.pb files, or made at random from the declared types (tools/cli/input_flags.h).
#ifndef ONNX_OPT_TOOLS_LIB_VERIFICATION_H_
#define ONNX_OPT_TOOLS_LIB_VERIFICATION_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "equivalence/equivalence.h"
#include "interpreter/value.h"
#include "ir/model.h"

namespace onnx_opt::tools {

// Inputs from `inputs_dir` when given, else random ones (equivalence::MakeRandomInputs). In the
// folder, input_K.pb is the K-th graph input that has no initializer (IR < 4 models list their
// weights among the inputs, often first); a file whose value is named after a graph input binds to
// that input instead (and may override an initializer). The result lines up with the graph inputs.
absl::StatusOr<std::vector<interpreter::RuntimeValue>> MakeInputs(
    const ir::Model& model, const std::string& inputs_dir,
    const equivalence::EquivalenceOptions& options);

// What a rewrite of `original` is compared with: `original` run on the folder's inputs, or on
// random ones at the sizes verification chooses (equivalence::MakeReferences).
absl::StatusOr<equivalence::References> MakeReferences(
    const ir::Model& original, const std::string& inputs_dir,
    const equivalence::EquivalenceOptions& options);

// How a verification went, for the tools' report lines.
struct Verification {
  bool ran = false;                                        // set by Verify
  std::vector<equivalence::OutputDifference> differences;  // per output, over all runs
  std::vector<std::string> sizes;                          // of the free dims, per run ("N=2, S=2")
  std::vector<std::string> notes;                    // what the reader should know (a dim run at 1)
  std::optional<equivalence::LossyTolerance> lossy;  // set when judged by whole-output figures
};

// Compares `model` with the references; the summary is filled in either way.
absl::Status Verify(const ir::Model& model, const equivalence::References& references,
                    const equivalence::Tolerances& tolerances, Verification& summary);

// "3 outputs equal at N=2 and at N=3, S=4 (max abs error 1.2e-07, max rel error 3.4e-07)".
std::string DescribeMatch(const Verification& verification);

}  // namespace onnx_opt::tools

#endif  // ONNX_OPT_TOOLS_LIB_VERIFICATION_H_
