// fuse-log-softmax: Log(Softmax(x, axis)) becomes LogSoftmax(x, axis). Both operators change their
// axis semantics at the same opset (13), so at any one opset the pair means the same thing.
#include "optimizer/pass_registry.h"
#include "passes/rewrite/pattern_pass.h"

namespace onnx_opt::passes {
namespace {

using namespace rewrite;  // NOLINT(build/namespaces): the pattern vocabulary

RewritePattern LogSoftmaxPattern() {
  return {.name = "log-softmax",
          .root_ops = {"Log"},
          .needs = {{{"Log"}}, {{"Softmax"}}},
          .match_and_rewrite = [](ir::Node& log, Rewriter& rw) -> absl::StatusOr<int64_t> {
            ir::Node* softmax = nullptr;
            // Softmax's result may be a graph output; its one use must be the Log.
            const ValuePattern used_once = Op("Softmax", {}).Where([](const ir::Value& v) { return v.uses().size() == 1; });
            if (!rw.Match(Op("Log", {used_once.CaptureNode(&softmax)}), log.output(0))) return 0;
            // The Softmax becomes the LogSoftmax in place (same inputs and attributes).
            absl::StatusOr<bool> replaced = rw.ReplaceWithValue(log, softmax->output(0));
            if (replaced.ok() && *replaced) softmax->set_op_type("LogSoftmax");
            return OneIfReplaced(replaced);
          }};
}

class FuseLogSoftmax final : public PatternPass {
 public:
  static constexpr char kName[] = "fuse-log-softmax";
  FuseLogSoftmax() : PatternPass(kName, {LogSoftmaxPattern()}) {}
};

}  // namespace

REGISTER_PASS(FuseLogSoftmax, FuseLogSoftmax::kName, "turn Log(Softmax(x)) into LogSoftmax(x)");

}  // namespace onnx_opt::passes
