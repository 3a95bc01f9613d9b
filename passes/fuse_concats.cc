// fuse-concats: Concat(a, Concat(b, c), d) on the same axis becomes Concat(a, b, c, d) when the
// inner result has no other use: concatenation along one axis is associative, so the elements and
// their order are the same.
#include <algorithm>
#include <memory>

#include "ir/status_macros.h"
#include "optimizer/pass_registry.h"
#include "passes/rewrite/pattern_pass.h"
#include "passes/rewrite/value_facts.h"

namespace onnx_opt::passes {
namespace {

using namespace rewrite;  // NOLINT(build/namespaces): the pattern vocabulary

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

// An input of the outer Concat that is a Concat used once, built once; the node is bound in the
// match's captures (again for each input).
struct InnerConcatMatcher {
  NodeSlot inner;
  const ValuePattern concat = Op("Concat", {}).OneUse().CaptureNode(inner);
};

RewritePattern ConsecutiveConcatsPattern() {
  auto matcher = std::make_shared<const InnerConcatMatcher>();
  return {.name = "consecutive-concats",
          .root_ops = {"Concat"},
          .needs = {{{"Concat"}, 2}},
          .match_and_rewrite = [matcher](ir::Node& outer, Rewriter& rw) -> absl::StatusOr<int64_t> {
            const std::optional<int64_t> rank = ConcatRank(outer);
            const std::optional<int64_t> axis = AxisOf(outer, rank);
            if (!axis) return 0;
            // Inputs are rebuilt in order, splicing in each single-use inner Concat on the same
            // axis.
            std::vector<ir::Value*> inputs;
            std::vector<ir::Node*> absorbed;
            for (ir::Value* in : outer.inputs()) {
              const Captures* m = in != nullptr ? rw.Match(matcher->concat, in) : nullptr;
              ir::Node* inner = m != nullptr ? (*m)[matcher->inner] : nullptr;
              // Equal negative axes mean the same dim only for equal ranks, which Concat
              // guarantees.
              const bool spliced =
                  inner != nullptr && AxisOf(*inner, rank) == axis &&
                  std::find(absorbed.begin(), absorbed.end(), inner) == absorbed.end();
              if (!spliced) {
                inputs.push_back(in);
                continue;
              }
              for (ir::Value* v : inner->inputs()) inputs.push_back(v);
              absorbed.push_back(inner);
            }
            if (absorbed.empty()) return 0;
            rw.RemoveAllInputs(outer);
            for (ir::Value* v : inputs) rw.AddInput(outer, v);
            for (ir::Node* inner : absorbed) {
              RETURN_IF_ERROR(rw.EraseIfDead(*inner).status());
            }
            // One rewrite per Concat absorbed.
            return static_cast<int64_t>(absorbed.size());
          }};
}

class FuseConsecutiveConcats final : public PatternPass {
 public:
  static constexpr char kName[] = "fuse-concats";
  FuseConsecutiveConcats()
      : PatternPass(kName,
                    [] { return std::vector<RewritePattern>{ConsecutiveConcatsPattern()}; }) {}
};

}  // namespace

REGISTER_PASS(FuseConsecutiveConcats, FuseConsecutiveConcats::kName,
              "Concat of a Concat on the same axis becomes one Concat");

}  // namespace onnx_opt::passes
