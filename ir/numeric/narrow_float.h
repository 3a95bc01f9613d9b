// The narrow floating-point element types as one family: float16, bfloat16, the float8 types and
// float4e2m1, stored as bit patterns of 16, 8 or 4 bits. Dispatches to float16.h, bfloat16.h,
// float8.h and float4.h, which hold the conversions and their NaN rule.
#ifndef ONNX_OPT_IR_NUMERIC_NARROW_FLOAT_H_
#define ONNX_OPT_IR_NUMERIC_NARROW_FLOAT_H_

#include <cstdint>

#include "ir/data_type.h"

namespace onnx_opt::ir {

// True for float16, bfloat16, float8e4m3fn, float8e4m3fnuz, float8e5m2, float8e5m2fnuz, float8e8m0
// and float4e2m1.
bool IsNarrowFloat(DataType type);

// The value of bit pattern `bits` (the low 16, 8 or 4 bits are used). NaN for other types.
float NarrowFloatToFloat(DataType type, uint32_t bits);

// The bit pattern for `value` by ONNX's Cast rules: round to nearest, ties to even (e8m0: round
// up); `saturate` applies to the float8 types (see float8.h); float4e2m1 always saturates. 0 for
// other types.
uint32_t FloatToNarrowFloat(DataType type, float value, bool saturate);

// The largest finite value of a narrow float type (0 for other types).
float NarrowFloatMax(DataType type);

// Whether the type has patterns for infinity (float16, bfloat16, float8e5m2) and for NaN (all but
// float4e2m1).
bool NarrowFloatHasInfinity(DataType type);
bool NarrowFloatHasNaN(DataType type);

}  // namespace onnx_opt::ir

#endif  // ONNX_OPT_IR_NUMERIC_NARROW_FLOAT_H_
