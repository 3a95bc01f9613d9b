// fuse-softplus: Log(Exp(x) + 1) becomes Softplus(x), which is defined as that expression.
#include "optimizer/pass_registry.h"
#include "passes/graph_walk.h"
#include "passes/pattern.h"

namespace onnx_opt::passes {
namespace {

class FuseSoftplus final : public optimizer::Pass {
 public:
  std::string_view name() const override { return "fuse-softplus"; }

  absl::StatusOr<bool> Run(ir::Model& model, optimizer::PassContext& ctx) override {
    ir::NameGenerator names(model);
    return ForEachGraphOuterFirst(model, [&](ir::Graph& g) -> absl::StatusOr<bool> {
      if (g.CountOpType("Log") == 0 || g.CountOpType("Exp") == 0) return false;  // needs a Log and an Exp
      bool changed = false;
      for (ir::Node* log : g.nodes()) {
        if (!log->is_onnx_domain() || log->op_type() != "Log" || !log->has_input(0)) continue;
        ir::Node* add = ProducerOf(log->input(0), "Add", &g);
        if (add == nullptr || !HasSingleUse(log->input(0))) continue;
        ir::Value* e = InputBesideScalar(*add, 1.0);
        ir::Node* exp = e != nullptr ? ProducerOf(e, "Exp", &g) : nullptr;
        if (exp == nullptr || !HasSingleUse(e) || !exp->has_input(0)) continue;
        if (ReplaceChain(g, log, "Softplus", {exp->input(0)}, {add, exp}, names) == nullptr) continue;
        ctx.CountRewrite();
        changed = true;
      }
      g.ReleaseErased();
      return changed;
    });
  }
};

}  // namespace

REGISTER_PASS(FuseSoftplus, "fuse-softplus", "turn Log(Exp(x) + 1) into Softplus(x)");

}  // namespace onnx_opt::passes
