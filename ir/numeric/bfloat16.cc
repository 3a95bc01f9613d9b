#include "ir/numeric/bfloat16.h"

#include <bit>

namespace onnx_opt::ir {

uint16_t FloatToBfloat16(float value) {
  const uint32_t bits = std::bit_cast<uint32_t>(value);
  // NaN: truncate (keeps sign and top payload bits) and set the quiet bit.
  if ((bits & 0x7FFFFFFF) > 0x7F800000) return static_cast<uint16_t>((bits >> 16) | 0x0040);
  const uint32_t rounded = bits + 0x7FFF + ((bits >> 16) & 1);
  return static_cast<uint16_t>(rounded >> 16);
}

float Bfloat16ToFloat(uint16_t bits) {
  return std::bit_cast<float>(static_cast<uint32_t>(bits) << 16);
}

}  // namespace onnx_opt::ir
