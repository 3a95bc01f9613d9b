// fold-if: an If whose condition is a constant is replaced by the nodes of the branch it takes. The
// branch's nodes move into the enclosing graph (names are unique model-wide, so they stay valid),
// its initializers become initializers of the enclosing graph, and the If's outputs become the
// branch's.
#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "ir/constant_value.h"
#include "ir/name_generator.h"
#include "ir/status_macros.h"
#include "optimizer/pass_registry.h"
#include "passes/rewrite/pattern_pass.h"

namespace onnx_opt::passes {
namespace {

using namespace rewrite;  // NOLINT(build/namespaces): the pattern vocabulary

// Moves `branch` (which takes no inputs and returns what `if_node` does) in front of `if_node` and
// gives the If's users the branch's results.
absl::Status Inline(Rewriter& rw, ir::Node& if_node, ir::Graph& branch) {
  ir::Graph& g = rw.graph();
  ir::NameGenerator& names = rw.names();
  // Initializers of the branch become initializers of g (same names: unique model-wide).
  std::vector<ir::Value*> inits = branch.initializers();
  for (ir::Value* v : inits) {
    ir::Tensor t = *v->initializer();
    t.set_name(v->name());
    v->set_name(names.Fresh(v->name() + "_moved"));
    ir::Value* moved = g.AddInitializer(std::move(t));
    rw.ReplaceAllUsesWith(v, moved);
  }
  // Nodes move in front of the If, in order.
  std::vector<ir::Node*> nodes;
  for (ir::Node* b : branch.nodes()) nodes.push_back(b);
  for (ir::Node* b : nodes) rw.InsertNodeBefore(if_node, branch.Detach(b));
  // The If's outputs become the branch's outputs. A graph output that cannot take over the name
  // of what the branch returns (say, an outer value) gets an Identity to keep its name.
  const std::vector<ir::Value*> results = branch.outputs();
  // The branch stops returning them, so they can take over the If's output names.
  while (!branch.outputs().empty()) branch.RemoveOutput(branch.outputs().size() - 1);
  for (size_t i = 0; i < if_node.num_outputs(); ++i) {
    ir::Value* out = if_node.output(i);
    ir::Value* result = results[i];
    if (!out->has_uses()) continue;
    if (rw.ForwardUses(out, result)) continue;
    ir::Node* id =
        rw.InsertOpBefore(if_node, "Identity", {result}, names.Fresh(out->name() + "_inlined"));
    id->output(0)->set_type(out->type());
    if (!rw.ForwardUses(out, id->output(0))) {
      return absl::InternalError(absl::StrCat("cannot forward If output '", out->name(), "'"));
    }
  }
  return absl::OkStatus();
}

RewritePattern ConstantIfPattern() {
  return {
      .name = "constant-if",
      .root_ops = {"If"},
      .needs = {{{"If"}}},
      .match_and_rewrite = [](ir::Node& n, Rewriter& rw) -> absl::StatusOr<int64_t> {
        if (!n.has_input(0)) return 0;
        const ir::Tensor* cond = ir::GetConstantTensor(n.input(0));
        if (cond == nullptr) return 0;
        std::optional<std::vector<double>> v = ir::ConstantAsDoubles(*cond);
        if (!v.has_value() && cond->data_type() == ir::DataType::kBool && cond->raw_size() >= 1) {
          v = std::vector<double>{static_cast<double>(cond->raw_data()[0] != 0)};
        }
        if (!v.has_value() || v->size() != 1) return 0;
        ir::Attribute* branch_attr =
            n.FindMutableAttribute((*v)[0] != 0 ? "then_branch" : "else_branch");
        if (branch_attr == nullptr || !branch_attr->g) return 0;
        ir::Graph& branch = *branch_attr->g;
        if (branch.outputs().size() != n.num_outputs() || !branch.inputs().empty()) return 0;
        RETURN_IF_ERROR(Inline(rw, n, branch));
        RETURN_IF_ERROR(rw.EraseNode(n));
        return 1;
      }};
}

class InlineConstantIf final : public PatternPass {
 public:
  static constexpr char kName[] = "fold-if";
  InlineConstantIf()
      : PatternPass(kName, [] { return std::vector<RewritePattern>{ConstantIfPattern()}; }) {}
};

}  // namespace

REGISTER_PASS(InlineConstantIf, InlineConstantIf::kName,
              "replace an If with a constant condition by the branch it takes");

}  // namespace onnx_opt::passes
