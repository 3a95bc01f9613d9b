#include "ir/numeric/float4.h"

#include <cmath>

namespace onnx_opt::ir {
namespace {

constexpr float kMagnitudes[8] = {0.f, 0.5f, 1.f, 1.5f, 2.f, 3.f, 4.f, 6.f};

}  // namespace

float Float4E2M1ToFloat(uint8_t code) {
  const float magnitude = kMagnitudes[code & 7];
  return (code & 8) ? -magnitude : magnitude;
}

uint8_t FloatToFloat4E2M1(float value) {
  if (std::isnan(value)) return 0x8;
  const uint8_t sign = std::signbit(value) ? 8 : 0;
  const float a = std::fabs(value);
  if (a >= 6.f) return sign | 7;
  // The pair of neighbours around a; ties go to the even code.
  for (int i = 1; i < 8; ++i) {
    if (a > kMagnitudes[i]) continue;
    const float below = a - kMagnitudes[i - 1], above = kMagnitudes[i] - a;
    const int code = below < above ? i - 1 : (above < below ? i : ((i - 1) % 2 == 0 ? i - 1 : i));
    return sign | static_cast<uint8_t>(code);
  }
  return sign | 7;  // not reached
}

}  // namespace onnx_opt::ir
