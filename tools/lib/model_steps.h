// What onnx-opt and onnx-convert do to a model between reading and writing it, shared with the
// Python module (python/) so that both take the same steps and fail with the same one-line
// messages: check the input, rewrite it (a pass pipeline or a conversion), check the result, and on
// request prove with the interpreter that it computes what the input did. Nothing here reads or
// writes files or prints: warnings go to a sink, failures come back as statuses carrying the tools'
// messages.
#ifndef ONNX_OPT_TOOLS_LIB_MODEL_STEPS_H_
#define ONNX_OPT_TOOLS_LIB_MODEL_STEPS_H_

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "converter/convert.h"
#include "equivalence/equivalence.h"
#include "ir/model.h"
#include "optimizer/pass_manager.h"
#include "optimizer/pass_registry.h"
#include "passes/standardize.h"
#include "schema/checker/checker.h"
#include "tools/lib/model_check.h"
#include "tools/lib/verification.h"

namespace onnx_opt::tools {

// Told what a step is about to do ("verifying: running the input model"), for progress lines, and
// the phase of the run it begins (for --time-phases: "verify", "check-result").
using ProgressSink = std::function<void(std::string_view phase, std::string_view what)>;

// The input's checker result, or "NAME is not a valid model: FIRST ERROR" (passes assume a valid
// model, and an invalid input cannot give a valid output).
absl::StatusOr<schema::checker::CheckResult> CheckInputModel(const ir::Model& model,
                                                             const std::string& name,
                                                             const WarningSink& warn);

// The rewritten model must pass the checker: OK, or "the result would be invalid, nothing written:
// FIRST ERROR". Warnings the input had (`input_check`) are not reported again.
absl::Status CheckResultModel(const ir::Model& result,
                              const schema::checker::CheckResult& input_check,
                              const WarningSink& result_warnings);

struct OptimizeRequest {
  std::string pipeline = "default";
  // Pass options (fold size limit, ...). after_each is set here when verify_each is.
  optimizer::PassManagerOptions manager;
  bool verify = false;
  bool verify_each = false;  // implies verify
  // A pipeline with a lossy pass (float16-weights) is always verified, by that pass's whole-output
  // error figures (optimizer::LossyToleranceOf) unless equivalence.tolerances.lossy is set, or
  // unless the caller chose an element-by-element tolerance (onnx-opt --tolerance) and sets this.
  bool elementwise_tolerance = false;
  // Verification inputs: input_K.pb files in this folder; empty: random ones from `equivalence`.
  std::string inputs_dir;
  equivalence::EquivalenceOptions equivalence;
  ProgressSink progress;  // optional; passes report through manager.before_each
  // False: the caller runs CheckResultModel itself (the tools do, while the result is written). A
  // verification runs only on a checked model, so with verify the result is checked here anyway.
  bool check_result = true;
};

struct OptimizeOutcome {
  optimizer::PipelineResult pipeline;
  Verification verification;  // of the final verification, when verified
};

// Runs the pipeline in place over a model that CheckInputModel accepted (`input_check`: its
// warnings are not reported again for the result), checks the result (CheckResultModel) and
// verifies it when asked ("verification failed, nothing written: ..."). On failure `*usage_error`
// (when given) tells a pipeline the caller wrote wrong (unknown pass, bad syntax: the parser's
// InvalidArgument) from a model the steps could not handle.
absl::StatusOr<OptimizeOutcome> OptimizeCheckedModel(
    ir::Model& model, const schema::checker::CheckResult& input_check,
    const OptimizeRequest& request, const WarningSink& result_warnings,
    bool* usage_error = nullptr);

struct ConvertRequest {
  converter::ConvertOptions options;
  bool verify = false;
  std::string inputs_dir;  // as in OptimizeRequest
  equivalence::EquivalenceOptions equivalence;
  ProgressSink progress;     // optional; conversion steps report through options.before_step
  bool check_result = true;  // as in OptimizeRequest
  // After converting: onnxruntime's contrib operators into standard ones (the standardize pass),
  // and the com.microsoft import dropped when no node uses it any more.
  bool standardize = false;
};

struct ConvertOutcome {
  std::unique_ptr<ir::Model> model;
  converter::ConvertReport report;
  std::optional<passes::StandardizeReport> standardized;  // with ConvertRequest::standardize
  Verification verification;                              // when verified
};

// Converts a model that CheckInputModel accepted, in place (it is consumed: no copy is made),
// checks and (when asked) verifies the result against what the input computed before conversion;
// messages as for OptimizeCheckedModel.
absl::StatusOr<ConvertOutcome> ConvertCheckedModel(std::unique_ptr<ir::Model> model,
                                                   const schema::checker::CheckResult& input_check,
                                                   const ConvertRequest& request,
                                                   const WarningSink& result_warnings);

// The passes a user may name, by name (the registry's "test-" passes exist for tests only).
std::vector<const optimizer::PassInfo*> ListedPasses();

}  // namespace onnx_opt::tools

#endif  // ONNX_OPT_TOOLS_LIB_MODEL_STEPS_H_
