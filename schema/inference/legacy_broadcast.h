// Broadcasting before opset 7. Binary operators (Add, Sub, Mul, Div, Pow, And, Or, Xor, Equal,
// Greater, Less) broadcast only B to A, only when their `broadcast` attribute asks, and align B at
// `axis`; PRelu's slope is shared or per channel. Each rule is given as the shape B takes so that
// numpy broadcasting (opset 7 on) computes the same result: the interpreter runs its numpy kernels
// on B viewed with that shape, shape inference checks the inputs with it, and the version converter
// reshapes B to it on the way to opset 7. A small library of its own (ir only), so that the
// interpreter can use it.
#ifndef ONNX_OPT_SCHEMA_INFERENCE_LEGACY_BROADCAST_H_
#define ONNX_OPT_SCHEMA_INFERENCE_LEGACY_BROADCAST_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "ir/type.h"

namespace onnx_opt::schema::inference {

// B's shape, with 1s around it to A's rank, under the rule of Add-1..6 and the others before
// opset 7: "the second tensor can either be of element size 1 (including a scalar tensor and any
// tensor with rank equal to or smaller than the first tensor), or having its shape as a contiguous
// subset of the first tensor's shape. The starting of the mutually equal shape is specified by the
// argument 'axis', and if it is not set, suffix matching is assumed. 1-dim expansion doesn't work
// yet." Without `broadcast`, B must have A's shape ("it should be of the same size"); it is then
// returned as it is. A negative axis counts from the end of A. Dims that are not known are taken to
// match; an InvalidArgument error says which dims do not.
//
// "1-dim expansion doesn't work yet" said what the implementations of the time lacked, not what the
// models meant: exporters wrote B of shape [2,1] or [1,3] against A of shape [2,3], and the outputs
// ONNX stored for such models are numpy's. So a size-1 dim of B within the run is read as numpy
// reads it, expanded over A's dim; `expanded_axes`, when given, receives the axes of A where that
// happens (A's dim is not known to be 1), for a warning.
absl::StatusOr<ir::Shape> LegacyBroadcastShape(const ir::Shape& a, const ir::Shape& b,
                                               bool broadcast, std::optional<int64_t> axis,
                                               std::vector<int64_t>* expanded_axes = nullptr);

// True for the operators whose version in force at `since_version` broadcasts by the rule above
// (Add, Sub, Mul, Div, Pow, And, Or, Xor, Equal, Greater, Less before opset 7).
bool UsesLegacyBroadcast(std::string_view op_type, int since_version);

// What a warning says about a node whose B is expanded over `expanded_axes` of A (from
// LegacyBroadcastShape): "B of shape [2,1] has size 1 where A of shape [2,3] has 3 (axis 1) ...".
std::string DescribeLegacyExpansion(const ir::Shape& a, const ir::Shape& b,
                                    const std::vector<int64_t>& expanded_axes);

// The slope of PRelu-1/6 ("If Slope is of size 1, the value is shared across different channels";
// otherwise one value per channel, as in Caffe2's PRelu, which these versions describe): the shape
// that numpy broadcasting reads the same way. A 1-D slope of X's channel count (dim 1) on an X of
// rank 3 or more becomes [C, 1, ..., 1] (X's rank - 1); any other slope keeps its shape (one
// element, X's shape, or what PRelu-7's unidirectional broadcasting accepts). nullopt when the
// choice depends on dims that are not known (a 1-D slope of unknown size, or a channel count
// unknown).
std::optional<ir::Shape> LegacyPReluSlopeShape(const ir::Shape& x, const ir::Shape& slope);

}  // namespace onnx_opt::schema::inference

#endif  // ONNX_OPT_SCHEMA_INFERENCE_LEGACY_BROADCAST_H_
