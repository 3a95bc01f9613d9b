// Whether two models compute the same outputs: the check behind onnx-compare and onnx_opt.compare.
// Both run on the same inputs (a folder's, or random ones from the first model's declared types at
// the sizes verification chooses), the second fed by input name, and every output is compared by
// the one comparator (equivalence/compare.h), matched by name when both models name the same
// outputs.
#ifndef ONNX_OPT_TOOLS_LIB_MODEL_COMPARE_H_
#define ONNX_OPT_TOOLS_LIB_MODEL_COMPARE_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "equivalence/equivalence_options.h"
#include "ir/model.h"
#include "tools/lib/verification.h"

namespace onnx_opt::tools {

struct CompareRequest {
  std::string inputs_dir;  // input_K.pb files, bound to `a`'s inputs (tools/lib/verification.h);
                           // empty: random
  equivalence::EquivalenceOptions equivalence;
};

struct CompareOutcome {
  bool equal = false;
  Verification verification;  // per output, over every run
};

// An error when inputs cannot be made or a model does not run; otherwise the verdict.
absl::StatusOr<CompareOutcome> CompareModels(const ir::Model& a, const ir::Model& b,
                                             const CompareRequest& request);

// One line per output: "y: equal (max abs error 1e-07, max rel error 2e-07)", "y: different: ..."
// or, judged as a whole (lossy), "y: within the lossy tolerance (relative L2 error ..., cosine
// ...)".
std::vector<std::string> DescribeOutputs(const Verification& verification);

}  // namespace onnx_opt::tools

#endif  // ONNX_OPT_TOOLS_LIB_MODEL_COMPARE_H_
