// Runs an ir::Graph: nodes in topological order, each value freed after its last use, subgraphs
// (If/Loop/Scan) with outer-scope captures, model-local functions expanded on the fly.
#ifndef ONNX_OPT_INTERPRETER_EVALUATOR_H_
#define ONNX_OPT_INTERPRETER_EVALUATOR_H_

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "interpreter/kernel.h"
#include "interpreter/value.h"
#include "ir/model.h"

namespace onnx_opt::interpreter {

struct EvaluatorOptions {
  // Nodes that compute from constants only (interpreter/constant_steps.h), in the main graph and in
  // its nodes' subgraphs (not in model-local functions), run on the first run of their graph alone
  // (a Loop body's: its first iteration); the values the rest reads are kept for later runs. For
  // callers that run a model many times (onnx-run --repeat, a Python Session). Off by default: a
  // single run then holds every such value to its end instead of freeing each after its last use,
  // which cost +60 MiB peak RSS and 40% more time on a ResNet-50 whose weights are built at run
  // time (tools/bench/constant_weights_bench: first_run against first_run_uncached).
  bool cache_constants = false;
  // Initializers mapped from a file keep their pages from run to run. Off: each one's pages are let
  // go after its last use in a run, so a model larger than memory runs with only the weights in use
  // resident (and a single run's peak RSS stays small); the next run faults them in again, which on
  // a 2.3 GB decoder cost ~9% of each run's time. For callers that run a model many times.
  bool keep_weight_pages = false;
  // Constant weights are copied once into the layout their kernels read (a MatMul's B into the
  // GEMM's strips, VectorKernels::pack_gemm_b_f32) and the copy kept for later runs, where the
  // ISA's kernels take one. Off: each product reads its weight in place, as a single run
  // (verification, folding) should, since it would pay for a copy it uses once. For callers that
  // run a model many times; costs a copy of those weights in memory.
  bool pack_weights = false;
};

class Evaluator {
 public:
  // `model` supplies opset imports and local functions; it must outlive the evaluator and not
  // change while it lives (plans and constant values are kept from run to run).
  explicit Evaluator(const ir::Model& model, EvaluatorOptions options = {});
  // A graph without a model (opset imports given explicitly, no local functions).
  Evaluator(const ir::Graph& graph, std::vector<ir::OpsetImport> opsets,
            EvaluatorOptions options = {});
  ~Evaluator();

  // Runs the main graph. `inputs` match the graph inputs by position; a graph input that has an
  // initializer keeps it when its value is empty (RuntimeValue()) or, at the end, left out. Returns
  // the graph outputs in order.
  absl::StatusOr<std::vector<RuntimeValue>> Run(std::vector<RuntimeValue> inputs);
  // Same, inputs by name (graph inputs with an initializer default to it).
  absl::StatusOr<std::vector<RuntimeValue>> RunByName(
      const absl::flat_hash_map<std::string, RuntimeValue>& inputs);

  // Evaluates one node on the given inputs (null for an omitted input), using the main graph's
  // opset imports. For constant folding.
  absl::StatusOr<std::vector<RuntimeValue>> RunNode(const ir::Node& node,
                                                    const std::vector<const RuntimeValue*>& inputs);

  // Per operator type ("Conv", "com.x::Op"): calls and wall time. Time of If/Loop/Scan includes
  // their bodies, whose nodes are also counted on their own.
  struct OpProfile {
    int64_t calls = 0;
    double seconds = 0;
  };
  // Accumulates into `sink` (null turns profiling off) on every later run.
  void EnableProfiling(std::map<std::string, OpProfile>* sink);

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace onnx_opt::interpreter

#endif  // ONNX_OPT_INTERPRETER_EVALUATOR_H_
