// float4e2m1 (1 sign, 2 exponent, 1 mantissa bit; the low 4 bits of a byte) <-> float.
//
// The eight magnitudes are 0, 0.5, 1, 1.5, 2, 3, 4 and 6; every pattern is a finite number (there
// is no infinity and no NaN) and -0 exists.
#ifndef ONNX_OPT_IR_NUMERIC_FLOAT4_H_
#define ONNX_OPT_IR_NUMERIC_FLOAT4_H_

#include <cstdint>

namespace onnx_opt::ir {

// The value of the low 4 bits of `code`.
float Float4E2M1ToFloat(uint8_t code);

// The Cast rules of ONNX: round to nearest, ties to even; the result always saturates (beyond 6 and
// +-infinity give +-6). NaN has no pattern and becomes 0x8 (-0), as ONNX's reference implementation
// writes it. A negative value that rounds to zero keeps its sign.
uint8_t FloatToFloat4E2M1(float value);

}  // namespace onnx_opt::ir

#endif  // ONNX_OPT_IR_NUMERIC_FLOAT4_H_
