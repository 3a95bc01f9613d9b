// fuse-rmsnorm: RMS normalization as exporters write it, gamma * x / Sqrt(ReduceMean(x^2) + eps)
// over the last axis (x^2 as Pow(x, 2) or Mul(x, x); the division as Div, or Mul by Reciprocal),
// becomes RMSNormalization(x, gamma, axis = -1, epsilon = eps) (opset 23). Only for float32 x:
// RMSNormalization computes in float32 (stash_type 1), which for other types differs from the
// original arithmetic. gamma must be a constant of at most one dimension, so that it scales the
// last axis the way the Mul did.
#include "optimizer/pass_registry.h"
#include "passes/constant.h"
#include "passes/graph_walk.h"
#include "passes/pattern.h"

namespace onnx_opt::passes {
namespace {

struct Match {
  ir::Value* x = nullptr;
  double epsilon = 0;
  std::vector<ir::Node*> chain;
};

// normalized = x / Sqrt(ReduceMean(x^2, last axis) + eps), ending at `v`.
std::optional<Match> MatchNormalized(ir::Value* v, const ir::Graph& g, int64_t opset) {
  if (!HasSingleUse(v)) return std::nullopt;
  Match m;
  ir::Value* root = nullptr;  // Sqrt(...)
  if (ir::Node* div = ProducerOf(v, "Div", &g); div != nullptr && div->num_inputs() == 2) {
    m.x = div->input(0);
    root = div->input(1);
    m.chain.push_back(div);
  } else if (ir::Node* mul = ProducerOf(v, "Mul", &g); mul != nullptr && mul->num_inputs() == 2) {
    for (size_t side : {0, 1}) {
      ir::Node* recip = ProducerOf(mul->input(side), "Reciprocal", &g);
      if (recip != nullptr && HasSingleUse(mul->input(side))) {
        m.x = mul->input(1 - side);
        root = recip->input(0);
        m.chain = {mul, recip};
        break;
      }
    }
  }
  if (m.x == nullptr || root == nullptr) return std::nullopt;
  ir::Node* sqrt = ProducerOf(root, "Sqrt", &g);
  if (sqrt == nullptr || !HasSingleUse(root)) return std::nullopt;
  ir::Node* add = ProducerOf(sqrt->input(0), "Add", &g);
  if (add == nullptr || !HasSingleUse(sqrt->input(0)) || add->num_inputs() != 2) return std::nullopt;
  ir::Value* mean = nullptr;
  for (size_t side : {0, 1}) {
    std::optional<double> eps = ScalarConstant(add->input(1 - side));
    if (eps && ProducerOf(add->input(side), "ReduceMean", &g) != nullptr) {
      m.epsilon = *eps;
      mean = add->input(side);
    }
  }
  if (mean == nullptr || !HasSingleUse(mean)) return std::nullopt;
  ir::Node* reduce = mean->producer();
  if (reduce->GetInt("keepdims", 1) != 1 || !m.x->type().is_tensor() || !m.x->type().shape()) return std::nullopt;
  const int64_t rank = static_cast<int64_t>(m.x->type().shape()->rank());
  std::optional<std::vector<int64_t>> axes = AxesOf(*reduce, opset);
  if (!axes || axes->size() != 1 || ((*axes)[0] != -1 && (*axes)[0] != rank - 1)) return std::nullopt;
  ir::Value* square = reduce->input(0);
  ir::Node* sq = square->producer();
  if (sq == nullptr || sq->graph() != &g || !HasSingleUse(square) || !sq->is_onnx_domain()) return std::nullopt;
  const bool is_square = (sq->op_type() == "Pow" && sq->input(0) == m.x && InputBesideScalar(*sq, 2.0, false) == m.x) ||
                         (sq->op_type() == "Mul" && sq->num_inputs() == 2 && sq->input(0) == m.x && sq->input(1) == m.x);
  if (!is_square) return std::nullopt;
  m.chain.insert(m.chain.end(), {sqrt, add, reduce, sq});
  return m;
}

class FuseRmsNormalization final : public optimizer::Pass {
 public:
  std::string_view name() const override { return "fuse-rmsnorm"; }

  absl::StatusOr<bool> Run(ir::Model& model, optimizer::PassContext& ctx) override {
    const int64_t opset = model.OpsetVersion("").value_or(0);
    if (opset < 23) return false;
    ir::NameGenerator names(model);
    return ForEachGraphOuterFirst(model, [&](ir::Graph& g) -> absl::StatusOr<bool> {
      // Skips the walk when the graph cannot hold the pattern: it needs a ReduceMean and a Sqrt.
      if (g.CountOpType("ReduceMean") == 0 || g.CountOpType("Sqrt") == 0) return false;
      bool changed = false;
      for (ir::Node* scale : g.nodes()) {
        if (!scale->is_onnx_domain() || scale->op_type() != "Mul" || scale->num_inputs() != 2 ||
            !scale->has_input(0) || !scale->has_input(1)) {
          continue;
        }
        for (size_t side : {0, 1}) {
          ir::Value* gamma = scale->input(1 - side);
          const ir::Tensor* g_tensor = GetConstantTensor(gamma);
          if (g_tensor == nullptr || g_tensor->dims().size() > 1) continue;
          std::optional<Match> m = MatchNormalized(scale->input(side), g, opset);
          if (!m || FloatElemType(m->x) != ir::DataType::kFloat) continue;
          if (g_tensor->data_type() != ir::DataType::kFloat) continue;
          ir::Node* fused = ReplaceChain(g, scale, "RMSNormalization", {m->x, gamma}, m->chain, names);
          if (fused == nullptr) continue;
          fused->SetAttribute(ir::Attribute::Int("axis", -1));
          fused->SetAttribute(ir::Attribute::Float("epsilon", static_cast<float>(m->epsilon)));
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

REGISTER_PASS(FuseRmsNormalization, "fuse-rmsnorm", "turn gamma * x / Sqrt(ReduceMean(x^2) + eps) into RMSNormalization");

}  // namespace onnx_opt::passes
