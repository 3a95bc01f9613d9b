// Runs a pipeline over a model, recording per-pass statistics and checking the model after every
// pass.
#ifndef ONNX_OPT_OPTIMIZER_PASS_MANAGER_H_
#define ONNX_OPT_OPTIMIZER_PASS_MANAGER_H_

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "optimizer/initializers_as_inputs.h"
#include "optimizer/model_stats.h"
#include "optimizer/pass.h"
#include "optimizer/pass_registry.h"

namespace onnx_opt::optimizer {

// One run of one pass.
struct PassRun {
  std::string pass;
  double seconds = 0;
  int64_t rewrites = 0;
  bool changed = false;
  ModelSize before;
  ModelSize after;
  // The part of `rewrites` made by named patterns, per "pass/pattern"
  // (PassContext::CountPatternRewrite).
  std::map<std::string, int64_t> pattern_rewrites;
};

// Called after each pass that changed the model; a non-OK status stops the pipeline and is reported
// as "pass X broke the model: ...". Used for --verify-each (numerical) checks.
using AfterPassCheck = std::function<absl::Status(const ir::Model& model, const std::string& pass)>;

// Called before each pass runs, with the model's size then: a tool's progress lines.
using BeforePass = std::function<void(const std::string& pass, const ModelSize& size)>;

struct PassManagerOptions {
  PassOptions pass_options;
  // Run the structural verifier (ir::Verify) after every pass that changed the model. On by
  // default.
  bool verify_structure = true;
  AfterPassCheck after_each;
  BeforePass before_each;
};

struct PipelineResult {
  bool changed = false;
  std::vector<PassRun> runs;
  ModelSize before;
  ModelSize after;
  // IR < 4 models: initializers the passes made, listed as graph inputs after the pipeline so that
  // the result stays valid at its ir_version (optimizer/initializers_as_inputs.h).
  InitializersListedAsInputs listed_as_inputs;
  // Constant folds not taken because they would have grown the model past fold_growth_limit.
  int64_t folds_refused_for_growth = 0;
  // fixed(...) loops that stopped at their round limit while still changing the model.
  int64_t fixed_points_at_limit = 0;
};

// The warning a caller shows when fixed(...) loops stopped at their limit, or "" when none did.
std::string FixedPointLimitWarning(const PipelineResult& result);

class PassManager {
 public:
  explicit PassManager(PassManagerOptions options = {}) : options_(std::move(options)) {}

  // Parses `pipeline` with the global registry and runs it.
  absl::StatusOr<PipelineResult> Run(ir::Model& model, const std::string& pipeline);

 private:
  PassManagerOptions options_;
};

// Per-pass totals of `runs`, one row per pass name, in first-run order.
std::vector<PassRun> SummarizeRuns(const std::vector<PassRun>& runs);
// A readable table of the summary, and the raw runs as JSON.
std::string FormatStatsTable(const PipelineResult& result);
std::string FormatStatsJson(const PipelineResult& result);

}  // namespace onnx_opt::optimizer

#endif  // ONNX_OPT_OPTIMIZER_PASS_MANAGER_H_
