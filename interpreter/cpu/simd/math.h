// Float math written without branches or library calls, so that loops over it vectorize at every
// ISA. Accuracy: a few ulp over the whole range (exp: range reduction by ln2 and a degree-7 Taylor
// polynomial on |r| <= ln2/2, whose truncation error is below float's rounding).
#ifndef ONNX_OPT_INTERPRETER_CPU_SIMD_MATH_H_
#define ONNX_OPT_INTERPRETER_CPU_SIMD_MATH_H_

#include <cstdint>
#include <cstring>

#include "interpreter/cpu/simd/simd.h"

namespace onnx_opt::interpreter::ONNX_OPT_SIMD_NS {

inline float Pow2(int32_t e) {  // 2^e for e in [-126, 127]
  const int32_t bits = (e + 127) << 23;
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

inline float ExpF(float x) {
  // Beyond these bounds the result is 0 or inf anyway; clamping keeps n small enough for Pow2
  // below. A NaN takes the upper bound here and is restored at the end.
  float xc = x < 88.8f ? x : 88.8f;
  xc = xc > -104.0f ? xc : -104.0f;
  // n = round(x / ln2) by the 1.5 * 2^23 trick (exact for |n| < 2^22 in round-to-nearest).
  const float kShift = 12582912.0f;
  const float n = (xc * 1.44269504088896341f + kShift) - kShift;
  // r = x - n ln2 in two steps (ln2 split so that n * hi is exact).
  float r = xc - n * 0.693359375f;
  r = r - n * -2.12194440e-4f;
  float p = 1.0f / 5040;
  p = p * r + 1.0f / 720;
  p = p * r + 1.0f / 120;
  p = p * r + 1.0f / 24;
  p = p * r + 1.0f / 6;
  p = p * r + 0.5f;
  p = p * r + 1.0f;
  p = p * r + 1.0f;
  // 2^n in two halves so that n in [-150, 128] never leaves the normal exponent range; the second
  // multiply rounds to a denormal, zero or infinity as it should.
  const int32_t ni = static_cast<int32_t>(n);
  const int32_t n1 = ni >> 1;
  const float result = p * Pow2(n1) * Pow2(ni - n1);
  return x != x ? x : result;
}

inline float SigmoidF(float x) { return 1.0f / (1.0f + ExpF(-x)); }

inline float TanhF(float x) {
  const float a = x < 0 ? -x : x;
  // 1 - 2 / (e^2a + 1) cancels near zero: below 0.4 use the odd Taylor series to x^15 instead (its
  // next term is below 1e-9 relative there; at 0.4 the cancellation costs under a bit).
  const float a2 = a * a;
  float s = -929569.0f / 638512875.0f;
  s = s * a2 + 21844.0f / 6081075;
  s = s * a2 - 1382.0f / 155925;
  s = s * a2 + 62.0f / 2835;
  s = s * a2 - 17.0f / 315;
  s = s * a2 + 2.0f / 15;
  s = s * a2 - 1.0f / 3;
  const float small = a + a * a2 * s;
  const float large = 1.0f - 2.0f / (ExpF(2.0f * a) + 1.0f);
  const float t = a < 0.4f ? small : large;
  return x < 0 ? -t : (x != x ? x : t);
}

// erf: |x| < 1 as x * P(x^2), P of degree 7; 1 <= |x| < 3.92 as 1 - e^(-x^2) * Q(1/x), Q of degree
// 10 (erfc(x) e^(x^2) is smooth in 1/x); beyond 3.92 erf rounds to +-1 in float. P and Q are
// Chebyshev fits (truncation below 1e-8 relative), so the float evaluation is within a few ulp.
inline float ErfF(float x) {
  static constexpr float kP[] = {-9.667044571e-06f, 1.126595903e-04f,  -8.484080406e-04f,
                                 5.221031808e-03f,  -2.686543073e-02f, 1.128378250e-01f,
                                 -3.761263847e-01f, 1.128379167e+00f};
  static constexpr float kQ[] = {-3.203431087e-02f, 2.260653170e-01f,  -7.043240947e-01f,
                                 1.254205735e+00f,  -1.349949584e+00f, 7.799075381e-01f,
                                 -1.361421568e-02f, -3.025023790e-01f, 6.459822390e-03f,
                                 5.633239096e-01f,  4.583716658e-05f};
  const float a = __builtin_fabsf(x), t = a * a;
  float p = kP[0];
  for (int i = 1; i < 8; ++i) p = p * t + kP[i];
  const float u = 1.0f / (a < 1.0f ? 1.0f : a);
  float q = kQ[0];
  for (int i = 1; i < 11; ++i) q = q * u + kQ[i];
  const float r = a < 1.0f ? a * p : (a < 3.92f ? 1.0f - ExpF(-t) * q : 1.0f);
  return x != x ? x : __builtin_copysignf(r, x);
}

}  // namespace onnx_opt::interpreter::ONNX_OPT_SIMD_NS

#endif  // ONNX_OPT_INTERPRETER_CPU_SIMD_MATH_H_
