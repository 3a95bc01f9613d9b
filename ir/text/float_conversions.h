// Narrow float tensor data in the text syntax (float16, bfloat16, the float8 variants, float8e8m0
// and float4e2m1), written as decimal values. The conversions themselves are ir/numeric's; what is
// the text syntax's own is that a value its type cannot hold is an error, not saturated.
#ifndef ONNX_OPT_IR_TEXT_FLOAT_CONVERSIONS_H_
#define ONNX_OPT_IR_TEXT_FLOAT_CONVERSIONS_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "ir/data_type.h"

namespace onnx_opt::ir::text {

// The bit pattern of the narrow float type nearest to `value` (ties to even; float8e8m0: the
// nearest power of two, ties to the even code). NaN becomes the type's NaN by ir/numeric's rule.
// Fails for types that are not narrow floats and when the type cannot represent the value's
// magnitude or kind: values beyond the largest finite value of a type without infinity, NaN in
// float4e2m1, zero or negatives in float8e8m0. float16, bfloat16 and float8e5m2 overflow to
// infinity as IEEE rounding does.
absl::StatusOr<uint32_t> CheckedFloatToNarrowFloat(DataType type, float value);

}  // namespace onnx_opt::ir::text

#endif  // ONNX_OPT_IR_TEXT_FLOAT_CONVERSIONS_H_
