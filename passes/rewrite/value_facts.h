// What a pattern or a rewrite reads off values and nodes (the producer of an op, a single use, a
// scalar constant, axes, rank, Clip's bounds): part of the rewrite vocabulary, beside the matcher
// combinators (value_pattern.h) that are built on them.
#ifndef ONNX_OPT_PASSES_REWRITE_VALUE_FACTS_H_
#define ONNX_OPT_PASSES_REWRITE_VALUE_FACTS_H_

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ir/graph.h"
#include "ir/node.h"

namespace onnx_opt::passes::rewrite {

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

// The rank of a tensor value, when its type says.
std::optional<int64_t> RankOf(const ir::Value* v);

// The shape of a tensor value, when its type has one; else null.
const ir::Shape* ShapeOf(const ir::Value* v);

// Two dims that are surely equal: the same known size or the same symbol (two unknown dims are not;
// unlike Dim::operator==, the denotation does not count).
bool SameDim(const ir::Dim& a, const ir::Dim& b);

// The known element type of a tensor value, if it is a floating-point one.
std::optional<ir::DataType> FloatElemType(const ir::Value* v);

// Clip's bounds (attributes before opset 11, constant inputs from 11), with +-infinity for absent
// ones; nullopt when a bound is not a constant.
std::optional<std::pair<double, double>> ClipBounds(const ir::Node& clip, int64_t opset);

}  // namespace onnx_opt::passes::rewrite

#endif  // ONNX_OPT_PASSES_REWRITE_VALUE_FACTS_H_
