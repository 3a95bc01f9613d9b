// identity: removes Identity nodes by forwarding their input to their users. An Identity that
// produces a graph output stays unless its input can take over the output's name.
#include "optimizer/pass_registry.h"
#include "passes/rewrite/pattern_pass.h"

namespace onnx_opt::passes {
namespace {

using namespace rewrite;  // NOLINT(build/namespaces): the pattern vocabulary

RewritePattern IdentityPattern() {
  return {.name = "identity",
          .root_ops = {"Identity"},
          .needs = {{{"Identity"}}},
          .match_and_rewrite = [](ir::Node& n, Rewriter& rw) -> absl::StatusOr<int64_t> {
            if (!n.has_input(0) || n.num_outputs() != 1) return 0;
            // Identity on sequences and optionals is fine too: it is the same value either way.
            return OneIfReplaced(rw.ReplaceWithValue(n, n.input(0)));
          }};
}

class EliminateIdentity final : public PatternPass {
 public:
  static constexpr char kName[] = "identity";
  EliminateIdentity()
      : PatternPass(kName, [] { return std::vector<RewritePattern>{IdentityPattern()}; }) {}
};

}  // namespace

REGISTER_PASS(EliminateIdentity, EliminateIdentity::kName, "remove Identity nodes");

}  // namespace onnx_opt::passes
