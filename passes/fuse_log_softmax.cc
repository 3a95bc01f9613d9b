// fuse-log-softmax: Log(Softmax(x, axis)) becomes LogSoftmax(x, axis). Both operators change their
// axis semantics at the same opset (13), so at any one opset the pair means the same thing.
#include "optimizer/pass_registry.h"
#include "passes/forward_value.h"
#include "passes/graph_walk.h"

namespace onnx_opt::passes {
namespace {

class FuseLogSoftmax final : public optimizer::Pass {
 public:
  std::string_view name() const override { return "fuse-log-softmax"; }

  absl::StatusOr<bool> Run(ir::Model& model, optimizer::PassContext& ctx) override {
    return ForEachGraphOuterFirst(model, [&](ir::Graph& g) -> absl::StatusOr<bool> {
      // Skips the walk when the graph cannot hold the pattern: it needs a Log of a Softmax.
      if (g.CountOpType("Log") == 0 || g.CountOpType("Softmax") == 0) return false;
      bool changed = false;
      for (ir::Node* log : g.nodes()) {
        if (!log->is_onnx_domain() || log->op_type() != "Log" || !log->has_input(0)) continue;
        ir::Node* softmax = log->input(0)->producer();
        if (softmax == nullptr || softmax->graph() != &g || !softmax->is_onnx_domain() ||
            softmax->op_type() != "Softmax" || softmax->output(0)->uses().size() != 1) {
          continue;
        }
        // Turn the Softmax into LogSoftmax in place (same inputs and attributes), drop the Log.
        if (!ForwardValue(log->output(0), softmax->output(0))) continue;
        softmax->set_op_type("LogSoftmax");
        if (absl::Status s = g.Erase(log); !s.ok()) return s;
        ctx.CountRewrite();
        changed = true;
      }
      g.ReleaseErased();
      return changed;
    });
  }
};

}  // namespace

REGISTER_PASS(FuseLogSoftmax, "fuse-log-softmax", "turn Log(Softmax(x)) into LogSoftmax(x)");

}  // namespace onnx_opt::passes
