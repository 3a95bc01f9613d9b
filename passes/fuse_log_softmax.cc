// fuse-log-softmax: Log(Softmax(x, axis)) becomes LogSoftmax(x, axis). Both operators change their
// axis semantics at the same opset (13), so at any one opset the pair means the same thing.
#include <memory>

#include "optimizer/pass_registry.h"
#include "passes/rewrite/pattern_pass.h"

namespace onnx_opt::passes {
namespace {

using namespace rewrite;  // NOLINT(build/namespaces): the pattern vocabulary

// Log(Softmax(...)) where the Log is the Softmax's one use (its result may be a graph output),
// built once; the Softmax is bound in the match's captures.
struct LogSoftmaxMatcher {
  NodeSlot softmax;
  const ValuePattern root =
      Op("Log", {Op("Softmax", {})
                     .Where([](const ir::Value& v) { return v.uses().size() == 1; })
                     .CaptureNode(softmax)});
};

RewritePattern LogSoftmaxPattern() {
  auto log_softmax = std::make_shared<const LogSoftmaxMatcher>();
  return {
      .name = "log-softmax",
      .root_ops = {"Log"},
      .needs = {{{"Log"}}, {{"Softmax"}}},
      .match_and_rewrite = [log_softmax](ir::Node& log, Rewriter& rw) -> absl::StatusOr<int64_t> {
        const Captures* m = rw.Match(log_softmax->root, log.output(0));
        if (m == nullptr) return 0;
        ir::Node* softmax = (*m)[log_softmax->softmax];
        // The Softmax becomes the LogSoftmax in place (same inputs and attributes).
        absl::StatusOr<bool> replaced = rw.ReplaceWithValue(log, softmax->output(0));
        if (replaced.ok() && *replaced) rw.ChangeOpType(*softmax, "LogSoftmax");
        return OneIfReplaced(replaced);
      }};
}

class FuseLogSoftmax final : public PatternPass {
 public:
  static constexpr char kName[] = "fuse-log-softmax";
  FuseLogSoftmax()
      : PatternPass(kName, [] { return std::vector<RewritePattern>{LogSoftmaxPattern()}; }) {}
};

}  // namespace

REGISTER_PASS(FuseLogSoftmax, FuseLogSoftmax::kName, "turn Log(Softmax(x)) into LogSoftmax(x)");

}  // namespace onnx_opt::passes
