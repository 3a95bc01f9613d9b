// Matcher combinators: a ValuePattern describes a value by how it is computed, and matching binds
// what the pattern captures into the match's Captures (captures.h). For example x *
// Tanh(Softplus(x)) is, with a ValueSlot x that lives as long as the pattern,
//   Op("Mul", {Capture(x), Op("Tanh", {Op("Softplus", {Capture(x)}).OneUse()}).OneUse()})
// where the second Capture(x) must meet the value the first bound, and Mul's operands match in
// either order because Mul is commutative. A pattern is built once and matched many times.
#ifndef ONNX_OPT_PASSES_REWRITE_VALUE_PATTERN_H_
#define ONNX_OPT_PASSES_REWRITE_VALUE_PATTERN_H_

#include <functional>
#include <string>
#include <vector>

#include "ir/node.h"
#include "ir/tensor.h"
#include "ir/value.h"
#include "passes/rewrite/captures.h"
#include "passes/rewrite/match_state.h"

namespace onnx_opt::passes::rewrite {

class ValuePattern {
 public:
  using MatchFn = std::function<bool(ir::Value* v, MatchState& state)>;
  explicit ValuePattern(MatchFn fn) : fn_(std::move(fn)) {}

  // Whether `v` matches. A failed match leaves `state` (captures, matched nodes) as it found it.
  bool Matches(ir::Value* v, MatchState& state) const;

  // The same pattern, and the value is used exactly once (not a graph output): the nodes computing
  // it can go when its one user does.
  ValuePattern OneUse() const;
  // The same pattern, and binds the value to `slot`; when `slot` is already bound (by an earlier
  // Capture of the same slot), the value must be that one.
  ValuePattern Capture(const ValueSlot& slot) const;
  // The same pattern, and binds the value's producer to `slot`.
  ValuePattern CaptureNode(const NodeSlot& slot) const;
  // The same pattern, and `condition` holds for the value (checked after the pattern matched, so it
  // may read captures).
  ValuePattern Where(std::function<bool(const ir::Value&)> condition) const;
  // The same for a condition that reads the match so far (captures, opset).
  ValuePattern Where(std::function<bool(const ir::Value&, const MatchState&)> condition) const;
  // The same pattern, and `condition` holds for the value's producer (for Op() patterns).
  ValuePattern WhereNode(std::function<bool(const ir::Node&)> condition) const;
  ValuePattern WhereNode(std::function<bool(const ir::Node&, const MatchState&)> condition) const;

 private:
  MatchFn fn_;
};

// Any value that is present (not an omitted optional input).
ValuePattern Any();
// Any present value, bound to `slot` (or required equal to it once bound; see
// ValuePattern::Capture).
ValuePattern Capture(const ValueSlot& slot);
// A constant with one element (any shape) equal to `wanted` by NearScalar's rule.
ValuePattern ConstScalar(double wanted);
// A constant with one element, whose value is bound to `value`.
ValuePattern AnyConstScalar(const ScalarSlot& value);
// A constant tensor (see GetConstantTensor), bound to `tensor`.
ValuePattern Constant(const TensorSlot& tensor);
// Output 0 of an ai.onnx `op` node in the matched graph whose other outputs are unused, with its
// first inputs matching `operands` (later inputs are not looked at). A binary commutative op
// (Add, Mul, Max, Min, And, Or, Xor, Equal, Sum, Mean) also matches with its operands swapped.
ValuePattern Op(std::string op, std::vector<ValuePattern> operands);
// The first of `alternatives` that matches.
ValuePattern OneOf(std::vector<ValuePattern> alternatives);

}  // namespace onnx_opt::passes::rewrite

#endif  // ONNX_OPT_PASSES_REWRITE_VALUE_PATTERN_H_
