// IEEE 754 half precision (binary16) <-> float.
//
// One NaN rule for every narrow float type that has room for a payload (float16 and bfloat16): a
// NaN keeps its sign and the top bits of its payload, and the quiet bit is set. This is what IEEE
// 754 conversions and the hardware do (x86 F16C's vcvtps2ph, ARM's fcvt), so the interpreter agrees
// with onnxruntime bit for bit, a NaN whose payload sits only in low bits still stays a NaN (it
// never truncates to infinity), and half -> float -> half round-trips every NaN pattern that
// already has the quiet bit set. The float8 and float4 formats have no payload; see float8.h.
#ifndef ONNX_OPT_IR_NUMERIC_FLOAT16_H_
#define ONNX_OPT_IR_NUMERIC_FLOAT16_H_

#include <cstdint>

namespace onnx_opt::ir {

// The half nearest to `value`, ties to even. Values from 65520 (halfway past the largest finite
// half, 65504) up overflow to infinity; values below 2^-25 flush to a zero of the same sign.
uint16_t FloatToHalf(float value);

// Exact: every half is a float (subnormals become normal floats; NaN payloads move to the top
// bits).
float HalfToFloat(uint16_t bits);

}  // namespace onnx_opt::ir

#endif  // ONNX_OPT_IR_NUMERIC_FLOAT16_H_
