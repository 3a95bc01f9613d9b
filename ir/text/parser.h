// Parser for the ONNX text syntax (onnx/onnx docs/Syntax.md):
//
//   <ir_version: 10, opset_import: ["" : 21]>
//   agraph (float[N] X, float[2] W = {1.0, 2.0}) => (float[N] Y)
//   <float[N] T>                                   # value_info and initializers
//   {
//     T = Relu(X)
//     Y = Add<axis = 0>(T, W)                     # or domain.Op:overload <attrs> (inputs)
//   }
//   <domain: "local", opset_import: ["" : 21]>     # model-local functions follow the graph
//   square <alpha: float = 1.0> (x) => (y) { y = Mul(x, x) }
//
// Names are resolved after the whole text is read, so nodes may use values defined further down
// (a graph need not be in topological order) and subgraphs may use any value of an enclosing graph.
// Every error names the line and column: "3:14: expected ')' but found 'Y'".
//
// Where this syntax goes beyond ONNX's own parser (all of it is also what PrintModel writes):
//   - string escapes \n \t \r \0 \xHH (ONNX knows only \" and \\; any other \c stands for c);
//   - float16, bfloat16, float8*, float4e2m1 tensor data are written as decimal values (1.5, -inf),
//     not as integer bit patterns; int4/uint4/int2/uint2 data is one number per element;
//   - lists of tensors, graphs and type protos as attribute values;
//   - sparse tensors: `sparse_tensor(float[3,4]) {float[2] {1.0, 2.0}, int64[2] {1, 7}}` as an
//     attribute value, and `sparse_tensor(float[3,4]) S = {...}` in a graph's <...> block;
//   - quoted attribute names (`"odd name" = 1`), and a graph value in an attribute may have a
//   quoted
//     name: `body = "my body" (...) => (...) {...}`;
//   - `undefined` as an element type, `seq()` for a sequence of unknown element type, function
//     header keys `overload` and `metadata_props`.
#ifndef ONNX_OPT_IR_TEXT_PARSER_H_
#define ONNX_OPT_IR_TEXT_PARSER_H_

#include <memory>
#include <string_view>

#include "absl/status/statusor.h"
#include "ir/graph.h"
#include "ir/model.h"
#include "ir/type.h"

namespace onnx_opt::ir::text {

// A whole model: an optional <key: value, ...> header, the main graph, then functions.
absl::StatusOr<std::unique_ptr<Model>> ParseModel(std::string_view text);

// A single graph (no model header, no functions). Every name it uses must be defined in it.
absl::StatusOr<std::unique_ptr<Graph>> ParseGraph(std::string_view text);

// A type: float[N,3], float (a scalar), float[] (unknown rank), seq(int64[?]), map(string, float),
// optional(...), sparse_tensor(float[10]), opaque(domain, name).
absl::StatusOr<Type> ParseType(std::string_view text);

}  // namespace onnx_opt::ir::text

#endif  // ONNX_OPT_IR_TEXT_PARSER_H_
