// fuse-reshapes: Reshape(Reshape(x, s1), s2) becomes Reshape(x, s2) when s2 is a constant without
// zeros (a 0 copies a dim from the intermediate shape, which x may not have) or allowzero is set:
// a reshape only depends on the element count, which the first one preserves. Squeeze(Unsqueeze(x, a), a)
// becomes x for the same constant axes. Unsqueeze of Unsqueeze and Squeeze of Squeeze (explicit
// constant axes, known rank) become one node with the combined axes.
#include <algorithm>

#include "ir/name_generator.h"
#include "optimizer/pass_registry.h"
#include "passes/constant.h"
#include "passes/forward_value.h"
#include "passes/graph_walk.h"
#include "passes/pattern.h"

namespace onnx_opt::passes {
namespace {

// Axes made non-negative for `rank`, sorted; nullopt when out of range or repeated.
std::optional<std::vector<int64_t>> Normalized(std::vector<int64_t> axes, int64_t rank) {
  for (int64_t& a : axes) {
    if (a < -rank || a >= rank) return std::nullopt;
    if (a < 0) a += rank;
  }
  std::sort(axes.begin(), axes.end());
  if (std::adjacent_find(axes.begin(), axes.end()) != axes.end()) return std::nullopt;
  return axes;
}

// Unsqueeze(Unsqueeze(x, inner), outer) = Unsqueeze(x, result) for x of rank r: the outer axes are
// positions in the final shape; the other final positions take the intermediate dims in order,
// among which the inner axes are new too.
std::optional<std::vector<int64_t>> CombinedUnsqueezeAxes(const std::vector<int64_t>& inner,
                                                          const std::vector<int64_t>& outer, int64_t r) {
  const int64_t mid = r + static_cast<int64_t>(inner.size());
  const int64_t final_rank = mid + static_cast<int64_t>(outer.size());
  std::optional<std::vector<int64_t>> in = Normalized(inner, mid), out = Normalized(outer, final_rank);
  if (!in || !out) return std::nullopt;
  std::vector<bool> mid_new(mid, false);
  for (int64_t a : *in) mid_new[a] = true;
  std::vector<bool> final_new(final_rank, false);
  for (int64_t a : *out) final_new[a] = true;
  std::vector<int64_t> result;
  int64_t k = 0;  // next intermediate position
  for (int64_t i = 0; i < final_rank; ++i) {
    if (final_new[i]) {
      result.push_back(i);
    } else if (mid_new[k++]) {
      result.push_back(i);
    }
  }
  return result;
}

// Squeeze(Squeeze(x, inner), outer) = Squeeze(x, result): the outer axes index the dims x keeps.
std::optional<std::vector<int64_t>> CombinedSqueezeAxes(const std::vector<int64_t>& inner,
                                                        const std::vector<int64_t>& outer, int64_t r) {
  std::optional<std::vector<int64_t>> in = Normalized(inner, r);
  if (!in) return std::nullopt;
  std::vector<int64_t> kept;
  for (int64_t i = 0; i < r; ++i) {
    if (!std::binary_search(in->begin(), in->end(), i)) kept.push_back(i);
  }
  std::optional<std::vector<int64_t>> out = Normalized(outer, static_cast<int64_t>(kept.size()));
  if (!out) return std::nullopt;
  std::vector<int64_t> result = *in;
  for (int64_t a : *out) result.push_back(kept[a]);
  std::sort(result.begin(), result.end());
  return result;
}

class FuseConsecutiveReshapes final : public optimizer::Pass {
 public:
  std::string_view name() const override { return "fuse-reshapes"; }

  absl::StatusOr<bool> Run(ir::Model& model, optimizer::PassContext& ctx) override {
    const int64_t opset = model.OpsetVersion("").value_or(0);
    ir::NameGenerator names(model);
    return ForEachGraphOuterFirst(model, [&](ir::Graph& g) -> absl::StatusOr<bool> {
      // Skips the walk when the graph cannot hold the pattern: it needs two of Reshape, or two of Squeeze/Unsqueeze.
      if (g.CountOpType("Reshape") < 2 && g.CountOpType("Squeeze") + g.CountOpType("Unsqueeze") < 2) return false;
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
        } else if ((n->op_type() == "Unsqueeze" || n->op_type() == "Squeeze") &&
                   ProducerOf(n->input(0), n->op_type(), &g) != nullptr && HasSingleUse(n->input(0))) {
          ir::Node* inner = n->input(0)->producer();
          if (!inner->has_input(0)) continue;
          std::optional<std::vector<int64_t>> a = AxesOf(*inner, opset);
          std::optional<std::vector<int64_t>> b = AxesOf(*n, opset);
          std::optional<int64_t> rank = RankOf(inner->input(0));
          if (!a || !b || a->empty() || b->empty() || !rank) continue;
          std::optional<std::vector<int64_t>> axes = n->op_type() == "Unsqueeze"
                                                         ? CombinedUnsqueezeAxes(*a, *b, *rank)
                                                         : CombinedSqueezeAxes(*a, *b, *rank);
          if (!axes) continue;
          const bool axes_input = opset >= 13;
          if (axes_input) {
            ir::Tensor t = ir::Tensor::FromVector(ir::DataType::kInt64, {static_cast<int64_t>(axes->size())}, *axes);
            t.set_name(names.Fresh(n->output(0)->name() + "_axes"));
            n->SetInput(1, g.AddInitializer(std::move(t)));
          } else {
            n->SetAttribute(ir::Attribute::Ints("axes", *axes));
          }
          n->SetInput(0, inner->input(0));
          (void)g.Erase(inner);
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
              "merge Reshape of Reshape, Unsqueeze of Unsqueeze, Squeeze of Squeeze; cancel Squeeze of Unsqueeze");

}  // namespace onnx_opt::passes
