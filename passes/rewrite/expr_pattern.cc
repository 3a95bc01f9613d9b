#include "passes/rewrite/expr_pattern.h"

#include <algorithm>
#include <utility>

#include "passes/rewrite/scalar_tolerance.h"

namespace onnx_opt::passes::rewrite {

ExprPattern::ExprPattern(const fused_expr::Expr& expr)
    : expr_(expr),
      inputs_(expr.num_inputs),
      params_(expr.num_params),
      steps_(expr.steps.size()),
      spellings_(expr.steps.size()),
      conditions_(expr.steps.size()),
      input_conditions_(expr.num_inputs) {
  for (size_t i = 0; i < expr.steps.size(); ++i) {
    for (const fused_expr::FloatAttr& a : expr.steps[i].attrs) {
      conditions_[i].push_back([a](const ir::Node& n, const MatchState&) {
        return NearScalar(n.GetFloat(a.name, static_cast<float>(a.default_value)), a.value);
      });
    }
  }
}

void ExprPattern::AddSpelling(int i, ValuePattern spelling) {
  spellings_[i].push_back(std::move(spelling));
}

void ExprPattern::AddCondition(int i, std::function<bool(const ir::Node&)> condition) {
  conditions_[i].push_back([condition = std::move(condition)](
                               const ir::Node& n, const MatchState&) { return condition(n); });
}

void ExprPattern::AddCondition(int i,
                               std::function<bool(const ir::Node&, const MatchState&)> condition) {
  conditions_[i].push_back(std::move(condition));
}

void ExprPattern::AddInputCondition(int i, std::function<bool(const ir::Value&)> condition) {
  input_conditions_[i].push_back(std::move(condition));
}

ValuePattern ExprPattern::Input(int i) {
  ValuePattern p = Capture(inputs_[i]);
  for (const auto& condition : input_conditions_[i]) p = p.Where(condition);
  return p;
}

ValuePattern ExprPattern::Operand(const fused_expr::Operand& o) {
  switch (o.kind) {
    case fused_expr::Operand::Kind::kInput:
      return Input(o.index);
    case fused_expr::Operand::Kind::kStep:
      return Step(o.index);
    case fused_expr::Operand::Kind::kConstant:
      return ConstScalar(o.value);
    case fused_expr::Operand::Kind::kParam:
      return AnyConstScalar(params_[o.index]);
  }
  return Any();
}

ValuePattern ExprPattern::AnySpelling(int i) {
  std::vector<ValuePattern> operands;
  for (const fused_expr::Operand& o : expr_.steps[i].operands) operands.push_back(Operand(o));
  ValuePattern p = Op(expr_.steps[i].op, std::move(operands));
  if (!spellings_[i].empty()) {
    std::vector<ValuePattern> all = {p};
    all.insert(all.end(), spellings_[i].begin(), spellings_[i].end());
    p = OneOf(std::move(all));
  }
  for (const auto& condition : conditions_[i]) p = p.WhereNode(condition);
  return p;
}

ValuePattern ExprPattern::Step(int i) {
  const int uses = fused_expr::UsesOf(expr_, i);
  if (uses <= 1) return AnySpelling(i).OneUse();
  // Matched where first met, then the same value wherever else it is used.
  const ValueSlot* slot = &steps_[i];
  return ValuePattern(
      [full = AnySpelling(i).Capture(*slot), slot](ir::Value* v, MatchState& state) {
        return state.captures().has(*slot) ? state.captures()[*slot] == v : full.Matches(v, state);
      });
}

ValuePattern ExprPattern::Root() {
  const ValuePattern root = AnySpelling(static_cast<int>(expr_.steps.size()) - 1);
  return ValuePattern([root, this](ir::Value* v, MatchState& state) {
    if (!root.Matches(v, state)) return false;
    // A step used several times must be used by matched nodes only, or it would stay (and so would
    // what computes it).
    for (const ValueSlot& slot : steps_) {
      const ir::Value* shared = state.captures()[slot];
      if (shared == nullptr) continue;
      for (const ir::Use& use : shared->uses()) {
        if (use.is_graph_output() || std::find(state.matched().begin(), state.matched().end(),
                                               use.node) == state.matched().end()) {
          return false;  // Matches rolls the captures back
        }
      }
    }
    return true;
  });
}

}  // namespace onnx_opt::passes::rewrite
