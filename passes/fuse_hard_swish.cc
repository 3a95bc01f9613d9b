// fuse-hard-swish: x * HardSigmoid(x, 1/6, 1/2), and x * relu6(x + 3) / 6 as exporters write
// PyTorch's hardswish (Div by 6 or Mul by 1/6 of Mul(x, Clip(Add(x, 3), 0, 6))), become
// HardSwish(x) (opset 14), which is defined as exactly that product; floating-point x only. Runs
// after fuse-hard-sigmoid, which turns the x * (relu6(x + 3) / 6) form into the first one.
#include "optimizer/pass_registry.h"
#include "passes/graph_walk.h"
#include "passes/pattern.h"

namespace onnx_opt::passes {
namespace {

bool IsSixthHardSigmoid(const ir::Node& h) {
  return std::fabs(h.GetFloat("alpha", 0.2f) - 1.0f / 6.0f) <= 1e-6f && h.GetFloat("beta", 0.5f) == 0.5f;
}

class FuseHardSwish final : public optimizer::Pass {
 public:
  std::string_view name() const override { return "fuse-hard-swish"; }

  absl::StatusOr<bool> Run(ir::Model& model, optimizer::PassContext& ctx) override {
    const int64_t opset = model.OpsetVersion("").value_or(0);
    if (opset < 14) return false;
    ir::NameGenerator names(model);
    return ForEachGraphOuterFirst(model, [&](ir::Graph& g) -> absl::StatusOr<bool> {
      // Skips the walk when the graph cannot hold the pattern: it needs a Clip (relu6) or a HardSigmoid.
      if (g.CountOpType("Clip") + g.CountOpType("HardSigmoid") == 0) return false;
      bool changed = false;
      for (ir::Node* n : g.nodes()) {
        if (!n->is_onnx_domain() || n->num_inputs() != 2 || !n->has_input(0) || !n->has_input(1)) continue;
        ir::Value* x = nullptr;
        std::vector<ir::Node*> chain;
        if (n->op_type() == "Mul") {
          // x * HardSigmoid(x)
          for (size_t side : {0, 1}) {
            ir::Node* h = ProducerOf(n->input(side), "HardSigmoid", &g);
            if (h != nullptr && HasSingleUse(n->input(side)) && h->input(0) == n->input(1 - side) &&
                IsSixthHardSigmoid(*h)) {
              x = n->input(1 - side);
              chain = {h};
              break;
            }
          }
        }
        if (x == nullptr && (n->op_type() == "Div" || n->op_type() == "Mul")) {
          // (x * relu6(x + 3)) / 6
          ir::Value* product = n->op_type() == "Div" ? InputBesideScalar(*n, 6.0, /*commutative=*/false)
                                                     : InputBesideScalar(*n, 1.0 / 6.0);
          ir::Node* mul = product != nullptr ? ProducerOf(product, "Mul", &g) : nullptr;
          if (mul != nullptr && HasSingleUse(product) && mul->num_inputs() == 2) {
            for (size_t side : {0, 1}) {
              std::optional<Relu6OfXPlus3> m = MatchRelu6OfXPlus3(mul->input(side), g, opset);
              if (m && m->x == mul->input(1 - side)) {
                x = m->x;
                chain = {mul, m->clip, m->add};
                break;
              }
            }
          }
        }
        if (x == nullptr || !FloatElemType(x)) continue;
        if (ReplaceChain(g, n, "HardSwish", {x}, chain, names) == nullptr) continue;
        ctx.CountRewrite();
        changed = true;
      }
      g.ReleaseErased();
      return changed;
    });
  }
};

}  // namespace

REGISTER_PASS(FuseHardSwish, "fuse-hard-swish", "turn x * HardSigmoid(x) and x * relu6(x + 3) / 6 into HardSwish(x)");

}  // namespace onnx_opt::passes
