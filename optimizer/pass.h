// The whole contract of a pass: it edits the model in place and says whether it changed anything.
#ifndef ONNX_OPT_OPTIMIZER_PASS_H_
#define ONNX_OPT_OPTIMIZER_PASS_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "equivalence/equivalence_options.h"
#include "ir/model.h"

namespace onnx_opt::optimizer {

// A fold adding at most this many bytes of tensor data never counts as growth (see
// fold_growth_limit).
inline constexpr int64_t kSmallFoldBytes = 64;

// Options and counters shared by the passes of one run.
struct PassOptions {
  // Folds whose outputs are larger than this and larger than their inputs are refused.
  int64_t fold_size_limit = 1 << 20;
  // Bytes of copied tensor data that constant folding may add to the model over a whole run: a fold
  // whose result is kept next to inputs that other nodes still use (a transposed copy of a shared
  // weight, slices of one tensor in two branches) copies up to their size. Folds that copy at most
  // kSmallFoldBytes are always taken: they replace a node (op type, names) of about that size.
  int64_t fold_growth_limit = 0;
  // Treat initializers that are also graph inputs as constants (and drop them from the inputs).
  bool fold_overridable_initializers = false;
  // Where a pass may put the large tensors it computes from weights mapped from a file (the
  // quantized weights of quantize-weights) instead of keeping them in memory to the save: an
  // unlinked temporary file there (ir/spill_file.h). Empty: kept in memory.
  std::string spill_directory;
};

class PassContext {
 public:
  explicit PassContext(PassOptions options = {}) : options_(options) {}

  const PassOptions& options() const { return options_; }
  // Passes call this once per rewrite they make; the manager reports the count per pass.
  void CountRewrite(int64_t n = 1) { rewrites_ += n; }
  int64_t rewrites() const { return rewrites_; }
  // The same for a rewrite made by a named pattern ("pass/pattern"), also counted per pattern.
  void CountPatternRewrite(std::string_view pattern, int64_t n = 1) {
    rewrites_ += n;
    pattern_rewrites_[std::string(pattern)] += n;
    pattern_log_.emplace_back(pattern, n);
  }
  // Rewrites per pattern so far, by name.
  const std::map<std::string, int64_t, std::less<>>& pattern_rewrites() const {
    return pattern_rewrites_;
  }
  // The same as counted, call by call: the manager reads what one pass added (from an index it
  // noted before) instead of copying the map around every pass.
  const std::vector<std::pair<std::string, int64_t>>& pattern_log() const { return pattern_log_; }

  // Constant folding's growth budget (PassOptions::fold_growth_limit): whether a fold adding
  // `bytes` fits what is left of it, and spending it; the folds refused for it are counted for the
  // report.
  bool TakeFoldGrowth(int64_t bytes) {
    if (bytes > options_.fold_growth_limit - fold_growth_) {
      ++folds_refused_for_growth_;
      return false;
    }
    fold_growth_ += bytes;
    return true;
  }
  int64_t folds_refused_for_growth() const { return folds_refused_for_growth_; }

  // A fixed(...) loop that stopped at its round limit while its passes were still changing the
  // model (the result is valid, but may not be all its passes could make it).
  void CountFixedPointAtLimit() { ++fixed_points_at_limit_; }
  int64_t fixed_points_at_limit() const { return fixed_points_at_limit_; }

 private:
  PassOptions options_;
  int64_t rewrites_ = 0;
  std::map<std::string, int64_t, std::less<>> pattern_rewrites_;
  std::vector<std::pair<std::string, int64_t>> pattern_log_;
  int64_t fold_growth_ = 0;
  int64_t folds_refused_for_growth_ = 0;
  int64_t fixed_points_at_limit_ = 0;
};

class Pass {
 public:
  virtual ~Pass() = default;
  virtual std::string_view name() const = 0;
  virtual absl::StatusOr<bool> Run(ir::Model& model, PassContext& ctx) = 0;
  // Set for a lossy pass (float16 weights, quantized weights): how far outputs may move by its
  // nature, the default its results are verified against (equivalence::Tolerances::lossy).
  virtual std::optional<equivalence::LossyTolerance> lossy_tolerance() const {
    return std::nullopt;
  }
};

}  // namespace onnx_opt::optimizer

#endif  // ONNX_OPT_OPTIMIZER_PASS_H_
