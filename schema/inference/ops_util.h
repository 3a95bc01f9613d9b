// Helpers shared by the family files (ops_*.cc). Internal to schema/inference.
#ifndef ONNX_OPT_SCHEMA_INFERENCE_OPS_UTIL_H_
#define ONNX_OPT_SCHEMA_INFERENCE_OPS_UTIL_H_

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "ir/status_macros.h"
#include "schema/inference/context.h"
#include "schema/inference/registry.h"
#include "schema/inference/shape_utils.h"

namespace onnx_opt::schema::inference {

// Output `out` (default 0) has input `in`'s shape; its type comes from the schema (or input `in`
// when the schema leaves it open).
absl::Status SameShape(InferenceContext& ctx, size_t in = 0, size_t out = 0);
inline absl::Status SameShapeAsInput0(InferenceContext& ctx) { return SameShape(ctx, 0, 0); }

// Output `out` is the numpy broadcast of the inputs [first, first + count) (absent ones skipped).
// When any input's rank is unknown, the output's rank is too.
absl::Status BroadcastInputs(InferenceContext& ctx, size_t first, size_t count, size_t out = 0);
inline absl::Status BroadcastAllInputs(InferenceContext& ctx) {
  return BroadcastInputs(ctx, 0, ctx.num_inputs(), 0);
}

// `axis` normalized against `rank`, or an error naming the attribute.
absl::StatusOr<int64_t> CheckAxis(const InferenceContext& ctx, int64_t axis, int64_t rank,
                                  std::string_view what = "axis");
// Each of `axes` normalized, sorted-unique not required; errors when out of range.
absl::StatusOr<std::vector<int64_t>> CheckAxes(const InferenceContext& ctx,
                                               const std::vector<int64_t>& axes, int64_t rank);

// The element type an integer attribute (like Cast's `to`) names, or an error.
absl::StatusOr<ir::DataType> DataTypeAttr(const InferenceContext& ctx, int64_t value);

// A Shape of `rank` unknown dims.
ir::Shape UnknownShape(size_t rank);

// Applies `fn` element-wise to two shape values, broadcasting a length-1 operand; nullopt when the
// lengths do not broadcast. `fn` returns an unknown Dim when it cannot tell.
using SvBinary = ir::Dim (*)(const ir::Dim& a, const ir::Dim& b);
std::optional<ShapeValue> CombineShapeValues(const ShapeValue& a, const ShapeValue& b, SvBinary fn);

}  // namespace onnx_opt::schema::inference

#endif  // ONNX_OPT_SCHEMA_INFERENCE_OPS_UTIL_H_
