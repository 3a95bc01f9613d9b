// fuse-slices: Slice(Slice(x, s1, e1, a1, p1), s2, e2, a2, p2) becomes one Slice over the axes of
// both when they slice different axes with constant starts, ends, axes and steps: slices of
// different axes are independent, so applying them together is exact. Overlapping axes would need
// the clamped extent of the first slice, which depends on the shape; they are left alone.
// Opset 10 and later (starts and ends are inputs).
#include <memory>
#include <set>

#include "ir/constant_value.h"
#include "ir/status_macros.h"
#include "optimizer/pass_registry.h"
#include "passes/rewrite/pattern_pass.h"
#include "passes/rewrite/value_facts.h"

namespace onnx_opt::passes {
namespace {

using namespace rewrite;  // NOLINT(build/namespaces): the pattern vocabulary

struct SliceParams {
  std::vector<int64_t> starts, ends, axes, steps;
};

// Constant parameters of a Slice-10+ node with axes made non-negative (`rank` needed for negative
// ones); nullopt when something is not constant or not known.
std::optional<SliceParams> ParamsOf(const ir::Node& n, std::optional<int64_t> rank) {
  auto ints = [&](size_t i) -> std::optional<std::vector<int64_t>> {
    if (!n.has_input(i)) return std::nullopt;
    const ir::Tensor* t = ir::GetConstantTensor(n.input(i));
    return t == nullptr ? std::nullopt : ir::ConstantAsInts(*t);
  };
  if (n.num_inputs() < 3) return std::nullopt;
  SliceParams p;
  std::optional<std::vector<int64_t>> starts = ints(1), ends = ints(2);
  if (!starts || !ends || starts->size() != ends->size()) return std::nullopt;
  p.starts = *starts;
  p.ends = *ends;
  if (n.num_inputs() > 3 && n.has_input(3)) {
    std::optional<std::vector<int64_t>> axes = ints(3);
    if (!axes || axes->size() != p.starts.size()) return std::nullopt;
    p.axes = *axes;
  } else {
    for (size_t i = 0; i < p.starts.size(); ++i) p.axes.push_back(static_cast<int64_t>(i));
  }
  if (n.num_inputs() > 4 && n.has_input(4)) {
    std::optional<std::vector<int64_t>> steps = ints(4);
    if (!steps || steps->size() != p.starts.size()) return std::nullopt;
    p.steps = *steps;
  } else {
    p.steps.assign(p.starts.size(), 1);
  }
  for (int64_t& a : p.axes) {
    if (a < 0) {
      if (!rank) return std::nullopt;
      a += *rank;
    }
    if (a < 0 || (rank && a >= *rank)) return std::nullopt;
  }
  return p;
}

// The Slice an outer Slice reads, used once, built once; its data input x and the node are bound in
// the match's captures.
struct InnerSliceMatcher {
  ValueSlot x;
  NodeSlot inner;
  const ValuePattern slice = Op("Slice", {Capture(x)}).OneUse().CaptureNode(inner);
};

RewritePattern ConsecutiveSlicesPattern() {
  auto inner_slice = std::make_shared<const InnerSliceMatcher>();
  return {
      .name = "consecutive-slices",
      .root_ops = {"Slice"},
      .needs = {{{"Slice"}, 2}},
      .min_opset = 10,
      .match_and_rewrite = [inner_slice](ir::Node& outer, Rewriter& rw) -> absl::StatusOr<int64_t> {
        const Captures* m =
            outer.has_input(0) ? rw.Match(inner_slice->slice, outer.input(0)) : nullptr;
        if (m == nullptr) return 0;
        ir::Value* x = (*m)[inner_slice->x];
        ir::Node* inner = (*m)[inner_slice->inner];
        const std::optional<int64_t> rank = RankOf(x);
        std::optional<SliceParams> first = ParamsOf(*inner, rank);
        std::optional<SliceParams> second = ParamsOf(outer, rank);
        if (!first || !second) return 0;
        std::set<int64_t> axes(first->axes.begin(), first->axes.end());
        bool disjoint = axes.size() == first->axes.size();
        for (int64_t a : second->axes) disjoint &= axes.insert(a).second;
        if (!disjoint) return 0;

        auto joined = [&](const std::vector<int64_t>& a, const std::vector<int64_t>& b,
                          const std::string& what) {
          std::vector<int64_t> all = a;
          all.insert(all.end(), b.begin(), b.end());
          return rw.AddInitializer(
              ir::Tensor::FromVector(ir::DataType::kInt64, {static_cast<int64_t>(all.size())}, all),
              outer.output(0)->name() + "_" + what);
        };
        ir::Value* starts = joined(first->starts, second->starts, "starts");
        ir::Value* ends = joined(first->ends, second->ends, "ends");
        ir::Value* axes_value = joined(first->axes, second->axes, "axes");
        ir::Value* steps = joined(first->steps, second->steps, "steps");
        rw.ReplaceInput(outer, 0, x);
        rw.ReplaceInput(outer, 1, starts);
        rw.ReplaceInput(outer, 2, ends);
        while (outer.num_inputs() < 5) rw.AddInput(outer, nullptr);
        rw.ReplaceInput(outer, 3, axes_value);
        rw.ReplaceInput(outer, 4, steps);
        RETURN_IF_ERROR(rw.EraseIfDead(*inner).status());
        return 1;
      }};
}

class FuseConsecutiveSlices final : public PatternPass {
 public:
  static constexpr char kName[] = "fuse-slices";
  FuseConsecutiveSlices()
      : PatternPass(kName, [] { return std::vector<RewritePattern>{ConsecutiveSlicesPattern()}; }) {
  }
};

}  // namespace

REGISTER_PASS(FuseConsecutiveSlices, FuseConsecutiveSlices::kName,
              "Slice of a Slice on other axes becomes one Slice");

}  // namespace onnx_opt::passes
