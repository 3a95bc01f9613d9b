#include "optimizer/pass_manager.h"

#include <algorithm>
#include <chrono>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "glog/logging.h"
#include "ir/json_string.h"
#include "ir/status_macros.h"
#include "ir/verifier.h"
#include "optimizer/pipeline.h"

namespace onnx_opt::optimizer {
namespace {

// Measures and checks one leaf pass. A pass that found nothing to change on a model finds nothing
// on the same model again, so it is skipped until some pass changes the model: `epoch` counts the
// changes made so far in this pipeline. (In a fixed point this spares the last round most passes.)
class InstrumentedPass final : public Pass {
 public:
  InstrumentedPass(std::unique_ptr<Pass> inner, const PassManagerOptions& options,
                   std::vector<PassRun>& runs, ModelSize& size, int64_t& epoch)
      : inner_(std::move(inner)), options_(options), runs_(runs), size_(size), epoch_(epoch) {}

  std::string_view name() const override { return inner_->name(); }

  absl::StatusOr<bool> Run(ir::Model& model, PassContext& ctx) override {
    if (unchanged_at_ == epoch_) return false;
    PassRun run;
    run.pass = std::string(inner_->name());
    // Only passes change the model, and one that reports no change changed nothing: the size after
    // the previous pass is the size now, and only changing passes need a walk to measure.
    run.before = size_;
    if (options_.before_each) options_.before_each(run.pass, size_);
    const int64_t rewrites_before = ctx.rewrites();
    const size_t pattern_log_before = ctx.pattern_log().size();
    const auto start = std::chrono::steady_clock::now();
    absl::StatusOr<bool> changed = inner_->Run(model, ctx);
    run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!changed.ok()) {
      return absl::Status(
          changed.status().code(),
          absl::StrCat("pass '", run.pass, "' failed: ", changed.status().message()));
    }
    run.changed = *changed;
    if (*changed) {
      ++epoch_;
      unchanged_at_ = -1;
    } else {
      unchanged_at_ = epoch_;
    }
    run.rewrites = ctx.rewrites() - rewrites_before;
    for (size_t i = pattern_log_before; i < ctx.pattern_log().size(); ++i) {
      const auto& [pattern, count] = ctx.pattern_log()[i];
      if (count > 0) run.pattern_rewrites[pattern] += count;
    }
    run.after = run.changed ? MeasureModel(model) : run.before;
    size_ = run.after;
    VLOG(1) << "pass " << run.pass << ": " << run.rewrites << " rewrites, nodes "
            << run.before.nodes << " -> " << run.after.nodes
            << absl::StrFormat(", %.1f ms", run.seconds * 1e3);
    runs_.push_back(run);
    // A pass that reports no change changed nothing (as for the size above), so only changing
    // passes are verified: after every pass, the checks were a third of a default run.
    if (options_.verify_structure && *changed) {
      if (absl::Status s = ir::Verify(model); !s.ok()) {
        return absl::InternalError(
            absl::StrCat("pass '", run.pass, "' left an invalid model: ", s.message()));
      }
    }
    if (*changed && options_.after_each) {
      if (absl::Status s = options_.after_each(model, run.pass); !s.ok()) {
        return absl::Status(s.code(),
                            absl::StrCat("pass '", run.pass, "' broke the model: ", s.message()));
      }
    }
    return changed;
  }

 private:
  std::unique_ptr<Pass> inner_;
  const PassManagerOptions& options_;
  std::vector<PassRun>& runs_;
  ModelSize& size_;
  int64_t& epoch_;
  int64_t unchanged_at_ = -1;  // the epoch at which this pass last ran without a change
};

// A run's rewrites per pattern as the members of a JSON object: "pass/a": 2, "pass/b": 1.
std::string PatternRewritesJson(const PassRun& run) {
  std::string out;
  for (const auto& [pattern, count] : run.pattern_rewrites) {
    absl::StrAppendFormat(&out, "%s%s: %d", out.empty() ? "" : ", ", ir::JsonString(pattern),
                          count);
  }
  return out;
}

}  // namespace

absl::StatusOr<PipelineResult> PassManager::Run(ir::Model& model, const std::string& pipeline) {
  PipelineResult result;
  ModelSize size;
  int64_t epoch = 0;
  auto wrap = [&](std::unique_ptr<Pass> pass) -> std::unique_ptr<Pass> {
    return std::make_unique<InstrumentedPass>(std::move(pass), options_, result.runs, size, epoch);
  };
  ASSIGN_OR_RETURN(std::unique_ptr<Pass> root,
                   ParsePipeline(pipeline, PassRegistry::Global(), wrap));
  result.before = MeasureModel(model);
  size = result.before;
  PassContext ctx(options_.pass_options);
  ASSIGN_OR_RETURN(bool changed, root->Run(model, ctx));
  result.changed = changed;
  result.folds_refused_for_growth = ctx.folds_refused_for_growth();
  result.fixed_points_at_limit = ctx.fixed_points_at_limit();
  result.listed_as_inputs = ListInitializersAsInputs(model);
  result.after = MeasureModel(model);
  return result;
}

