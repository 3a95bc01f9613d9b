#include "ir/numeric/float16.h"

#include <bit>
#include <cmath>

namespace onnx_opt::ir {

uint16_t FloatToHalf(float value) {
  const uint32_t bits = std::bit_cast<uint32_t>(value);
  const uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000);
  const uint32_t abs = bits & 0x7FFFFFFF;
  if (abs > 0x7F800000) {
    // NaN: the top 9 payload bits below float's quiet bit, with half's quiet bit set (see
    // float16.h).
    return static_cast<uint16_t>(sign | 0x7E00 | ((abs >> 13) & 0x1FF));
  }
  if (abs == 0x7F800000) return sign | 0x7C00;  // infinity
  const int exp = static_cast<int>(abs >> 23) - 127;
  const uint32_t man = abs & 0x7FFFFF;
  if (exp > 15) return sign | 0x7C00;
  if (exp >= -14) {
    uint32_t half = (static_cast<uint32_t>(exp + 15) << 10) | (man >> 13);
    const uint32_t rest = man & 0x1FFF;
    if (rest > 0x1000 || (rest == 0x1000 && (half & 1))) ++half;  // may carry into inf: correct
    return sign | static_cast<uint16_t>(half);
  }
  if (exp < -25) return sign;  // below half the smallest subnormal: zero
  // Subnormal half: value = h * 2^-24 with h = m * 2^(exp + 1), m the 24-bit significand.
  const uint32_t m = man | 0x800000;
  const int shift = -(exp + 1);  // 14..24
  uint32_t h = m >> shift;
  const uint32_t rest = m & ((1u << shift) - 1);
  const uint32_t halfway = 1u << (shift - 1);
  if (rest > halfway || (rest == halfway && (h & 1))) ++h;
  return sign | static_cast<uint16_t>(h);
}

float HalfToFloat(uint16_t bits) {
  const uint32_t sign = static_cast<uint32_t>(bits & 0x8000) << 16;
  const uint32_t exp = (bits >> 10) & 0x1F;
  const uint32_t man = bits & 0x3FF;
  if (exp == 0x1F) return std::bit_cast<float>(sign | 0x7F800000 | (man << 13));
  if (exp == 0) {
    const float v = std::ldexp(static_cast<float>(man), -24);
    return sign ? -v : v;
  }
  return std::bit_cast<float>(sign | ((exp + 112) << 23) | (man << 13));
}

}  // namespace onnx_opt::ir
