// The expressions of fused operators that the version converter expands (below the opset that
// introduced them) and a fusion pass puts back: one declarative definition of each, from which the
// converter's adapter builds the nodes (Expand, below) and the pass derives its matcher
// (passes/rewrite/expr_pattern.h). It depends on ir/ only, so both converter/ and passes/ may use
// it.
//
// A definition is a list of steps, each one ai.onnx node with one output: its op, its operands
// (inputs of the fused op, earlier steps, scalar constants, scalar parameters such as epsilon) and
// its float attributes. The last step is the result. Spellings a pass must also recognise but the
// converter never writes (x / sqrt(2) for x * (1 / sqrt(2)), other multiplication orders) are added
// on the matcher side.
#ifndef ONNX_OPT_SCHEMA_FUSED_EXPR_FUSED_EXPR_H_
#define ONNX_OPT_SCHEMA_FUSED_EXPR_FUSED_EXPR_H_

#include <functional>
#include <string>
#include <vector>

#include "ir/value.h"

namespace onnx_opt::fused_expr {

struct Operand {
  enum class Kind { kInput, kStep, kConstant, kParam };
  Kind kind;
  int index = 0;          // kInput, kStep, kParam: which one
  double value = 0;       // kConstant: the scalar
  const char* name = "";  // kConstant, kParam: the base name of the scalar the expansion adds
};
inline Operand In(int i) { return {Operand::Kind::kInput, i}; }
inline Operand Step(int i) { return {Operand::Kind::kStep, i}; }
inline Operand Const(double value, const char* name) {
  return {Operand::Kind::kConstant, 0, value, name};
}
inline Operand Param(int i, const char* name) { return {Operand::Kind::kParam, i, 0, name}; }

// A float attribute the step's node has; `default_value` is its schema default (what an absent
// attribute means).
struct FloatAttr {
  const char* name;
  double value;
  double default_value;
};

struct ExprStep {
  const char* op;
  std::vector<Operand> operands;
  const char* suffix;  // the expansion names the step's output <fused node's output name><suffix>
                       // (the result of a whole fused op: "", the fused node's output name)
  std::vector<FloatAttr> attrs = {};
};

struct Expr {
  const char* op;  // the fused operator
  std::vector<ExprStep> steps;
  int num_inputs = 1;
  int num_params = 0;
};

// How many times the later steps use step `i`'s value (an operand twice in one step counts twice).
int UsesOf(const Expr& expr, int i);

// Gelu(x) (approximate = "none") = (x * 0.5) * (Erf(x * (1 / sqrt(2))) + 1).
namespace gelu {
enum : int { kScaled, kErf, kOnePlusErf, kHalfX, kProduct };
}
const Expr& Gelu();

// Mish(x) = x * Tanh(Softplus(x)).
const Expr& Mish();

// HardSwish(x) = x * HardSigmoid(x, alpha = 1/6, beta = 0.5).
const Expr& HardSwish();

// The normalization at the core of LayerNormalization (as its function body computes it), over the
// normalized axes: x - mean(x), divided by the standard deviation (multiplied by its reciprocal).
// The affine part (* scale + bias) and the stash-type casts differ between the two sides (the
// converter casts between them; the pass needs constant scale and bias), so each adds them itself.
// ReduceMean steps reduce over the normalized axes keeping dims; the axes are not part of the
// definition (their spelling depends on the opset): the expansion supplies them, the matcher checks
// them. Parameter 0 is epsilon.
namespace layer_norm {
enum : int {
  kMean,
  kCentered,
  kSquare,
  kVariance,
  kVariancePlusEps,
  kStdDev,
  kInvStdDev,
  kNormalized
};
}
const Expr& LayerNormCore();

// The core of RMSNormalization, x / Sqrt(ReduceMean(x * x) + epsilon), without the scale (as for
// LayerNormCore). Parameter 0 is epsilon.
namespace rms_norm {
enum : int { kSquare, kMeanSquare, kMeanSquarePlusEps, kRms, kNormalized };
}
const Expr& RmsNormCore();

// Builds the nodes of `expr`'s steps in order and returns their values. `scalar` adds a constant or
// parameter (value, base name); `node` adds the step's node over the given inputs with its output
// named `name`, `base` + the step's suffix (the float attributes are set here on the producer of
// the returned value).
struct ExpandHooks {
  std::function<ir::Value*(double value, const char* name)> scalar;
  std::function<ir::Value*(const ExprStep& step, const std::vector<ir::Value*>& inputs,
                           const std::string& name)>
      node;
};
std::vector<ir::Value*> Expand(const Expr& expr, const std::vector<ir::Value*>& inputs,
                               const std::vector<double>& params, const std::string& base,
                               const ExpandHooks& hooks);

}  // namespace onnx_opt::fused_expr

#endif  // ONNX_OPT_SCHEMA_FUSED_EXPR_FUSED_EXPR_H_
