// fuse-reduce-keepdims: a Reduce* with keepdims=0 whose only user is an Unsqueeze on the same
// (non-negative) axes becomes the Reduce* with keepdims=1: the reduced dims come back as 1s in the
// same places either way.
#include <algorithm>

#include "optimizer/pass_registry.h"
#include "passes/constant.h"
#include "passes/forward_value.h"
#include "passes/graph_walk.h"
#include "passes/pattern.h"

namespace onnx_opt::passes {
namespace {

bool IsReduce(const std::string& op) {
  return op == "ReduceSum" || op == "ReduceMean" || op == "ReduceMax" || op == "ReduceMin" ||
         op == "ReduceProd" || op == "ReduceL1" || op == "ReduceL2" || op == "ReduceLogSum" ||
         op == "ReduceLogSumExp" || op == "ReduceSumSquare";
}

std::optional<std::vector<int64_t>> SortedNonNegative(std::optional<std::vector<int64_t>> axes) {
  if (!axes.has_value() || axes->empty()) return std::nullopt;
  for (int64_t a : *axes) {
    if (a < 0) return std::nullopt;
  }
  std::sort(axes->begin(), axes->end());
  return axes;
}

class FuseReduceUnsqueeze final : public optimizer::Pass {
 public:
  std::string_view name() const override { return "fuse-reduce-keepdims"; }

  absl::StatusOr<bool> Run(ir::Model& model, optimizer::PassContext& ctx) override {
    const int64_t opset = model.OpsetVersion("").value_or(0);
    return ForEachGraphOuterFirst(model, [&](ir::Graph& g) -> absl::StatusOr<bool> {
      if (g.CountOpType("Unsqueeze") == 0) return false;  // needs an Unsqueeze (of a Reduce)
      bool changed = false;
      for (ir::Node* unsqueeze : g.nodes()) {
        if (!unsqueeze->is_onnx_domain() || unsqueeze->op_type() != "Unsqueeze" || !unsqueeze->has_input(0)) continue;
        ir::Node* reduce = unsqueeze->input(0)->producer();
        if (reduce == nullptr || reduce->graph() != &g || !reduce->is_onnx_domain() ||
            !IsReduce(reduce->op_type()) || reduce->GetInt("keepdims", 1) != 0 ||
            !HasSingleUse(reduce->output(0))) {
          continue;
        }
        std::optional<std::vector<int64_t>> r = SortedNonNegative(AxesOf(*reduce, opset));
        std::optional<std::vector<int64_t>> u = SortedNonNegative(AxesOf(*unsqueeze, opset));
        if (!r.has_value() || r != u) continue;
        if (!ForwardValue(unsqueeze->output(0), reduce->output(0))) continue;
        reduce->SetAttribute(ir::Attribute::Int("keepdims", 1));
        (void)g.Erase(unsqueeze);
        ctx.CountRewrite();
        changed = true;
      }
      g.ReleaseErased();
      return changed;
    });
  }
};

}  // namespace

REGISTER_PASS(FuseReduceUnsqueeze, "fuse-reduce-keepdims", "turn Reduce(keepdims=0) + Unsqueeze into keepdims=1");

}  // namespace onnx_opt::passes
