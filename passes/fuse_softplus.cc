// fuse-softplus: Log(Exp(x) + 1) becomes Softplus(x), which is defined as that expression.
#include <memory>

#include "optimizer/pass_registry.h"
#include "passes/rewrite/pattern_pass.h"

namespace onnx_opt::passes {
namespace {

using namespace rewrite;  // NOLINT(build/namespaces): the pattern vocabulary

// Log(Exp(x) + 1), built once; x is bound in the match's captures.
struct SoftplusMatcher {
  ValueSlot x;
  const ValuePattern root =
      Op("Log", {Op("Add", {Op("Exp", {Capture(x)}).OneUse(), ConstScalar(1.0)}).OneUse()});
};

RewritePattern SoftplusPattern() {
  auto softplus = std::make_shared<const SoftplusMatcher>();
  return {.name = "softplus",
          .root_ops = {"Log"},
          .needs = {{{"Log"}}, {{"Exp"}}},
          .match_and_rewrite = [softplus](ir::Node& log, Rewriter& rw) -> absl::StatusOr<int64_t> {
            const Captures* m = rw.Match(softplus->root, log.output(0));
            if (m == nullptr) return 0;
            return OneIfReplaced(rw.ReplaceWithNode(log, "Softplus", {(*m)[softplus->x]}));
          }};
}

class FuseSoftplus final : public PatternPass {
 public:
  static constexpr char kName[] = "fuse-softplus";
  FuseSoftplus()
      : PatternPass(kName, [] { return std::vector<RewritePattern>{SoftplusPattern()}; }) {}
};

}  // namespace

REGISTER_PASS(FuseSoftplus, FuseSoftplus::kName, "turn Log(Exp(x) + 1) into Softplus(x)");

}  // namespace onnx_opt::passes
