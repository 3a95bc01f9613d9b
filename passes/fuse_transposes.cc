// fuse-transposes: Transpose(Transpose(x, p1), p2) becomes Transpose(x, p) with p[i] = p1[p2[i]];
// the identity permutation is then removed by the `nops` pass.
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

RewritePattern ConsecutiveTransposesPattern() {
  return {.name = "consecutive-transposes",
          .root_ops = {"Transpose"},
          .needs = {{{"Transpose"}, 2}},
          .match_and_rewrite = [](ir::Node& outer, Rewriter& rw) -> absl::StatusOr<int64_t> {
            ir::Value* x = nullptr;
            ir::Node* inner = nullptr;
            if (!rw.Match(Op("Transpose", {Op("Transpose", {Capture(&x)}).CaptureNode(&inner)}), outer.output(0))) {
              return 0;
            }
            // Without explicit perms the default (reverse) needs the rank; skip those.
            const std::vector<int64_t> p1 = inner->GetInts("perm");
            const std::vector<int64_t> p2 = outer.GetInts("perm");
            if (p1.empty() || p1.size() != p2.size() || !IsPermutation(p1) || !IsPermutation(p2)) return 0;
            std::vector<int64_t> p(p1.size());
            for (size_t i = 0; i < p.size(); ++i) p[i] = p1[p2[i]];
            // Rewire the outer node to read x directly; the inner one dies if nothing else uses it.
            rw.ReplaceInput(outer, 0, x);
            outer.SetAttribute(ir::Attribute::Ints("perm", p));
            RETURN_IF_ERROR(rw.EraseIfDead(*inner).status());
            return 1;
          }};
}

class FuseConsecutiveTransposes final : public PatternPass {
 public:
  static constexpr char kName[] = "fuse-transposes";
  FuseConsecutiveTransposes() : PatternPass(kName, {ConsecutiveTransposesPattern()}) {}
};

}  // namespace

REGISTER_PASS(FuseConsecutiveTransposes, FuseConsecutiveTransposes::kName, "merge a Transpose of a Transpose into one");

}  // namespace onnx_opt::passes
