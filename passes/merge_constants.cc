// merge-constants: two chained Add/Sub (or Mul/Div) nodes with constant operands become one, when
// the inner result has no other use: (x + c1) - c2 becomes x + (c1 - c2), (x - c1) - c2 becomes x -
// (c1 + c2), (x * c1) / c2 becomes x * (c1 / c2), (x / c1) / c2 becomes x / (c1 * c2), and so on.
// The new constant is computed by fold-constants. Broadcasting is associative, so shapes are
// unchanged; float results may differ in the last bit. Sub and Div need x on the left; Div only
// merges for floating-point constants (integer division does not reassociate).
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ir/constant_value.h"
#include "ir/status_macros.h"
#include "optimizer/pass_registry.h"
#include "passes/rewrite/pattern_pass.h"
#include "passes/rewrite/value_facts.h"

namespace onnx_opt::passes {
namespace {

using namespace rewrite;  // NOLINT(build/namespaces): the pattern vocabulary

bool IsAdditive(std::string_view op) { return op == "Add" || op == "Sub"; }
bool IsMultiplicative(std::string_view op) { return op == "Mul" || op == "Div"; }
// Sub and Div apply the constant inversely.
bool IsInverse(std::string_view op) { return op == "Sub" || op == "Div"; }

bool IsFloat(ir::DataType t) {
  return t == ir::DataType::kFloat || t == ir::DataType::kDouble || t == ir::DataType::kFloat16 ||
         t == ir::DataType::kBfloat16;
}

// The non-constant input of a binary node whose other input is constant, and that constant. For
// Sub and Div the constant must be the second input.
bool SplitConstant(const ir::Node& n, ir::Value** x, ir::Value** c) {
  if (n.num_inputs() != 2 || !n.has_input(0) || !n.has_input(1)) return false;
  for (size_t side : {0, 1}) {
    if (side == 1 && IsInverse(n.op_type())) break;
    if (ir::GetConstantTensor(n.input(1 - side)) != nullptr &&
        ir::GetConstantTensor(n.input(side)) == nullptr) {
      *x = n.input(side);
      *c = n.input(1 - side);
      return true;
    }
  }
  return false;
}

// Merges `outer` with the node computing its non-constant operand, when that is a binary node of
// the same kind (additive or multiplicative) with a constant operand and no other user.
absl::StatusOr<int64_t> MergeChain(ir::Node& outer, Rewriter& rw) {
  ir::Graph& g = rw.graph();
  const std::string& op = outer.op_type();
  ir::Value* y = nullptr;
  ir::Value* c2 = nullptr;
  if (!SplitConstant(outer, &y, &c2)) return 0;
  static constexpr std::string_view kAdditive[] = {"Add", "Sub"};
  static constexpr std::string_view kMultiplicative[] = {"Mul", "Div"};
  ir::Node* inner = nullptr;
  for (std::string_view candidate : IsAdditive(op) ? kAdditive : kMultiplicative) {
    if (inner == nullptr) inner = ProducerOf(y, candidate, &g);
  }
  if (inner == nullptr) return 0;
  ir::Value* x = nullptr;
  ir::Value* c1 = nullptr;
  if (!HasSingleUse(y) || !SplitConstant(*inner, &x, &c1)) return 0;
  const bool inner_inverse = IsInverse(inner->op_type());
  const bool outer_inverse = IsInverse(op);
  if (IsMultiplicative(op) && (inner_inverse || outer_inverse)) {
    const ir::Tensor* t1 = ir::GetConstantTensor(c1);
    const ir::Tensor* t2 = ir::GetConstantTensor(c2);
    if (!IsFloat(t1->data_type()) || !IsFloat(t2->data_type())) return 0;
  }
  // x (+/-) c1 (+/-) c2 = x + s1*c1 + s2*c2, and likewise for * and /:
  //   same directions: combine with the direct op, keep the direction;
  //   forward then inverse: x + (c1 - c2);  inverse then forward: x + (c2 - c1).
  const std::string direct = IsAdditive(op) ? "Add" : "Mul";
  const std::string inverse = IsAdditive(op) ? "Sub" : "Div";
  std::string combine_op = direct, result_op = direct;
  ir::Value* a = c1;
  ir::Value* b = c2;
  if (inner_inverse && outer_inverse) {
    result_op = inverse;
  } else if (!inner_inverse && outer_inverse) {
    combine_op = inverse;
  } else if (inner_inverse && !outer_inverse) {
    combine_op = inverse;
    std::swap(a, b);
  }
  ir::Node* combined =
      rw.InsertOpBefore(outer, combine_op, {a, b}, rw.names().Fresh(c1->name() + "_merged"));
  if (result_op != op) {
    ir::Node* merged =
        rw.InsertOpBefore(outer, result_op, {x, combined->output(0)}, rw.names().Fresh(op));
    merged->output(0)->set_type(outer.output(0)->type());
    if (!rw.ForwardUses(outer.output(0), merged->output(0))) {
      return absl::InternalError("merge-constants: cannot forward");
    }
    RETURN_IF_ERROR(rw.EraseNode(outer));
  } else {
    rw.ReplaceInput(outer, 0, x);
    rw.ReplaceInput(outer, 1, combined->output(0));
  }
  RETURN_IF_ERROR(rw.EraseNode(*inner));
  return 1;
}

std::vector<RewritePattern> MergeConstantPatterns() {
  return {{.name = "constant-chain",
           .root_ops = {"Add", "Sub", "Mul", "Div"},
           // Two chained nodes of these at least.
           .needs = {{{"Add", "Sub", "Mul", "Div"}, 2}},
           // Before opset 7, Add and Mul broadcast only with attributes.
           .min_opset = 7,
           .match_and_rewrite = MergeChain}};
}

class MergeConstantOperands final : public PatternPass {
 public:
  static constexpr char kName[] = "merge-constants";
  MergeConstantOperands() : PatternPass(kName, &MergeConstantPatterns) {}
};

}  // namespace

REGISTER_PASS(
    MergeConstantOperands, MergeConstantOperands::kName,
    "merge chained Add/Sub (or Mul/Div) by constants into one node with a folded constant");

}  // namespace onnx_opt::passes
