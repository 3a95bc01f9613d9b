// Which steps of a graph's plan compute the same values on every run, so that an evaluator
// kept across runs (onnx-run --repeat, a Python Session) computes them on its first run only: a
// model whose weights are built at run time (ConstantOfShape, Constant and arithmetic on them)
// would otherwise rebuild them on every run.
#ifndef ONNX_OPT_INTERPRETER_CONSTANT_STEPS_H_
#define ONNX_OPT_INTERPRETER_CONSTANT_STEPS_H_

#include <cstdint>
#include <vector>

#include "interpreter/execution_plan.h"
#include "ir/graph.h"
#include "ir/model.h"

namespace onnx_opt::interpreter {

struct ConstantSteps {
  std::vector<uint8_t> constant;  // per step of the plan: computed from constants only
  // Per slot: a constant value that a non-constant step (or a subgraph of one) reads, or a graph
  // output. Only these are kept between runs; the other constant values die as usual.
  std::vector<uint8_t> kept;
  size_t num_constant = 0;  // steps
};

// Marks the steps of `plan` (made for `g`, the main graph of `model` or a subgraph in it; `model`
// may be null) that read only constants: initializers of `g` that are not graph inputs (an input
// with an initializer may be given by the caller; a value of an enclosing graph is never constant
// here), outputs of constant steps, and values captured by their subgraphs likewise. Never
// constant: the operators of schema/nondeterministic.h (the random generators, Dropout), nodes
// whose subgraphs or model-local functions hold one, and a DequantizeLinear the plan defers to its
// MatMul (whose float weight is never held). A constant Conv's folded chain is cut to its constant
// prefix, so that every kept value is computed as itself.
ConstantSteps PlanConstantSteps(const ir::Graph& g, const ir::Model* model, ExecutionPlan& plan);

}  // namespace onnx_opt::interpreter

#endif  // ONNX_OPT_INTERPRETER_CONSTANT_STEPS_H_
