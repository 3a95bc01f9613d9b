// unused-initializers: removes constant initializers nothing uses. Initializers that are also graph
// inputs are part of the model's interface and stay.
#include "ir/status_macros.h"
#include "optimizer/pass_registry.h"
#include "passes/graph_walk.h"

namespace onnx_opt::passes {
namespace {

class EliminateUnusedInitializers final : public optimizer::Pass {
 public:
  std::string_view name() const override { return "unused-initializers"; }

  absl::StatusOr<bool> Run(ir::Model& model, optimizer::PassContext& ctx) override {
    return ForEachGraphOuterFirst(model, [&](ir::Graph& g) -> absl::StatusOr<bool> {
      std::vector<ir::Value*> dead;
      for (const auto* list : {&g.initializers(), &g.sparse_initializers()}) {
        for (ir::Value* v : *list) {
          if (!v->is_graph_input() && !v->has_uses()) dead.push_back(v);
        }
      }
      RETURN_IF_ERROR(g.RemoveInitializers(dead));
      ctx.CountRewrite(static_cast<int64_t>(dead.size()));
      return !dead.empty();
    });
  }
};

}  // namespace

REGISTER_PASS(EliminateUnusedInitializers, "unused-initializers",
              "remove initializers nothing uses (not those that are graph inputs)");

}  // namespace onnx_opt::passes
