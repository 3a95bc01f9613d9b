// fuse-reduce-keepdims: a Reduce* with keepdims=0 whose only user is an Unsqueeze on the same
// (non-negative) axes becomes the Reduce* with keepdims=1: the reduced dims come back as 1s in the
// same places either way.
#include <algorithm>
#include <memory>

#include "optimizer/pass_registry.h"
#include "passes/rewrite/pattern_pass.h"
#include "passes/rewrite/value_facts.h"

namespace onnx_opt::passes {
namespace {

using namespace rewrite;  // NOLINT(build/namespaces): the pattern vocabulary

constexpr const char* kReduceOps[] = {
    "ReduceSum", "ReduceMean", "ReduceMax",    "ReduceMin",       "ReduceProd",
    "ReduceL1",  "ReduceL2",   "ReduceLogSum", "ReduceLogSumExp", "ReduceSumSquare"};

std::optional<std::vector<int64_t>> SortedNonNegative(std::optional<std::vector<int64_t>> axes) {
  if (!axes.has_value() || axes->empty()) return std::nullopt;
  for (int64_t a : *axes) {
    if (a < 0) return std::nullopt;
  }
  std::sort(axes->begin(), axes->end());
  return axes;
}

// Unsqueeze(Reduce*(..., keepdims = 0)), the reduction used once, built once; the reduction is
// bound in the match's captures.
class ReduceUnsqueezeMatcher {
 public:
  NodeSlot reduce;
  const ValuePattern root = Build();

 private:
  ValuePattern Build() const {
    std::vector<ValuePattern> reductions;
    for (const char* op : kReduceOps) {
      reductions.push_back(Op(op, {}).OneUse().CaptureNode(reduce).WhereNode(
          [](const ir::Node& n) { return n.GetInt("keepdims", 1) == 0; }));
    }
    return Op("Unsqueeze", {OneOf(std::move(reductions))});
  }
};

RewritePattern ReduceUnsqueezePattern() {
  auto reduce_unsqueeze = std::make_shared<const ReduceUnsqueezeMatcher>();
  return {.name = "reduce-unsqueeze",
          .root_ops = {"Unsqueeze"},
          .needs = {{{"Unsqueeze"}}},
          .match_and_rewrite = [reduce_unsqueeze](ir::Node& unsqueeze,
                                                  Rewriter& rw) -> absl::StatusOr<int64_t> {
            const Captures* m = rw.Match(reduce_unsqueeze->root, unsqueeze.output(0));
            if (m == nullptr) return 0;
            ir::Node* reduce = (*m)[reduce_unsqueeze->reduce];
            std::optional<std::vector<int64_t>> r = SortedNonNegative(AxesOf(*reduce, rw.opset()));
            std::optional<std::vector<int64_t>> u =
                SortedNonNegative(AxesOf(unsqueeze, rw.opset()));
            if (!r.has_value() || r != u) return 0;
            absl::StatusOr<bool> replaced = rw.ReplaceWithValue(unsqueeze, reduce->output(0));
            if (replaced.ok() && *replaced) {
              rw.SetAttribute(*reduce, ir::Attribute::Int("keepdims", 1));
            }
            return OneIfReplaced(replaced);
          }};
}

class FuseReduceUnsqueeze final : public PatternPass {
 public:
  static constexpr char kName[] = "fuse-reduce-keepdims";
  FuseReduceUnsqueeze()
      : PatternPass(kName, [] { return std::vector<RewritePattern>{ReduceUnsqueezePattern()}; }) {}
};

}  // namespace

REGISTER_PASS(FuseReduceUnsqueeze, FuseReduceUnsqueeze::kName,
              "turn Reduce(keepdims=0) + Unsqueeze into keepdims=1");

}  // namespace onnx_opt::passes
