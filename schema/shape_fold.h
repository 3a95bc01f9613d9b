// Shape and Size of a value whose shape is static, computed without running anything: the one
// definition that constant folding (passes/fold_constants.cc, passes/fold_shapes.cc) and the
// version converter's folder (converter/fold.cc) use.
#ifndef ONNX_OPT_SCHEMA_SHAPE_FOLD_H_
#define ONNX_OPT_SCHEMA_SHAPE_FOLD_H_

#include <cstdint>
#include <optional>
#include <utility>

#include "ir/node.h"
#include "ir/tensor.h"
#include "ir/type.h"

namespace onnx_opt::schema {

// The dims [first, second) of a rank-`rank` input that Shape node `n` returns at ai.onnx opset
// `opset`. Shape-1 and Shape-13 have no attributes: all dims. Shape-15 added `start` (default 0)
// and `end` (default: the rank); negative values count from the back (r is added once), then both
// are clamped to [0, rank]; start >= end gives no dims.
std::pair<int64_t, int64_t> ShapeOpRange(const ir::Node& n, int64_t rank, int64_t opset);

// The output of ai.onnx Shape or Size node `n` at `opset` when its input has type `input_type` with
// a static shape (an int64 vector for Shape, an int64 scalar for Size); nullopt for other nodes and
// for inputs whose shape is not static.
std::optional<ir::Tensor> FoldShapeOrSize(const ir::Node& n, const ir::Type& input_type,
                                          int64_t opset);

}  // namespace onnx_opt::schema

#endif  // ONNX_OPT_SCHEMA_SHAPE_FOLD_H_
