// The whole contract of a pass: it edits the model in place and says whether it changed anything.
#ifndef ONNX_OPT_OPTIMIZER_PASS_H_
#define ONNX_OPT_OPTIMIZER_PASS_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "ir/model.h"

namespace onnx_opt::optimizer {

// Options and counters shared by the passes of one run.
struct PassOptions {
  // Folds whose outputs are larger than this and larger than their inputs are refused.
  int64_t fold_size_limit = 1 << 20;
  // Treat initializers that are also graph inputs as constants (and drop them from the inputs).
  bool fold_overridable_initializers = false;
};

class PassContext {
 public:
  explicit PassContext(PassOptions options = {}) : options_(options) {}

  const PassOptions& options() const { return options_; }
  // Passes call this once per rewrite they make; the manager reports the count per pass.
  void CountRewrite(int64_t n = 1) { rewrites_ += n; }
  int64_t rewrites() const { return rewrites_; }

 private:
  PassOptions options_;
  int64_t rewrites_ = 0;
};

class Pass {
 public:
  virtual ~Pass() = default;
  virtual std::string_view name() const = 0;
  virtual absl::StatusOr<bool> Run(ir::Model& model, PassContext& ctx) = 0;
};

}  // namespace onnx_opt::optimizer

#endif  // ONNX_OPT_OPTIMIZER_PASS_H_
