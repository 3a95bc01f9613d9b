#include "passes/rewrite/graph_pass.h"

#include "ir/status_macros.h"
#include "passes/graph_walk.h"

namespace onnx_opt::passes::rewrite {

absl::StatusOr<bool> GraphPass::Run(ir::Model& model, optimizer::PassContext& ctx) {
  GraphRun run{model, ctx, model.OpsetVersion("").value_or(0), ir::NameGenerator(model)};
  if (run.opset < min_opset_) return false;
  int64_t rewrites = 0;
  absl::Status status = [&]() -> absl::Status {
    ASSIGN_OR_RETURN(rewrites, BeginRun(run));
    auto visit = [&](ir::Graph& g) -> absl::StatusOr<bool> {
      absl::StatusOr<int64_t> n = RunOnGraph(g, run);
      g.ReleaseErased();
      if (!n.ok()) return n.status();
      rewrites += *n;
      return *n > 0;
    };
    if (scope_ == GraphScope::kEveryGraph) return ForEachGraphOuterFirst(model, visit).status();
    return ForEachGraphOuterFirst(model.graph(), visit).status();
  }();
  EndRun();
  RETURN_IF_ERROR(status);
  ctx.CountRewrite(rewrites);
  return rewrites > 0;
}

}  // namespace onnx_opt::passes::rewrite
