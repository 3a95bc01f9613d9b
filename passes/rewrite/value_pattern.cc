#include "passes/rewrite/value_pattern.h"

#include <optional>
#include <string_view>
#include <utility>

#include "ir/constant_value.h"
#include "passes/rewrite/scalar_tolerance.h"
#include "passes/rewrite/value_facts.h"

namespace onnx_opt::passes::rewrite {
namespace {

bool IsCommutative(std::string_view op) {
  return op == "Add" || op == "Mul" || op == "Max" || op == "Min" || op == "And" || op == "Or" ||
         op == "Xor" || op == "Equal" || op == "Sum" || op == "Mean";
}

}  // namespace

bool ValuePattern::Matches(ir::Value* v, MatchState& state) const {
  const MatchState::Mark mark = state.GetMark();
  if (fn_(v, state)) return true;
  state.Rollback(mark);
  return false;
}

ValuePattern ValuePattern::OneUse() const {
  return ValuePattern([inner = *this](ir::Value* v, MatchState& state) {
    return HasSingleUse(v) && inner.Matches(v, state);
  });
}

ValuePattern ValuePattern::Capture(const ValueSlot& slot) const {
  return ValuePattern([inner = *this, slot = &slot](ir::Value* v, MatchState& state) {
    if (state.captures().has(*slot) && state.captures()[*slot] != v) return false;
    if (!inner.Matches(v, state)) return false;
    state.Bind(*slot, v);
    return true;
  });
}

ValuePattern ValuePattern::CaptureNode(const NodeSlot& slot) const {
  return ValuePattern([inner = *this, slot = &slot](ir::Value* v, MatchState& state) {
    if (!inner.Matches(v, state) || v->producer() == nullptr) return false;
    state.Bind(*slot, v->producer());
    return true;
  });
}

ValuePattern ValuePattern::Where(std::function<bool(const ir::Value&)> condition) const {
  return ValuePattern(
      [inner = *this, condition = std::move(condition)](ir::Value* v, MatchState& state) {
        return inner.Matches(v, state) && condition(*v);
      });
}

ValuePattern ValuePattern::Where(
    std::function<bool(const ir::Value&, const MatchState&)> condition) const {
  return ValuePattern(
      [inner = *this, condition = std::move(condition)](ir::Value* v, MatchState& state) {
        return inner.Matches(v, state) && condition(*v, state);
      });
}

ValuePattern ValuePattern::WhereNode(
    std::function<bool(const ir::Node&, const MatchState&)> condition) const {
  return ValuePattern([inner = *this, condition = std::move(condition)](ir::Value* v,
                                                                        MatchState& state) {
    return inner.Matches(v, state) && v->producer() != nullptr && condition(*v->producer(), state);
  });
}

ValuePattern ValuePattern::WhereNode(std::function<bool(const ir::Node&)> condition) const {
  return ValuePattern(
      [inner = *this, condition = std::move(condition)](ir::Value* v, MatchState& state) {
        return inner.Matches(v, state) && v->producer() != nullptr && condition(*v->producer());
      });
}

ValuePattern Any() {
  return ValuePattern([](ir::Value* v, MatchState&) { return v != nullptr; });
}

ValuePattern Capture(const ValueSlot& slot) { return Any().Capture(slot); }

ValuePattern ConstScalar(double wanted) {
  return ValuePattern([wanted](ir::Value* v, MatchState&) {
    std::optional<double> c = ScalarConstant(v);
    return c.has_value() && NearScalar(*c, wanted);
  });
}

ValuePattern AnyConstScalar(const ScalarSlot& value) {
  return ValuePattern([value = &value](ir::Value* v, MatchState& state) {
    std::optional<double> c = ScalarConstant(v);
    if (!c.has_value()) return false;
    state.Bind(*value, *c);
    return true;
  });
}

ValuePattern Constant(const TensorSlot& tensor) {
  return ValuePattern([tensor = &tensor](ir::Value* v, MatchState& state) {
    const ir::Tensor* t = ir::GetConstantTensor(v);
    if (t == nullptr) return false;
    state.Bind(*tensor, t);
    return true;
  });
}

ValuePattern Op(std::string op, std::vector<ValuePattern> operands) {
  return ValuePattern(
      [op = std::move(op), operands = std::move(operands)](ir::Value* v, MatchState& state) {
        ir::Node* n = ProducerOf(v, op, &state.graph());
        if (n == nullptr || n->num_inputs() < operands.size()) return false;
        auto match_operands = [&](bool swapped) {
          const MatchState::Mark mark = state.GetMark();
          state.AddMatched(n);
          for (size_t i = 0; i < operands.size(); ++i) {
            const size_t input = swapped ? 1 - i : i;
            if (!n->has_input(input) || !operands[i].Matches(n->input(input), state)) {
              state.Rollback(mark);
              return false;
            }
          }
          return true;
        };
        if (match_operands(/*swapped=*/false)) return true;
        return operands.size() == 2 && n->num_inputs() == 2 && IsCommutative(op) &&
               match_operands(/*swapped=*/true);
      });
}

ValuePattern OneOf(std::vector<ValuePattern> alternatives) {
  return ValuePattern([alternatives = std::move(alternatives)](ir::Value* v, MatchState& state) {
    for (const ValuePattern& p : alternatives) {
      if (p.Matches(v, state)) return true;
    }
    return false;
  });
}

}  // namespace onnx_opt::passes::rewrite
