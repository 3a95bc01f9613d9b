// The matcher derived from a fused operator's shared definition (schema/fused_expr/fused_expr.h):
// each step becomes Op(step.op, its operands) (commutative ops in either order), inputs are
// captures, constants ConstScalar, parameters AnyConstScalar, float attributes are checked with
// NearScalar. A step used once by the definition must be used once in the graph; a step used
// several times is matched once and must then be used by matched nodes only. A pass adds the
// spellings the converter never writes and any conditions the definition leaves open (axes, element
// types):
//
//   ExprPattern gelu(fused_expr::Gelu());
//   gelu.AddSpelling(fused_expr::gelu::kScaled, Op("Div", {gelu.Input(0),
//   ConstScalar(std::sqrt(2.0))})); const ValuePattern root = gelu.Root();
//   ...
//   const Captures* m = rw.Match(root, mul.output(0));
//   if (m == nullptr) return 0;
//   ... gelu.input(*m, 0) ...
//
// An ExprPattern is built once (per pass) and matched many times: what a match binds is in its
// Captures, never in the ExprPattern. Patterns point into the ExprPattern (its slots), which
// therefore stays where it is while they are in use.
#ifndef ONNX_OPT_PASSES_REWRITE_EXPR_PATTERN_H_
#define ONNX_OPT_PASSES_REWRITE_EXPR_PATTERN_H_

#include <functional>
#include <vector>

#include "ir/node.h"
#include "ir/value.h"
#include "passes/rewrite/captures.h"
#include "passes/rewrite/match_state.h"
#include "passes/rewrite/value_pattern.h"
#include "schema/fused_expr/fused_expr.h"

namespace onnx_opt::passes::rewrite {

class ExprPattern {
 public:
  explicit ExprPattern(const fused_expr::Expr& expr);
  ExprPattern(const ExprPattern&) = delete;
  ExprPattern& operator=(const ExprPattern&) = delete;

  // Another spelling of step `i`, tried after the definition's (and earlier spellings).
  void AddSpelling(int i, ValuePattern spelling);
  // A condition on the node computing step `i` (in any spelling).
  void AddCondition(int i, std::function<bool(const ir::Node&)> condition);
  // The same for a condition that reads the match so far (captured inputs, the opset).
  void AddCondition(int i, std::function<bool(const ir::Node&, const MatchState&)> condition);
  // A condition on input `i` of the fused op.
  void AddInputCondition(int i, std::function<bool(const ir::Value&)> condition);

  // Input `i` of the fused op, captured (see Capture).
  ValuePattern Input(int i);
  // Step `i` in any of its spellings, with the use rule above.
  ValuePattern Step(int i);
  // The last step (no use rule on itself): the whole expression.
  ValuePattern Root();

  // The slot of input `i`, for conditions reading it during a match.
  const ValueSlot& input_slot(int i) const { return inputs_[i]; }
  // After a match: the captured inputs and parameters.
  ir::Value* input(const Captures& m, int i) const { return m[inputs_[i]]; }
  double param(const Captures& m, int i) const { return m[params_[i]]; }

 private:
  ValuePattern Operand(const fused_expr::Operand& o);
  ValuePattern AnySpelling(int i);

  const fused_expr::Expr& expr_;
  std::vector<ValueSlot> inputs_;
  std::vector<ScalarSlot> params_;
  std::vector<ValueSlot> steps_;  // bound to the values of steps used more than once, once matched
  std::vector<std::vector<ValuePattern>> spellings_;
  std::vector<std::vector<std::function<bool(const ir::Node&, const MatchState&)>>> conditions_;
  std::vector<std::vector<std::function<bool(const ir::Value&)>>> input_conditions_;
};

}  // namespace onnx_opt::passes::rewrite

#endif  // ONNX_OPT_PASSES_REWRITE_EXPR_PATTERN_H_
