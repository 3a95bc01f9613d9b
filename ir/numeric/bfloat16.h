// bfloat16 (the top half of a float) <-> float.
//
// NaN keeps its sign and top payload bits and gets the quiet bit, the rule of float16.h.
#ifndef ONNX_OPT_IR_NUMERIC_BFLOAT16_H_
#define ONNX_OPT_IR_NUMERIC_BFLOAT16_H_

#include <cstdint>

namespace onnx_opt::ir {

// The bfloat16 nearest to `value`, ties to even; overflow rounds to infinity as IEEE rounding does.
uint16_t FloatToBfloat16(float value);

// Exact.
float Bfloat16ToFloat(uint16_t bits);

}  // namespace onnx_opt::ir

#endif  // ONNX_OPT_IR_NUMERIC_BFLOAT16_H_
