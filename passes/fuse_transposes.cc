// fuse-transposes: Transpose(Transpose(x, p1), p2) becomes Transpose(x, p) with p[i] = p1[p2[i]];
// the identity permutation is then removed by the `nops` pass.
#include <memory>

#include "ir/status_macros.h"
#include "optimizer/pass_registry.h"
#include "passes/rewrite/pattern_pass.h"

namespace onnx_opt::passes {
namespace {

using namespace rewrite;  // NOLINT(build/namespaces): the pattern vocabulary

bool IsPermutation(const std::vector<int64_t>& p) {
  std::vector<bool> seen(p.size(), false);
  for (int64_t v : p) {
    if (v < 0 || v >= static_cast<int64_t>(p.size()) || seen[v]) return false;
    seen[v] = true;
  }
  return true;
}

// Transpose(Transpose(x)), built once; x and the inner Transpose are bound in the match's captures.
struct ConsecutiveTransposesMatcher {
  ValueSlot x;
  NodeSlot inner;
  const ValuePattern root = Op("Transpose", {Op("Transpose", {Capture(x)}).CaptureNode(inner)});
};

RewritePattern ConsecutiveTransposesPattern() {
  auto transposes = std::make_shared<const ConsecutiveTransposesMatcher>();
  return {
      .name = "consecutive-transposes",
      .root_ops = {"Transpose"},
      .needs = {{{"Transpose"}, 2}},
      .match_and_rewrite = [transposes](ir::Node& outer, Rewriter& rw) -> absl::StatusOr<int64_t> {
        const Captures* m = rw.Match(transposes->root, outer.output(0));
        if (m == nullptr) return 0;
        ir::Value* x = (*m)[transposes->x];
        ir::Node* inner = (*m)[transposes->inner];
        // Without explicit perms the default (reverse) needs the rank; skip those.
        const std::vector<int64_t> p1 = inner->GetInts("perm");
        const std::vector<int64_t> p2 = outer.GetInts("perm");
        if (p1.empty() || p1.size() != p2.size() || !IsPermutation(p1) || !IsPermutation(p2))
          return 0;
        std::vector<int64_t> p(p1.size());
        for (size_t i = 0; i < p.size(); ++i) p[i] = p1[p2[i]];
        // Rewire the outer node to read x directly; the inner one dies if nothing else uses it.
        rw.ReplaceInput(outer, 0, x);
        rw.SetAttribute(outer, ir::Attribute::Ints("perm", p));
        RETURN_IF_ERROR(rw.EraseIfDead(*inner).status());
        return 1;
      }};
}

class FuseConsecutiveTransposes final : public PatternPass {
 public:
  static constexpr char kName[] = "fuse-transposes";
  FuseConsecutiveTransposes()
      : PatternPass(kName,
                    [] { return std::vector<RewritePattern>{ConsecutiveTransposesPattern()}; }) {}
};

}  // namespace

REGISTER_PASS(FuseConsecutiveTransposes, FuseConsecutiveTransposes::kName,
              "merge a Transpose of a Transpose into one");

}  // namespace onnx_opt::passes
