// Conversions between float and the narrow floating-point element types (float16, bfloat16, the
// float8 variants, float8e8m0 and float4e2m1), used by the text syntax to read and write tensor data
// as decimal values. Encoding rounds to nearest, ties to even.
#ifndef ONNX_OPT_IR_TEXT_FLOAT_CONVERSIONS_H_
#define ONNX_OPT_IR_TEXT_FLOAT_CONVERSIONS_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "ir/data_type.h"

namespace onnx_opt::ir::text {

// True for float16, bfloat16, float8e4m3fn, float8e4m3fnuz, float8e5m2, float8e5m2fnuz, float8e8m0
// and float4e2m1: the types whose elements are stored as narrow bit patterns.
bool IsNarrowFloat(DataType type);

// The value of bit pattern `bits` (the low 4, 8 or 16 bits are used) of a narrow float type.
float NarrowFloatToFloat(DataType type, uint32_t bits);

// The bit pattern of the narrow float type nearest to `value` (ties to even). NaN becomes the type's
// canonical NaN. Fails when the type cannot represent the value's magnitude or kind: values beyond
// the largest finite value of a type without infinity, NaN in float4e2m1, zero or negatives in
// float8e8m0. float16, bfloat16 and float8e5m2 overflow to infinity as IEEE rounding does.
absl::StatusOr<uint32_t> FloatToNarrowFloat(DataType type, float value);

// IEEE half precision and bfloat16, exposed for direct use.
uint16_t FloatToHalf(float value);
float HalfToFloat(uint16_t bits);
uint16_t FloatToBfloat16(float value);
float Bfloat16ToFloat(uint16_t bits);

}  // namespace onnx_opt::ir::text

#endif  // ONNX_OPT_IR_TEXT_FLOAT_CONVERSIONS_H_
