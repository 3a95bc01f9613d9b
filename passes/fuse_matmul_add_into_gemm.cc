// fuse-matmul-add: Add(MatMul(A, B), C) with A and B of rank 2 becomes Gemm(A, B, C) when C
// broadcasts one way to the [M, N] result (a scalar, [N], [1, N], [M, 1] or [M, N]) and the element
// type is one Gemm takes. Ranks come from the values' types (run infer-shapes first).
#include "ir/name_generator.h"
#include "optimizer/pass_registry.h"
#include "passes/forward_value.h"
#include "passes/graph_walk.h"
#include "passes/pattern.h"

namespace onnx_opt::passes {
namespace {

const ir::Shape* ShapeOf(const ir::Value* v) {
  if (v == nullptr || !v->type().is_tensor() || !v->type().shape().has_value()) return nullptr;
  return &*v->type().shape();
}

bool GemmType(ir::DataType t, int64_t opset) {
  return t == ir::DataType::kFloat || t == ir::DataType::kDouble || t == ir::DataType::kFloat16 ||
         (opset >= 13 && t == ir::DataType::kBfloat16);
}

// Whether c's shape broadcasts one way to [m, n] (dims may be symbolic: then they must be equal).
bool BroadcastsTo(const ir::Shape& c, const ir::Dim& m, const ir::Dim& n) {
  if (c.rank() > 2) return false;
  const ir::Dim* target[2] = {&m, &n};
  for (size_t i = 0; i < c.rank(); ++i) {
    const ir::Dim& d = c.dim(c.rank() - 1 - i);
    const ir::Dim& t = *target[1 - i];
    if (d.is_known() && d.value() == 1) continue;
    if (!(d == t) || d.is_unknown()) return false;
  }
  return true;
}

class FuseMatMulAddIntoGemm final : public optimizer::Pass {
 public:
  std::string_view name() const override { return "fuse-matmul-add"; }

  absl::StatusOr<bool> Run(ir::Model& model, optimizer::PassContext& ctx) override {
    const int64_t opset = model.OpsetVersion("").value_or(0);
    if (opset < 7) return false;  // Gemm-6 and older broadcast C only with an attribute
    ir::NameGenerator names(model);
    return ForEachGraphOuterFirst(model, [&](ir::Graph& g) -> absl::StatusOr<bool> {
      // Skips the walk when the graph cannot hold the pattern: it needs a MatMul and an Add.
      if (g.CountOpType("MatMul") == 0 || g.CountOpType("Add") == 0) return false;
      bool changed = false;
      for (ir::Node* add : g.nodes()) {
        if (!add->is_onnx_domain() || add->op_type() != "Add" || add->num_inputs() != 2) continue;
        for (size_t side : {0, 1}) {
          ir::Node* mm = ProducerOf(add->input(side), "MatMul", &g);
          ir::Value* c = add->input(1 - side);
          if (mm == nullptr || !HasSingleUse(mm->output(0)) || c == nullptr) continue;
          const ir::Shape* a = ShapeOf(mm->input(0));
          const ir::Shape* b = ShapeOf(mm->input(1));
          const ir::Shape* cs = ShapeOf(c);
          if (a == nullptr || b == nullptr || cs == nullptr || a->rank() != 2 || b->rank() != 2) continue;
          const ir::DataType type = mm->input(0)->type().elem_type();
          if (!GemmType(type, opset) || c->type().elem_type() != type) continue;
          if (!BroadcastsTo(*cs, a->dim(0), b->dim(1))) continue;
          auto gemm = ir::Node::Create("", "Gemm", {mm->input(0), mm->input(1), c},
                                       {names.Fresh(add->output(0)->name() + "_gemm")});
          ir::Node* fused = g.InsertAfter(add, std::move(gemm));
          fused->output(0)->set_type(add->output(0)->type());
          if (!ForwardValue(add->output(0), fused->output(0))) {
            fused->RemoveAllInputs();
            (void)g.Erase(fused);
            continue;
          }
          (void)g.Erase(add);
          (void)g.Erase(mm);
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

REGISTER_PASS(FuseMatMulAddIntoGemm, "fuse-matmul-add", "turn a 2-D MatMul followed by Add into Gemm");

}  // namespace onnx_opt::passes
