// fuse-transposes: Transpose(Transpose(x, p1), p2) becomes Transpose(x, p) with p[i] = p1[p2[i]];
// the identity permutation is then removed by the `nops` pass.
#include "optimizer/pass_registry.h"
#include "passes/forward_value.h"
#include "passes/graph_walk.h"

namespace onnx_opt::passes {
namespace {

bool IsPermutation(const std::vector<int64_t>& p) {
  std::vector<bool> seen(p.size(), false);
  for (int64_t v : p) {
    if (v < 0 || v >= static_cast<int64_t>(p.size()) || seen[v]) return false;
    seen[v] = true;
  }
  return true;
}

class FuseConsecutiveTransposes final : public optimizer::Pass {
 public:
  std::string_view name() const override { return "fuse-transposes"; }

  absl::StatusOr<bool> Run(ir::Model& model, optimizer::PassContext& ctx) override {
    return ForEachGraphOuterFirst(model, [&](ir::Graph& g) -> absl::StatusOr<bool> {
      if (g.CountOpType("Transpose") < 2) return false;  // needs two Transposes
      bool changed = false;
      for (ir::Node* outer : g.nodes()) {
        if (!outer->is_onnx_domain() || outer->op_type() != "Transpose" || !outer->has_input(0)) continue;
        ir::Node* inner = outer->input(0)->producer();
        if (inner == nullptr || inner->graph() != &g || !inner->is_onnx_domain() ||
            inner->op_type() != "Transpose" || !inner->has_input(0)) {
          continue;
        }
        // Without explicit perms the default (reverse) needs the rank; skip those.
        const std::vector<int64_t> p1 = inner->GetInts("perm");
        const std::vector<int64_t> p2 = outer->GetInts("perm");
        if (p1.empty() || p1.size() != p2.size() || !IsPermutation(p1) || !IsPermutation(p2)) continue;
        std::vector<int64_t> p(p1.size());
        for (size_t i = 0; i < p.size(); ++i) p[i] = p1[p2[i]];
        // Rewire the outer node to read x directly; the inner one dies if nothing else uses it.
        outer->SetInput(0, inner->input(0));
        outer->SetAttribute(ir::Attribute::Ints("perm", p));
        if (!inner->output(0)->has_uses()) {
          if (absl::Status s = g.Erase(inner); !s.ok()) return s;
        }
        ctx.CountRewrite();
        changed = true;
      }
      g.ReleaseErased();
      return changed;
    });
  }
};

}  // namespace

REGISTER_PASS(FuseConsecutiveTransposes, "fuse-transposes", "merge a Transpose of a Transpose into one");

}  // namespace onnx_opt::passes
