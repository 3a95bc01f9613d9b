// strip-value-info: removes every value_info entry (types and shapes of intermediate values). They
// are hints for runtimes and readers, not part of what a model computes, and can always be inferred
// again (infer-shapes). Not in any group: onnx-opt runs it only when asked.
#include "optimizer/pass_registry.h"
#include "passes/graph_walk.h"

namespace onnx_opt::passes {
namespace {

class StripValueInfo final : public optimizer::Pass {
 public:
  std::string_view name() const override { return "strip-value-info"; }

  absl::StatusOr<bool> Run(ir::Model& model, optimizer::PassContext& ctx) override {
    return ForEachGraphOuterFirst(model, [&](ir::Graph& g) -> absl::StatusOr<bool> {
      int64_t removed = static_cast<int64_t>(g.dangling_value_info().size());
      g.mutable_dangling_value_info().clear();
      auto drop = [&](ir::Value* v) {
        if (!v->in_value_info()) return;
        g.RemoveValueInfo(v);
        ++removed;
      };
      for (ir::Value* v : g.inputs()) drop(v);
      for (ir::Value* v : g.initializers()) drop(v);
      for (ir::Node* n : g.nodes()) {
        for (size_t i = 0; i < n->num_outputs(); ++i) drop(n->output(i));
      }
      ctx.CountRewrite(removed);
      return removed > 0;
    });
  }
};

}  // namespace

REGISTER_PASS(StripValueInfo, "strip-value-info", "remove every value_info entry (re-inferable type hints)");

}  // namespace onnx_opt::passes
