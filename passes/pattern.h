// Small helpers for matching operator patterns in passes.
#ifndef ONNX_OPT_PASSES_PATTERN_H_
#define ONNX_OPT_PASSES_PATTERN_H_

#include <optional>
#include <string>
#include <utility>
#include <string_view>
#include <vector>

#include "ir/graph.h"
#include "ir/name_generator.h"
#include "ir/node.h"

namespace onnx_opt::passes {

// The node producing `v` if it is an ai.onnx `op` in the same graph as `user_graph` whose outputs
// other than the first are unused; else null.
ir::Node* ProducerOf(const ir::Value* v, std::string_view op, const ir::Graph* user_graph);

// True when `v` is used exactly once (and is not a graph output).
bool HasSingleUse(const ir::Value* v);

// The scalar value of a constant (any shape with one element), as double.
std::optional<double> ScalarConstant(const ir::Value* v);

// For a binary node, the input that is not `known`, or null.
ir::Value* OtherInput(const ir::Node& n, const ir::Value* known);

// The `axes` of a Squeeze, Unsqueeze or Reduce* node: an attribute until the opset where the op
// took them as a constant input instead (13 for Squeeze, Unsqueeze and ReduceSum, 18 for the other
// Reduce ops); nullopt when they are not known.
std::optional<std::vector<int64_t>> AxesOf(const ir::Node& n, int64_t opset);

// For a binary node with a scalar constant input equal to `value` (within a relative 1e-6), the
// other input; else null. Either side when `commutative`, else only the second.
ir::Value* InputBesideScalar(const ir::Node& n, double value, bool commutative = true);

// The rank of a tensor value, when its type says.
std::optional<int64_t> RankOf(const ir::Value* v);

// The known element type of a tensor value, if it is a floating-point one.
std::optional<ir::DataType> FloatElemType(const ir::Value* v);

// Clip's bounds (attributes before opset 11, constant inputs from 11), with +-infinity for absent
// ones; nullopt when a bound is not a constant.
std::optional<std::pair<double, double>> ClipBounds(const ir::Node& clip, int64_t opset);

// The single-use input chain `Clip(Add(x, 3), 0, 6)` (relu6(x + 3), the core of hard sigmoid and
// hard swish as exporters write them) ending at `v`: x, and the Clip and Add nodes; nullopt else.
struct Relu6OfXPlus3 {
  ir::Value* x;
  ir::Node* clip;
  ir::Node* add;
};
std::optional<Relu6OfXPlus3> MatchRelu6OfXPlus3(ir::Value* v, const ir::Graph& g, int64_t opset);

// Replaces single-output `last` by a new ai.onnx node `op` over `inputs` that takes over its output
// (name and type), then erases `last` and the nodes of `chain` nothing uses any more. Returns the
// new node, or null (changing nothing) when the output cannot be taken over.
ir::Node* ReplaceChain(ir::Graph& g, ir::Node* last, const std::string& op, const std::vector<ir::Value*>& inputs,
                       const std::vector<ir::Node*>& chain, ir::NameGenerator& names);

}  // namespace onnx_opt::passes

#endif  // ONNX_OPT_PASSES_PATTERN_H_
