#include "schema/fused_expr/fused_expr.h"

#include <cmath>

#include "ir/attribute.h"
#include "ir/node.h"

namespace onnx_opt::fused_expr {

int UsesOf(const Expr& expr, int i) {
  int uses = 0;
  for (const ExprStep& step : expr.steps) {
    for (const Operand& o : step.operands) uses += o.kind == Operand::Kind::kStep && o.index == i;
  }
  return uses;
}

const Expr& Gelu() {
  static const Expr* const kExpr =
      new Expr{.op = "Gelu",
               .steps = {{"Mul", {In(0), Const(1.0 / std::sqrt(2.0), "gelu_rsqrt2")}, "_arg"},
                         {"Erf", {Step(gelu::kScaled)}, "_erf"},
                         {"Add", {Step(gelu::kErf), Const(1.0, "gelu_one")}, "_1p"},
                         {"Mul", {In(0), Const(0.5, "gelu_half")}, "_hx"},
                         {"Mul", {Step(gelu::kHalfX), Step(gelu::kOnePlusErf)}, ""}}};
  return *kExpr;
}

const Expr& Mish() {
  static const Expr* const kExpr = new Expr{.op = "Mish",
                                            .steps = {{"Softplus", {In(0)}, "_softplus"},
                                                      {"Tanh", {Step(0)}, "_tanh"},
                                                      {"Mul", {In(0), Step(1)}, ""}}};
  return *kExpr;
}

const Expr& HardSwish() {
  static const Expr* const kExpr = new Expr{
      .op = "HardSwish",
      .steps = {{"HardSigmoid", {In(0)}, "_hsig", {{"alpha", 1.0 / 6.0, 0.2}, {"beta", 0.5, 0.5}}},
                {"Mul", {In(0), Step(0)}, ""}}};
  return *kExpr;
}

const Expr& LayerNormCore() {
  using namespace layer_norm;  // NOLINT(build/namespaces): the step names
  static const Expr* const kExpr =
      new Expr{.op = "LayerNormalization",
               .steps = {{"ReduceMean", {In(0)}, "_mean"},
                         {"Sub", {In(0), Step(kMean)}, "_centered"},
                         {"Mul", {Step(kCentered), Step(kCentered)}, "_sq"},
                         {"ReduceMean", {Step(kSquare)}, "_var"},
                         {"Add", {Step(kVariance), Param(0, "ln_epsilon")}, "_vareps"},
                         {"Sqrt", {Step(kVariancePlusEps)}, "_std"},
                         {"Reciprocal", {Step(kStdDev)}, "_invstd"},
                         {"Mul", {Step(kCentered), Step(kInvStdDev)}, "_norm"}},
               .num_params = 1};
  return *kExpr;
}

const Expr& RmsNormCore() {
  using namespace rms_norm;  // NOLINT(build/namespaces): the step names
  static const Expr* const kExpr =
      new Expr{.op = "RMSNormalization",
               .steps = {{"Mul", {In(0), In(0)}, "_sq"},
                         {"ReduceMean", {Step(kSquare)}, "_meansq"},
                         {"Add", {Step(kMeanSquare), Param(0, "rms_epsilon")}, "_eps"},
                         {"Sqrt", {Step(kMeanSquarePlusEps)}, "_rms"},
                         {"Div", {In(0), Step(kRms)}, "_norm"}},
               .num_params = 1};
  return *kExpr;
}

std::vector<ir::Value*> Expand(const Expr& expr, const std::vector<ir::Value*>& inputs,
                               const std::vector<double>& params, const std::string& base,
                               const ExpandHooks& hooks) {
  std::vector<ir::Value*> values;
  for (size_t i = 0; i < expr.steps.size(); ++i) {
    const ExprStep& step = expr.steps[i];
    std::vector<ir::Value*> operands;
    for (const Operand& o : step.operands) {
      switch (o.kind) {
        case Operand::Kind::kInput:
          operands.push_back(inputs[o.index]);
          break;
        case Operand::Kind::kStep:
          operands.push_back(values[o.index]);
          break;
        case Operand::Kind::kConstant:
          operands.push_back(hooks.scalar(o.value, o.name));
          break;
        case Operand::Kind::kParam:
          operands.push_back(hooks.scalar(params[o.index], o.name));
          break;
      }
    }
    ir::Value* v = hooks.node(step, operands, base + step.suffix);
    for (const FloatAttr& a : step.attrs) {
      v->producer()->SetAttribute(ir::Attribute::Float(a.name, static_cast<float>(a.value)));
    }
    values.push_back(v);
  }
  return values;
}

}  // namespace onnx_opt::fused_expr
