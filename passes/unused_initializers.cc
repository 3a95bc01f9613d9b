// unused-initializers: removes constant initializers nothing uses. Initializers that are also graph
// inputs are part of the model's interface and stay.
#include "ir/status_macros.h"
#include "optimizer/pass_registry.h"
#include "passes/rewrite/graph_pass.h"

namespace onnx_opt::passes {
namespace {

class EliminateUnusedInitializers final : public rewrite::GraphPass {
 public:
  static constexpr char kName[] = "unused-initializers";
  EliminateUnusedInitializers() : GraphPass(kName) {}

  absl::StatusOr<int64_t> RunOnGraph(ir::Graph& g, rewrite::GraphRun&) override {
    std::vector<ir::Value*> dead;
    for (const auto* list : {&g.initializers(), &g.sparse_initializers()}) {
      for (ir::Value* v : *list) {
        if (!v->is_graph_input() && !v->has_uses()) dead.push_back(v);
      }
    }
    RETURN_IF_ERROR(g.RemoveInitializers(dead));
    return static_cast<int64_t>(dead.size());
  }
};

}  // namespace

REGISTER_PASS(EliminateUnusedInitializers, EliminateUnusedInitializers::kName,
              "remove initializers nothing uses (not those that are graph inputs)");

}  // namespace onnx_opt::passes
