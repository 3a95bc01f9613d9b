// fuse-softplus: Log(Exp(x) + 1) becomes Softplus(x), which is defined as that expression.
#include "optimizer/pass_registry.h"
#include "passes/rewrite/pattern_pass.h"

namespace onnx_opt::passes {
namespace {

using namespace rewrite;  // NOLINT(build/namespaces): the pattern vocabulary

RewritePattern SoftplusPattern() {
  return {.name = "softplus",
          .root_ops = {"Log"},
          .needs = {{{"Log"}}, {{"Exp"}}},
          .match_and_rewrite = [](ir::Node& log, Rewriter& rw) -> absl::StatusOr<int64_t> {
            ir::Value* x = nullptr;
            if (!rw.Match(Op("Log", {Op("Add", {Op("Exp", {Capture(&x)}).OneUse(), ConstScalar(1.0)}).OneUse()}),
                          log.output(0))) {
              return 0;
            }
            return OneIfReplaced(rw.ReplaceWithNode(log, "Softplus", {x}));
          }};
}

class FuseSoftplus final : public PatternPass {
 public:
  static constexpr char kName[] = "fuse-softplus";
  FuseSoftplus() : PatternPass(kName, {SoftplusPattern()}) {}
};

}  // namespace

REGISTER_PASS(FuseSoftplus, FuseSoftplus::kName, "turn Log(Exp(x) + 1) into Softplus(x)");

}  // namespace onnx_opt::passes