std::vector<PassRun> SummarizeRuns(const std::vector<PassRun>& runs) {
  std::vector<PassRun> rows;
  for (const PassRun& r : runs) {
    auto it =
        std::find_if(rows.begin(), rows.end(), [&](const PassRun& x) { return x.pass == r.pass; });
    if (it == rows.end()) {
      rows.push_back(r);
      continue;
    }
    it->seconds += r.seconds;
    it->rewrites += r.rewrites;
    for (const auto& [pattern, count] : r.pattern_rewrites) it->pattern_rewrites[pattern] += count;
    it->changed |= r.changed;
    it->after = r.after;
  }
  return rows;
}

std::string FormatStatsTable(const PipelineResult& result) {
  // Node and byte columns are the net change each pass made, summed over its runs.
  std::string out = absl::StrFormat("%-24s %5s %9s %10s %8s %12s\n", "pass", "runs", "rewrites",
                                    "time(ms)", "nodes", "init bytes");
  std::vector<std::string> order;
  for (const PassRun& r : result.runs) {
    if (std::find(order.begin(), order.end(), r.pass) == order.end()) order.push_back(r.pass);
  }
  for (const std::string& pass : order) {
    int64_t runs = 0, rewrites = 0, nodes = 0, bytes = 0;
    double seconds = 0;
    std::map<std::string, int64_t> pattern_rewrites;
    for (const PassRun& r : result.runs) {
      if (r.pass != pass) continue;
      ++runs;
      rewrites += r.rewrites;
      for (const auto& [pattern, count] : r.pattern_rewrites) pattern_rewrites[pattern] += count;
      seconds += r.seconds;
      nodes += r.after.nodes - r.before.nodes;
      bytes += r.after.initializer_bytes - r.before.initializer_bytes;
    }
    absl::StrAppendFormat(&out, "%-24s %5d %9d %10.2f %+8d %+12d\n", pass, runs, rewrites,
                          seconds * 1e3, nodes, bytes);
    // The rewrites of each named pattern of the pass, on lines of their own below it, by the name
    // after "pass/", the count under the pass's.
    for (const auto& [pattern, count] : pattern_rewrites) {
      const std::string shown =
          absl::StartsWith(pattern, pass + "/") ? pattern.substr(pass.size() + 1) : pattern;
      absl::StrAppendFormat(&out, "  %-28s %9d\n", shown, count);
    }
  }
  absl::StrAppendFormat(&out, "total: nodes %d -> %d, initializer bytes %d -> %d\n",
                        result.before.nodes, result.after.nodes, result.before.initializer_bytes,
                        result.after.initializer_bytes);
  if (result.listed_as_inputs.count > 0)
    absl::StrAppend(&out, result.listed_as_inputs.Summary(), "\n");
  if (result.folds_refused_for_growth > 0) {
    absl::StrAppend(
        &out, result.folds_refused_for_growth,
        " constant folds not taken: they would have grown the model (--fold-growth-limit)\n");
  }
  if (result.fixed_points_at_limit > 0) absl::StrAppend(&out, FixedPointLimitWarning(result), "\n");
  return out;
}

std::string FixedPointLimitWarning(const PipelineResult& result) {
  if (result.fixed_points_at_limit == 0) return "";
  return absl::StrCat(
      result.fixed_points_at_limit, " fixed(...) loop",
      result.fixed_points_at_limit == 1 ? "" : "s",
      " stopped at the round limit while still changing the model: the result is valid but may "
      "not be fully optimized (raise the limit with fixed<N>(...))");
}

std::string FormatStatsJson(const PipelineResult& result) {
  std::string out = "{\n  \"runs\": [\n";
  for (size_t i = 0; i < result.runs.size(); ++i) {
    const PassRun& r = result.runs[i];
    absl::StrAppendFormat(
        &out,
        "    {\"pass\": %s, \"seconds\": %.6f, \"rewrites\": %d, \"changed\": %s, "
        "\"nodes_before\": %d, \"nodes_after\": %d, \"initializer_bytes_before\": %d, "
        "\"initializer_bytes_after\": %d, \"pattern_rewrites\": {%s}}%s\n",
        ir::JsonString(r.pass), r.seconds, r.rewrites, r.changed ? "true" : "false", r.before.nodes,
        r.after.nodes, r.before.initializer_bytes, r.after.initializer_bytes,
        PatternRewritesJson(r), i + 1 < result.runs.size() ? "," : "");
  }
  absl::StrAppendFormat(
      &out,
      "  ],\n  \"nodes_before\": %d,\n  \"nodes_after\": %d,\n"
      "  \"initializer_bytes_before\": %d,\n  \"initializer_bytes_after\": %d,\n"
      "  \"initializers_listed_as_inputs\": %d,\n  \"folds_refused_for_growth\": %d,\n"
      "  \"fixed_points_at_limit\": %d\n}\n",
      result.before.nodes, result.after.nodes, result.before.initializer_bytes,
      result.after.initializer_bytes, result.listed_as_inputs.count,
      result.folds_refused_for_growth, result.fixed_points_at_limit);
  return out;
}

}  // namespace onnx_opt::optimizer
