// fuse-reshapes: Reshape(Reshape(x, s1), s2) becomes Reshape(x, s2) when s2 is a constant without
// zeros (a 0 copies a dim from the intermediate shape, which x may not have) or allowzero is set:
// a reshape only depends on the element count, which the first one preserves. Squeeze(Unsqueeze(x,
// a), a) becomes x for the same constant axes. Unsqueeze of Unsqueeze and Squeeze of Squeeze
// (explicit constant axes, known rank) become one node with the combined axes.
#include <algorithm>
#include <memory>

#include "ir/constant_value.h"
#include "ir/status_macros.h"
#include "optimizer/pass_registry.h"
#include "passes/rewrite/pattern_pass.h"
#include "passes/rewrite/value_facts.h"

namespace onnx_opt::passes {
namespace {

using namespace rewrite;  // NOLINT(build/namespaces): the pattern vocabulary

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
                                                          const std::vector<int64_t>& outer,
                                                          int64_t r) {
  const int64_t mid = r + static_cast<int64_t>(inner.size());
  const int64_t final_rank = mid + static_cast<int64_t>(outer.size());
  std::optional<std::vector<int64_t>> in = Normalized(inner, mid),
                                      out = Normalized(outer, final_rank);
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
                                                        const std::vector<int64_t>& outer,
                                                        int64_t r) {
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

// Reshape(Reshape(x, s1), s2) with s2 constant, built once; x, the inner Reshape and s2 are bound
// in the match's captures.
struct ReshapeOfReshapeMatcher {
  ValueSlot x;
  NodeSlot inner;
  TensorSlot shape;
  const ValuePattern root =
      Op("Reshape", {Op("Reshape", {Capture(x)}).CaptureNode(inner), Constant(shape)});
};

// Reshape(Reshape(x, s1), s2) -> Reshape(x, s2).
RewritePattern ReshapeOfReshapePattern() {
  auto matcher = std::make_shared<const ReshapeOfReshapeMatcher>();
  return {.name = "reshape-of-reshape",
          .root_ops = {"Reshape"},
          .needs = {{{"Reshape"}, 2}},
          .min_opset = 5,  // the target shape is an input from Reshape-5
          .match_and_rewrite = [matcher](ir::Node& n, Rewriter& rw) -> absl::StatusOr<int64_t> {
            const Captures* m =
                n.num_inputs() == 2 ? rw.Match(matcher->root, n.output(0)) : nullptr;
            if (m == nullptr) return 0;
            ir::Value* x = (*m)[matcher->x];
            ir::Node* inner = (*m)[matcher->inner];
            std::optional<std::vector<int64_t>> s2 = ir::ConstantAsInts(*(*m)[matcher->shape]);
            if (!s2.has_value()) return 0;
            bool has_zero = false;
            for (int64_t d : *s2) has_zero |= (d == 0);
            if (has_zero && n.GetInt("allowzero", 0) == 0) return 0;
            rw.ReplaceInput(n, 0, x);
            RETURN_IF_ERROR(rw.EraseIfDead(*inner).status());
            return 1;
          }};
}

// The node of op `op` (Squeeze or Unsqueeze) a node reads, used once; x and the node are bound in
// the match's captures.
struct InnerOpMatcher {
  explicit InnerOpMatcher(const char* op)
      : inner_op(Op(op, {Capture(x)}).OneUse().CaptureNode(inner)) {}
  ValueSlot x;
  NodeSlot inner;
  const ValuePattern inner_op;
};

// Unsqueeze(Unsqueeze(x, a), b) and Squeeze(Squeeze(x, a), b) -> one node with the combined axes.
RewritePattern MergeSqueezesPattern() {
  auto squeeze = std::make_shared<const InnerOpMatcher>("Squeeze");
  auto unsqueeze = std::make_shared<const InnerOpMatcher>("Unsqueeze");
  return {.name = "merge-squeezes",
          .root_ops = {"Unsqueeze", "Squeeze"},
          .needs = {{{"Squeeze", "Unsqueeze"}, 2}},
          .match_and_rewrite = [squeeze, unsqueeze](ir::Node& n,
                                                    Rewriter& rw) -> absl::StatusOr<int64_t> {
            const InnerOpMatcher& matcher = n.op_type() == "Squeeze" ? *squeeze : *unsqueeze;
            const Captures* m = n.has_input(0) ? rw.Match(matcher.inner_op, n.input(0)) : nullptr;
            if (m == nullptr) return 0;
            ir::Value* x = (*m)[matcher.x];
            ir::Node* inner = (*m)[matcher.inner];
            const int64_t opset = rw.opset();
            std::optional<std::vector<int64_t>> a = AxesOf(*inner, opset);
            std::optional<std::vector<int64_t>> b = AxesOf(n, opset);
            std::optional<int64_t> rank = RankOf(x);
            if (!a || !b || a->empty() || b->empty() || !rank) return 0;
            std::optional<std::vector<int64_t>> axes = n.op_type() == "Unsqueeze"
                                                           ? CombinedUnsqueezeAxes(*a, *b, *rank)
                                                           : CombinedSqueezeAxes(*a, *b, *rank);
            if (!axes) return 0;
            if (opset >= 13) {  // axes are an input from opset 13
              rw.ReplaceInput(n, 1,
                              rw.AddInitializer(ir::Tensor::FromVector(
                                                    ir::DataType::kInt64,
                                                    {static_cast<int64_t>(axes->size())}, *axes),
                                                n.output(0)->name() + "_axes"));
            } else {
              rw.SetAttribute(n, ir::Attribute::Ints("axes", *axes));
            }
            rw.ReplaceInput(n, 0, x);
            RETURN_IF_ERROR(rw.EraseIfDead(*inner).status());
            return 1;
          }};
}

// The Unsqueeze a Squeeze reads, built once; x and the node are bound in the match's captures.
struct InnerUnsqueezeMatcher {
  ValueSlot x;
  NodeSlot inner;
  const ValuePattern unsqueeze = Op("Unsqueeze", {Capture(x)}).CaptureNode(inner);
};

// Squeeze(Unsqueeze(x, a), a) -> x.
RewritePattern SqueezeOfUnsqueezePattern() {
  auto matcher = std::make_shared<const InnerUnsqueezeMatcher>();
  return {.name = "squeeze-of-unsqueeze",
          .root_ops = {"Squeeze"},
          .needs = {{{"Squeeze"}}, {{"Unsqueeze"}}},
          .match_and_rewrite = [matcher](ir::Node& n, Rewriter& rw) -> absl::StatusOr<int64_t> {
            const Captures* m = n.has_input(0) ? rw.Match(matcher->unsqueeze, n.input(0)) : nullptr;
            if (m == nullptr) return 0;
            ir::Value* x = (*m)[matcher->x];
            ir::Node* inner = (*m)[matcher->inner];
            std::optional<std::vector<int64_t>> a = AxesOf(n, rw.opset());
            std::optional<std::vector<int64_t>> b = AxesOf(*inner, rw.opset());
            // Equal non-negative axes: negative ones mean different dims before and after.
            if (!a.has_value() || !b.has_value() || a->empty() || *a != *b) return 0;
            bool non_negative = true;
            for (int64_t v : *a) non_negative &= (v >= 0);
            if (!non_negative) return 0;
            return OneIfReplaced(rw.ReplaceWithValue(n, x));
          }};
}

class FuseConsecutiveReshapes final : public PatternPass {
 public:
  static constexpr char kName[] = "fuse-reshapes";
  FuseConsecutiveReshapes()
      : PatternPass(kName, [] {
          return std::vector<RewritePattern>{ReshapeOfReshapePattern(), MergeSqueezesPattern(),
                                             SqueezeOfUnsqueezePattern()};
        }) {}
};

}  // namespace

REGISTER_PASS(FuseConsecutiveReshapes, FuseConsecutiveReshapes::kName,
              "merge Reshape of Reshape, Unsqueeze of Unsqueeze, Squeeze of Squeeze; cancel "
              "Squeeze of Unsqueeze");

}  // namespace onnx_opt::passes
