// strip-value-info: removes every value_info entry (types and shapes of intermediate values). They
// are hints for runtimes and readers, not part of what a model computes, and can always be inferred
// again (infer-shapes). Not in any group: onnx-opt runs it only when asked.
#include "optimizer/pass_registry.h"
#include "passes/rewrite/graph_pass.h"

namespace onnx_opt::passes {
namespace {

class StripValueInfo final : public rewrite::GraphPass {
 public:
  static constexpr char kName[] = "strip-value-info";
  StripValueInfo() : GraphPass(kName) {}

  absl::StatusOr<int64_t> RunOnGraph(ir::Graph& g, rewrite::GraphRun&) override {
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
    return removed;
  }
};

}  // namespace

REGISTER_PASS(StripValueInfo, StripValueInfo::kName,
              "remove every value_info entry (re-inferable type hints)");

}  // namespace onnx_opt::passes
