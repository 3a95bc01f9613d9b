// The ONNX float8 types <-> float: float8e4m3fn, float8e4m3fnuz, float8e5m2, float8e5m2fnuz (sign,
// exponent, mantissa) and float8e8m0 (exponent only, a power of two; used as a scale).
//
// Special values, per the ONNX spec (docs/Float8.md):
//   e4m3fn    no infinity; S.1111.111 is NaN; has -0.                   largest finite 448
//   e4m3fnuz  no infinity, no -0; 1.0000.000 (0x80) is the only NaN.    largest finite 240
//   e5m2      IEEE-like: S.11111.00 is infinity, S.11111.{01,10,11} NaN. largest finite 57344
//   e5m2fnuz  no infinity, no -0; 0x80 is the only NaN.                  largest finite 57344
//   e8m0      2^(code - 127); 0xFF is NaN; no zero, no sign.            largest finite 2^127
//
// NaN: these formats have no room for a payload worth keeping, so every float NaN (either sign)
// becomes the format's one canonical NaN: 0x7F for e4m3fn and e5m2 (as ONNX's reference does for
// e5m2, which has three NaN patterns), 0x80 for the fnuz types, 0xFF for e8m0.
#ifndef ONNX_OPT_IR_NUMERIC_FLOAT8_H_
#define ONNX_OPT_IR_NUMERIC_FLOAT8_H_

#include <cstdint>

#include "ir/data_type.h"

namespace onnx_opt::ir {

bool IsFloat8(DataType type);  // the five types above

// The value of `code` in float8 type `type` (exact). NaN for the NaN patterns and non-float8 types.
float Float8ToFloat(DataType type, uint8_t code);

// The Cast rules of ONNX (opset 19+) for float -> e4m3fn, e4m3fnuz, e5m2, e5m2fnuz: round to
// nearest, ties to even. A value beyond the largest finite one (after rounding) and +-infinity:
//   saturate = true   the largest finite value of the same sign;
//   saturate = false  infinity for e5m2, NaN for the types without infinity.
// A negative value that rounds to zero keeps its sign where the type has -0 (e4m3fn, e5m2).
// For e8m0 this is FloatToFloat8E8M0(value, saturate, E8M0Rounding::kUp), Cast's default
// round_mode.
uint8_t FloatToFloat8(DataType type, float value, bool saturate);

enum class E8M0Rounding {
  kUp,       // the smallest power of two >= value (Cast's round_mode "up", the default)
  kNearest,  // the nearest power of two by distance; at 1.5 * 2^k, the even code
};

// float -> e8m0. NaN and negative values (not -0) become NaN (0xFF); zero and values below 2^-127
// become the smallest code (2^-127, after rounding); infinity and values rounding past 2^127 become
// 2^127 (0xFE) when saturating, else NaN.
uint8_t FloatToFloat8E8M0(float value, bool saturate, E8M0Rounding rounding);

}  // namespace onnx_opt::ir

#endif  // ONNX_OPT_IR_NUMERIC_FLOAT8_H_
