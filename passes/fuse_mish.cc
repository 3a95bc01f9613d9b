// fuse-mish: x * Tanh(Softplus(x)) becomes Mish(x) (opset 18), which is defined as that product.
// Runs after fuse-softplus, so the Log(Exp(x) + 1) spelling of softplus is covered too.
#include "optimizer/pass_registry.h"
#include "passes/graph_walk.h"
#include "passes/pattern.h"

namespace onnx_opt::passes {
namespace {

class FuseMish final : public optimizer::Pass {
 public:
  std::string_view name() const override { return "fuse-mish"; }

  absl::StatusOr<bool> Run(ir::Model& model, optimizer::PassContext& ctx) override {
    if (model.OpsetVersion("").value_or(0) < 18) return false;
    ir::NameGenerator names(model);
    return ForEachGraphOuterFirst(model, [&](ir::Graph& g) -> absl::StatusOr<bool> {
      // Skips the walk when the graph cannot hold the pattern: it needs a Tanh of a Softplus.
      if (g.CountOpType("Tanh") == 0 || g.CountOpType("Softplus") == 0) return false;
      bool changed = false;
      for (ir::Node* mul : g.nodes()) {
        if (!mul->is_onnx_domain() || mul->op_type() != "Mul" || mul->num_inputs() != 2 ||
            !mul->has_input(0) || !mul->has_input(1)) {
          continue;
        }
        for (size_t side : {0, 1}) {
          ir::Node* tanh = ProducerOf(mul->input(side), "Tanh", &g);
          if (tanh == nullptr || !HasSingleUse(mul->input(side)) || !tanh->has_input(0)) continue;
          ir::Node* softplus = ProducerOf(tanh->input(0), "Softplus", &g);
          ir::Value* x = mul->input(1 - side);
          if (softplus == nullptr || !HasSingleUse(tanh->input(0)) || softplus->input(0) != x) continue;
          if (ReplaceChain(g, mul, "Mish", {x}, {tanh, softplus}, names) == nullptr) continue;
          ctx.CountRewrite();
          changed = true;
          break;
        }
      }
      g.ReleaseErased();
      return changed;
    });
  }
};

}  // namespace

REGISTER_PASS(FuseMish, "fuse-mish", "turn x * Tanh(Softplus(x)) into Mish(x)");

}  // namespace onnx_opt::passes
