#include "tools/lib/model_compare.h"

#include "absl/strings/str_format.h"
#include "ir/status_macros.h"

namespace onnx_opt::tools {

absl::StatusOr<CompareOutcome> CompareModels(const ir::Model& a, const ir::Model& b,
                                             const CompareRequest& request) {
  ASSIGN_OR_RETURN(equivalence::References references,
                   MakeReferences(a, request.inputs_dir, request.equivalence));
  CompareOutcome outcome;
  const absl::Status same =
      Verify(b, references, request.equivalence.tolerances, outcome.verification);
  outcome.verification.lossy = request.equivalence.tolerances.lossy;
  // Verify fills the differences only once the second model has run at every size: without them,
  // the status is why it did not run.
  if (!same.ok() && outcome.verification.differences.empty()) return same;
  outcome.equal = same.ok();
  return outcome;
}

std::vector<std::string> DescribeOutputs(const Verification& verification) {
  std::vector<std::string> lines;
  for (const equivalence::OutputDifference& d : verification.differences) {
    if (!d.equal) {
      lines.push_back(absl::StrFormat("%s: different: %s", d.output, d.detail));
    } else if (verification.lossy) {
      lines.push_back(absl::StrFormat(
          "%s: within the lossy tolerance (relative L2 error %.3g, cosine similarity %.6f, "
          "max abs error %.3g)",
          d.output, d.rel_l2_error, d.cosine, d.max_abs_error));
    } else {
      lines.push_back(absl::StrFormat("%s: equal (max abs error %.3g, max rel error %.3g)",
                                      d.output, d.max_abs_error, d.max_rel_error));
    }
  }
  return lines;
}

}  // namespace onnx_opt::tools
