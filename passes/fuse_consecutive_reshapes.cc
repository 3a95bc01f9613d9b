// fuse-reshapes: Reshape(Reshape(x, s1), s2) becomes Reshape(x, s2) when s2 is a constant without
// zeros (a 0 copies a dim from the intermediate shape, which x may not have) or allowzero is set:
// a reshape only depends on the element count, which the first one preserves. Squeeze(Unsqueeze(x, a), a)
// becomes x for the same constant axes.
#include "optimizer/pass_registry.h"
#include "passes/constant.h"
#include "passes/forward_value.h"
#include "passes/graph_walk.h"
#include "passes/pattern.h"

namespace onnx_opt::passes {
namespace {

class FuseConsecutiveReshapes final : public optimizer::Pass {
 public:
  std::string_view name() const override { return "fuse-reshapes"; }

  absl::StatusOr<bool> Run(ir::Model& model, optimizer::PassContext& ctx) override {
    const int64_t opset = model.OpsetVersion("").value_or(0);
    return ForEachGraphOuterFirst(model, [&](ir::Graph& g) -> absl::StatusOr<bool> {
      bool changed = false;
      for (ir::Node* n : g.nodes()) {
        if (!n->is_onnx_domain() || !n->has_input(0)) continue;
        if (n->op_type() == "Reshape" && opset >= 5 && n->num_inputs() == 2) {
          ir::Node* inner = ProducerOf(n->input(0), "Reshape", &g);
          const ir::Tensor* shape = GetConstantTensor(n->input(1));
          if (inner == nullptr || shape == nullptr || !inner->has_input(0)) continue;
          std::optional<std::vector<int64_t>> s2 = ConstantAsInts(*shape);
          if (!s2.has_value()) continue;
          bool has_zero = false;
          for (int64_t d : *s2) has_zero |= (d == 0);
          if (has_zero && n->GetInt("allowzero", 0) == 0) continue;
          n->SetInput(0, inner->input(0));
          if (!inner->output(0)->has_uses()) (void)g.Erase(inner);
          ctx.CountRewrite();
          changed = true;
        } else if (n->op_type() == "Squeeze") {
          ir::Node* inner = ProducerOf(n->input(0), "Unsqueeze", &g);
          if (inner == nullptr || !inner->has_input(0)) continue;
          std::optional<std::vector<int64_t>> a = AxesOf(*n, opset);
          std::optional<std::vector<int64_t>> b = AxesOf(*inner, opset);
          // Equal non-negative axes: negative ones mean different dims before and after.
          if (!a.has_value() || !b.has_value() || a->empty() || *a != *b) continue;
          bool non_negative = true;
          for (int64_t v : *a) non_negative &= (v >= 0);
          if (!non_negative || !ForwardValue(n->output(0), inner->input(0))) continue;
          (void)g.Erase(n);
          if (!inner->output(0)->has_uses()) (void)g.Erase(inner);
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

REGISTER_PASS(FuseConsecutiveReshapes, "fuse-reshapes",
              "merge Reshape of Reshape, cancel Squeeze of Unsqueeze on the same axes");

}  // namespace onnx_opt::passes
