// Elementwise float loops: binary arithmetic, activations and the per-channel affine map. Each case
// is its own simple loop, so the compiler vectorizes it for the ISA this file is built for.
#include "interpreter/cpu/simd/math.h"
#include "interpreter/cpu/simd/simd.h"

namespace onnx_opt::interpreter::ONNX_OPT_SIMD_NS {
namespace {

template <typename F>
void Binary(Operands form, const float* a, const float* b, float* out, int64_t n, F f) {
  switch (form) {
    case Operands::kVectorVector:
      for (int64_t i = 0; i < n; ++i) out[i] = f(a[i], b[i]);
      return;
    case Operands::kVectorScalar: {
      const float s = *b;
      for (int64_t i = 0; i < n; ++i) out[i] = f(a[i], s);
      return;
    }
    case Operands::kScalarVector: {
      const float s = *a;
      for (int64_t i = 0; i < n; ++i) out[i] = f(s, b[i]);
      return;
    }
  }
}

template <typename F>
void Map(const float* x, float* y, int64_t n, F f) {
  for (int64_t i = 0; i < n; ++i) y[i] = f(x[i]);
}

}  // namespace

void BinaryF32(BinaryOp op, Operands form, const float* a, const float* b, float* out, int64_t n) {
  switch (op) {
    case BinaryOp::kAdd:
      return Binary(form, a, b, out, n, [](float x, float y) { return x + y; });
    case BinaryOp::kSub:
      return Binary(form, a, b, out, n, [](float x, float y) { return x - y; });
    case BinaryOp::kMul:
      return Binary(form, a, b, out, n, [](float x, float y) { return x * y; });
    case BinaryOp::kDiv:
      return Binary(form, a, b, out, n, [](float x, float y) { return x / y; });
    // NaN in either operand gives NaN, as ONNX's Max/Min (numpy's maximum/minimum) do.
    case BinaryOp::kMax:
      return Binary(form, a, b, out, n,
                    [](float x, float y) { return x != x || y != y ? x + y : (x > y ? x : y); });
    case BinaryOp::kMin:
      return Binary(form, a, b, out, n,
                    [](float x, float y) { return x != x || y != y ? x + y : (x < y ? x : y); });
  }
}

// a * b + c in one rounding where the ISA has FMA (the epilogues of epilogue.h match it), two where
// it has not: written out rather than left to the compiler's contraction.
inline float MultiplyAdd(float a, float b, float c) {
#if defined(__FMA__)
  return __builtin_fmaf(a, b, c);
#else
  return a * b + c;
#endif
}

void UnaryF32(UnaryOp op, const float* x, float* y, int64_t n, float p0, float p1) {
  switch (op) {
    case UnaryOp::kRelu:
      return Map(x, y, n, [](float v) { return v > 0 ? v : 0.0f; });
    case UnaryOp::kClip:
      // max first, then min: with min > max everything becomes max, as in numpy's clip.
      return Map(x, y, n, [p0, p1](float v) {
        const float t = v < p0 ? p0 : v;
        return t > p1 ? p1 : t;
      });
    case UnaryOp::kLeakyRelu:
      return Map(x, y, n, [p0](float v) { return v >= 0 ? v : v * p0; });
    case UnaryOp::kHardSigmoid:
      return Map(x, y, n, [p0, p1](float v) {
        const float t = MultiplyAdd(v, p0, p1);
        return t < 0 ? 0.0f : (t > 1 ? 1.0f : t);
      });
    case UnaryOp::kHardSwish:
      return Map(x, y, n, [](float v) {
        const float t = MultiplyAdd(v, 1.0f / 6, 0.5f);
        return v * (t < 0 ? 0.0f : (t > 1 ? 1.0f : t));
      });
    case UnaryOp::kSigmoid:
      return Map(x, y, n, [](float v) { return SigmoidF(v); });
    case UnaryOp::kTanh:
      return Map(x, y, n, [](float v) { return TanhF(v); });
    case UnaryOp::kExp:
      return Map(x, y, n, [](float v) { return ExpF(v); });
    case UnaryOp::kErf:
      return Map(x, y, n, [](float v) { return ErfF(v); });
    case UnaryOp::kNeg:
      return Map(x, y, n, [](float v) { return -v; });
    case UnaryOp::kAbs:
      return Map(x, y, n, [](float v) { return __builtin_fabsf(v); });
    case UnaryOp::kSqrt:
      return Map(x, y, n, [](float v) { return __builtin_sqrtf(v); });
    case UnaryOp::kReciprocal:
      return Map(x, y, n, [](float v) { return 1.0f / v; });
  }
}

// One rounding (a fused multiply-add) where the ISA has FMA, two where it does not: written out, so
// that the GEMM that applies the same step to a convolution's output as it stores it
// (unpacked_gemm.cc) can match these bits by construction.
void ScaleShiftF32(const float* x, float scale, float shift, float* y, int64_t n) {
#if defined(__FMA__)
  for (int64_t i = 0; i < n; ++i) y[i] = __builtin_fmaf(x[i], scale, shift);
#else
  for (int64_t i = 0; i < n; ++i) y[i] = x[i] * scale + shift;
#endif
}

}  // namespace onnx_opt::interpreter::ONNX_OPT_SIMD_NS
