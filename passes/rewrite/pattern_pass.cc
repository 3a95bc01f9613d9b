#include "passes/rewrite/pattern_pass.h"

#include <algorithm>

#include "ir/name_generator.h"
#include "ir/status_macros.h"
#include "passes/graph_walk.h"

namespace onnx_opt::passes::rewrite {
namespace {

bool GraphMayHold(const ir::Graph& g, const RewritePattern& p) {
  for (const OpCount& need : p.needs) {
    int64_t count = 0;
    for (const std::string& op : need.ops) count += g.CountOpType(op);
    if (count < need.at_least) return false;
  }
  return true;
}

bool IsRoot(const ir::Node& n, const RewritePattern& p) {
  return std::find(p.root_ops.begin(), p.root_ops.end(), n.op_type()) != p.root_ops.end();
}

}  // namespace

absl::StatusOr<bool> PatternPass::Run(ir::Model& model, optimizer::PassContext& ctx) {
  const int64_t opset = model.OpsetVersion("").value_or(0);
  std::vector<const RewritePattern*> enabled;
  for (const RewritePattern& p : patterns_) {
    if (opset >= p.min_opset) enabled.push_back(&p);
  }
  if (enabled.empty()) return false;
  ir::NameGenerator names(model);
  return ForEachGraphOuterFirst(model, [&](ir::Graph& g) -> absl::StatusOr<bool> {
    std::vector<const RewritePattern*> possible;
    for (const RewritePattern* p : enabled) {
      if (GraphMayHold(g, *p)) possible.push_back(p);
    }
    if (possible.empty()) return false;
    bool changed = false;
    // One sweep in node order (nodes inserted after the current one are visited too); a pipeline
    // that wants what a rewrite enables upstream runs the pass in fixed(...).
    for (ir::Node* node : g.nodes()) {
      if (!node->is_onnx_domain()) continue;
      for (const RewritePattern* p : possible) {
        if (!IsRoot(*node, *p)) continue;
        Rewriter rewriter(g, opset, names);
        ASSIGN_OR_RETURN(int64_t rewrites, p->match_and_rewrite(*node, rewriter));
        if (rewrites == 0) continue;
        ctx.CountRewrite(rewrites);
        changed = true;
        break;
      }
    }
    g.ReleaseErased();
    return changed;
  });
}

}  // namespace onnx_opt::passes::rewrite
