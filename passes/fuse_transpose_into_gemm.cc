// fuse-transpose-gemm: a 2-D Transpose (perm [1, 0]) feeding Gemm's A or B is absorbed by flipping
// transA or transB.
#include "optimizer/pass_registry.h"
#include "passes/graph_walk.h"
#include "passes/pattern.h"

namespace onnx_opt::passes {
namespace {

class FuseTransposeIntoGemm final : public optimizer::Pass {
 public:
  std::string_view name() const override { return "fuse-transpose-gemm"; }

  absl::StatusOr<bool> Run(ir::Model& model, optimizer::PassContext& ctx) override {
    return ForEachGraphOuterFirst(model, [&](ir::Graph& g) -> absl::StatusOr<bool> {
      // Skips the walk when the graph cannot hold the pattern: it needs a Transpose into a Gemm.
      if (g.CountOpType("Gemm") == 0 || g.CountOpType("Transpose") == 0) return false;
      bool changed = false;
      for (ir::Node* gemm : g.nodes()) {
        if (!gemm->is_onnx_domain() || gemm->op_type() != "Gemm" || gemm->num_inputs() < 2) continue;
        for (size_t i : {0, 1}) {
          ir::Node* t = ProducerOf(gemm->input(i), "Transpose", &g);
          if (t == nullptr || t->GetInts("perm") != std::vector<int64_t>{1, 0} || !t->has_input(0)) continue;
          const char* attr = i == 0 ? "transA" : "transB";
          gemm->SetAttribute(ir::Attribute::Int(attr, gemm->GetInt(attr, 0) == 0 ? 1 : 0));
          gemm->SetInput(i, t->input(0));
          if (!t->output(0)->has_uses()) (void)g.Erase(t);
          ctx.CountRewrite();
          changed = true;
        }
      }
      g.ReleaseErased();
      return changed;
    });
  }
};

}  // namespace

REGISTER_PASS(FuseTransposeIntoGemm, "fuse-transpose-gemm", "absorb a 2-D Transpose into Gemm's transA/transB");

}  // namespace onnx_opt::passes
