// How the evaluator runs one graph, worked out once per graph: node order, a dense slot for every
// value the graph defines (its inputs and named node outputs), where each node input comes from,
// and which slots die after each node. Runs then index vectors instead of hashing value pointers,
// which is most of the cost of a node on tiny tensors.
#ifndef ONNX_OPT_INTERPRETER_EXECUTION_PLAN_H_
#define ONNX_OPT_INTERPRETER_EXECUTION_PLAN_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "interpreter/kernel.h"
#include "interpreter/kernel_cache.h"
#include "interpreter/value.h"
#include "ir/graph.h"
#include "ir/node.h"
#include "ir/value.h"

namespace onnx_opt::interpreter {

// Where a node input (or graph output) is found at run time.
struct ValueRef {
  enum class Kind : uint8_t {
    kOmitted,   // no value: an omitted optional input
    kSlot,      // a value this graph defines (slot), or, when unset, its initializer (constant)
    kConstant,  // an initializer of this graph that is not an input (constant)
    kOuter,     // defined by an enclosing graph: looked up through the scope chain
  };
  Kind kind = Kind::kOmitted;
  uint32_t slot = 0;
  const ir::Value* value = nullptr;
  const RuntimeValue* constant = nullptr;  // the loaded initializer, when it has one
};

struct ExecutionPlan {
  std::vector<const ir::Node*> order;
  absl::flat_hash_map<const ir::Value*, uint32_t> slot_of;  // for lookups from subgraphs
  size_t num_slots = 0;
  std::vector<uint32_t> input_slots;  // per graph input
  std::vector<ValueRef> outputs;      // per graph output

  // Per node in order.
  struct Step {
    std::vector<ValueRef> inputs;
    std::vector<int64_t> output_slots;  // -1 for an unnamed (unwanted) output
    std::vector<uint32_t> free_after;   // slots whose value is not used after this node
    // Initializers last used here: if mapped from a file, their pages are let go, so running a
    // model larger than memory keeps only the weights in use resident.
    std::vector<const ir::Value*> release_pages_after;
    uint64_t dying_inputs = 0;  // input slots whose value dies here (may be overwritten in place)
    // The node's kernel and opset version, found on the first run (a graph always runs under the
    // same opset imports) so later runs skip the registry and function lookups.
    const KernelFn* kernel = nullptr;
    int64_t version = 0;
    // For a Conv: the positions of the BatchNormalization and/or activation after it that it may
    // apply as an epilogue (each link's value has no other use), in chain order.
    std::vector<size_t> folded;
    // The epilogue of `folded` as a run built it, kept when all it read were constants of this
    // graph (BatchNormalization's statistics, Clip's bounds) and no function attributes: later runs
    // take it instead of working it out again (MobileNetV2's 52 BatchNormalizations, their square
    // roots in double, took 0.1 ms of every run). Null until then.
    struct FoldedEpilogue {
      ChannelEpilogue epilogue;
      size_t covered = 0;    // how many of `folded` it covers
      int64_t channels = 0;  // the Conv's output channels it was built for
    };
    std::shared_ptr<const FoldedEpilogue> folded_epilogue;
    // For a 1x1 Conv whose output (after its folded chain) only a depthwise Conv reads, as its
    // input 0, with that Conv's other inputs and folded chain ready here (weights initializers):
    // that Conv's position. Both may run here as one (kernel.h: ComputePointwiseDepthwise); when
    // the kernel declines, each runs in its turn. -1: none.
    int64_t fused_depthwise = -1;
    // For a MatMul whose B, or a Gather whose data, is the only use of a DequantizeLinear of this
    // graph's initializers: that node's position. The MatMul may compute from the quantized weight
    // directly, the Gather dequantize only the rows it takes (never holding the weight in float,
    // kernels/quantized_matmul.cc, quantized_gather.cc); when one declines, the DequantizeLinear
    // runs first. -1: none.
    int64_t dequantized_weight = -1;
    // For such a DequantizeLinear: its step runs nothing (the node whose `dequantized_weight` it is
    // does).
    bool deferred = false;
    // What the node's kernel keeps from run to run (kernel_cache.h).
    std::shared_ptr<KernelCache> kernel_cache = std::make_shared<KernelCache>();
  };
  std::vector<Step> steps;
  bool constants_loaded = false;  // the graph's initializers are loaded and `constant` refs filled
};

// Orders g's nodes (ties by position, so runs are reproducible) and works out slots and liveness;
// an error when the graph has a cycle.
absl::StatusOr<std::unique_ptr<ExecutionPlan>> MakeExecutionPlan(const ir::Graph& g);

}  // namespace onnx_opt::interpreter

#endif  // ONNX_OPT_INTERPRETER_EXECUTION_PLAN_H_
