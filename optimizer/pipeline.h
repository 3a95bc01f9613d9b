// Pipelines written as text: "fold,fuse", "default", "fixed(fold,fuse,dce)", "convert(21)".
// A pipeline is itself a Pass: a sequence, or a fixed-point loop around a sequence.
#ifndef ONNX_OPT_OPTIMIZER_PIPELINE_H_
#define ONNX_OPT_OPTIMIZER_PIPELINE_H_

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "optimizer/pass.h"
#include "optimizer/pass_registry.h"

namespace onnx_opt::optimizer {

// Runs its passes in order; changed if any changed.
class SequencePass final : public Pass {
 public:
  SequencePass(std::string name, std::vector<std::unique_ptr<Pass>> passes)
      : name_(std::move(name)), passes_(std::move(passes)) {}
  std::string_view name() const override { return name_; }
  absl::StatusOr<bool> Run(ir::Model& model, PassContext& ctx) override;
  const std::vector<std::unique_ptr<Pass>>& passes() const { return passes_; }

 private:
  std::string name_;
  std::vector<std::unique_ptr<Pass>> passes_;
};

// Re-runs its body until a round changes nothing, at most `max_rounds` times; stopping at that
// limit while the body still changes the model is counted (PassContext::CountFixedPointAtLimit).
class FixedPointPass final : public Pass {
 public:
  static constexpr int kDefaultMaxRounds = 16;
  static constexpr int kMaxRounds = 1000000;  // the largest N of fixed<N>(...)
  FixedPointPass(std::unique_ptr<Pass> body, int max_rounds = kDefaultMaxRounds)
      : body_(std::move(body)), max_rounds_(max_rounds) {}
  std::string_view name() const override { return "fixed"; }
  absl::StatusOr<bool> Run(ir::Model& model, PassContext& ctx) override;
  // Rounds the last Run took (the last one changing nothing, unless the bound was hit).
  int rounds() const { return rounds_; }
  bool hit_bound() const { return hit_bound_; }

 private:
  std::unique_ptr<Pass> body_;
  int max_rounds_;
  int rounds_ = 0;
  bool hit_bound_ = false;
};

// Wraps every leaf pass the parser creates (the pass manager adds timing and checks this way).
using LeafWrapper = std::function<std::unique_ptr<Pass>(std::unique_ptr<Pass>)>;

// Parses pipeline text. Names are passes or groups from `registry`; `fixed(...)` loops to a fixed
// point (optionally `fixed<N>(...)` to bound it at N rounds); `name(a,b)` passes arguments to a
// pass (each up to the next ',', '(', ')' or space: `quantize-weights(bits=4,block=32)`). Unknown
// names give an error that lists the valid ones. Errors: InvalidArgument when the text is wrong
// (bad syntax, an unknown name, arguments a pass refuses), which a tool reports as a usage error;
// Internal when a registered group expands into itself (the registry's fault, not the caller's).
absl::StatusOr<std::unique_ptr<Pass>> ParsePipeline(std::string_view text,
                                                    const PassRegistry& registry,
                                                    const LeafWrapper& wrap = nullptr);

// The loosest default tolerance of the lossy passes in the pipeline (Pass::lossy_tolerance), or
// none when it has no lossy pass. Errors as ParsePipeline's.
absl::StatusOr<std::optional<equivalence::LossyTolerance>> LossyToleranceOf(
    std::string_view text, const PassRegistry& registry);

}  // namespace onnx_opt::optimizer

#endif  // ONNX_OPT_OPTIMIZER_PIPELINE_H_
