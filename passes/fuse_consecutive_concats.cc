// fuse-concats: Concat(a, Concat(b, c), d) on the same axis becomes Concat(a, b, c, d) when the
// inner result has no other use: concatenation along one axis is associative, so the elements and
// their order are the same.
#include <algorithm>

#include "optimizer/pass_registry.h"
#include "passes/graph_walk.h"
#include "passes/pattern.h"

namespace onnx_opt::passes {
namespace {

// The rank of the node's output or, as all have the same, of any input.
std::optional<int64_t> ConcatRank(const ir::Node& n) {
  if (std::optional<int64_t> r = RankOf(n.output(0))) return r;
  for (const ir::Value* in : n.inputs()) {
    if (std::optional<int64_t> r = RankOf(in)) return r;
  }
  return std::nullopt;
}

// The concatenation axis made non-negative when the rank is known.
std::optional<int64_t> AxisOf(const ir::Node& n, std::optional<int64_t> rank) {
  const ir::Attribute* a = n.FindAttribute("axis");
  if (a == nullptr) return std::nullopt;  // opset 1 default 1: leave such old models alone
  int64_t axis = a->i;
  if (axis < 0 && rank) axis += *rank;
  return axis;
}

class FuseConsecutiveConcats final : public optimizer::Pass {
 public:
  std::string_view name() const override { return "fuse-concats"; }

  absl::StatusOr<bool> Run(ir::Model& model, optimizer::PassContext& ctx) override {
    return ForEachGraphOuterFirst(model, [&](ir::Graph& g) -> absl::StatusOr<bool> {
      if (g.CountOpType("Concat") < 2) return false;  // needs two Concats
      bool changed = false;
      for (ir::Node* outer : g.nodes()) {
        if (!outer->is_onnx_domain() || outer->op_type() != "Concat") continue;
        const std::optional<int64_t> rank = ConcatRank(*outer);
        const std::optional<int64_t> axis = AxisOf(*outer, rank);
        if (!axis) continue;
        // Inputs are rebuilt in order, splicing in each single-use inner Concat on the same axis.
        std::vector<ir::Value*> inputs;
        std::vector<ir::Node*> absorbed;
        for (ir::Value* in : outer->inputs()) {
          ir::Node* inner = in == nullptr ? nullptr : ProducerOf(in, "Concat", &g);
          std::optional<int64_t> inner_axis = inner ? AxisOf(*inner, rank) : std::nullopt;
          if (inner == nullptr || !inner_axis || *inner_axis != *axis || !HasSingleUse(in) ||
              // Equal negative axes mean the same dim only for equal ranks, which Concat guarantees.
              std::find(absorbed.begin(), absorbed.end(), inner) != absorbed.end()) {
            inputs.push_back(in);
            continue;
          }
          for (ir::Value* v : inner->inputs()) inputs.push_back(v);
          absorbed.push_back(inner);
        }
        if (absorbed.empty()) continue;
        while (outer->num_inputs() > 0) outer->RemoveInput(outer->num_inputs() - 1);
        for (ir::Value* v : inputs) outer->AddInput(v);
        for (ir::Node* inner : absorbed) {
          (void)g.Erase(inner);
          ctx.CountRewrite();
        }
        changed = true;
      }
      g.ReleaseErased();
      return changed;
    });
  }
};

}  // namespace

REGISTER_PASS(FuseConsecutiveConcats, "fuse-concats", "Concat of a Concat on the same axis becomes one Concat");

}  // namespace onnx_opt::passes
