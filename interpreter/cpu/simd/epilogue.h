// The steps of a RowEpilogue (vector_kernels.h) after its bias, on one vector of this ISA: v *
// scale + shift (one rounding, as this ISA's scale_shift_f32 in elementwise.cc) when `scaled`, then
// the activation, with the separate passes' results (unary_f32: Relu takes NaN and -0 to +0; Clip
// is v < lo ? lo : v, then > hi ? hi : that; LeakyRelu v >= 0 ? v : v * alpha; HardSigmoid clamps
// fma(v, alpha, beta) to [0, 1] and HardSwish multiplies v by fma(v, 1/6, 1/2) so clamped, NaN
// passing through both). Scale and shift are per lane: the same value in every lane for a row of a
// GEMM, a channel's in each lane for the channel-blocked depthwise convolution.
//
// FinishAs<A> is the step for an activation known when compiling: kernels whose store path runs
// once every few multiply-adds (the depthwise convolution) choose it once per call through
// WithActivation, since a choice per vector among all six took registers and branches the AVX2
// 3x3 kernel needs (BM_InvertedResidual ~10% slower). FinishVector chooses per call of its own.
#ifndef ONNX_OPT_INTERPRETER_CPU_SIMD_EPILOGUE_H_
#define ONNX_OPT_INTERPRETER_CPU_SIMD_EPILOGUE_H_

#include <type_traits>

#include "interpreter/cpu/simd/simd.h"

#if defined(__AVX2__)
#include "interpreter/cpu/simd/intrinsics.h"
#endif

namespace onnx_opt::interpreter::ONNX_OPT_SIMD_NS {

using Activation = RowEpilogue::Activation;

// Calls f(std::integral_constant<Activation, a>()).
template <typename F>
decltype(auto) WithActivation(Activation a, F&& f) {
  switch (a) {
    case Activation::kRelu:
      return f(std::integral_constant<Activation, Activation::kRelu>());
    case Activation::kClip:
      return f(std::integral_constant<Activation, Activation::kClip>());
    case Activation::kLeakyRelu:
      return f(std::integral_constant<Activation, Activation::kLeakyRelu>());
    case Activation::kHardSigmoid:
      return f(std::integral_constant<Activation, Activation::kHardSigmoid>());
    case Activation::kHardSwish:
      return f(std::integral_constant<Activation, Activation::kHardSwish>());
    case Activation::kNone:
      break;
  }
  return f(std::integral_constant<Activation, Activation::kNone>());
}

#if defined(__AVX512F__)
// t < 0 ? 0 : (t > 1 ? 1 : t).
inline __m512 UnitClamp(__m512 t) {
  t = _mm512_mask_mov_ps(t, _mm512_cmp_ps_mask(t, _mm512_setzero_ps(), _CMP_LT_OQ),
                         _mm512_setzero_ps());
  return _mm512_mask_mov_ps(t, _mm512_cmp_ps_mask(t, _mm512_set1_ps(1), _CMP_GT_OQ),
                            _mm512_set1_ps(1));
}

template <Activation A>
inline __m512 FinishAs(__m512 v, bool scaled, __m512 scale, __m512 shift, const RowEpilogue& e) {
  if (scaled) v = _mm512_fmadd_ps(v, scale, shift);
  if constexpr (A == Activation::kRelu) {  // v > 0 ? v : 0
    v = _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(v, _mm512_setzero_ps(), _CMP_GT_OQ), v);
  } else if constexpr (A == Activation::kClip) {
    const __m512 lo = _mm512_set1_ps(e.lo), hi = _mm512_set1_ps(e.hi);
    v = _mm512_mask_mov_ps(v, _mm512_cmp_ps_mask(v, lo, _CMP_LT_OQ), lo);
    v = _mm512_mask_mov_ps(v, _mm512_cmp_ps_mask(v, hi, _CMP_GT_OQ), hi);
  } else if constexpr (A == Activation::kLeakyRelu) {
    v = _mm512_mask_mov_ps(_mm512_mul_ps(v, _mm512_set1_ps(e.alpha)),
                           _mm512_cmp_ps_mask(v, _mm512_setzero_ps(), _CMP_GE_OQ), v);
  } else if constexpr (A == Activation::kHardSigmoid) {
    v = UnitClamp(_mm512_fmadd_ps(v, _mm512_set1_ps(e.alpha), _mm512_set1_ps(e.beta)));
  } else if constexpr (A == Activation::kHardSwish) {
    v = _mm512_mul_ps(
        v, UnitClamp(_mm512_fmadd_ps(v, _mm512_set1_ps(1.0f / 6), _mm512_set1_ps(0.5f))));
  }
  return v;
}

#elif defined(__AVX2__)
// t < 0 ? 0 : (t > 1 ? 1 : t).
inline __m256 UnitClamp(__m256 t) {
  t = _mm256_blendv_ps(t, _mm256_setzero_ps(), _mm256_cmp_ps(t, _mm256_setzero_ps(), _CMP_LT_OQ));
  return _mm256_blendv_ps(t, _mm256_set1_ps(1), _mm256_cmp_ps(t, _mm256_set1_ps(1), _CMP_GT_OQ));
}

template <Activation A>
inline __m256 FinishAs(__m256 v, bool scaled, __m256 scale, __m256 shift, const RowEpilogue& e) {
  if (scaled) v = _mm256_fmadd_ps(v, scale, shift);
  if constexpr (A == Activation::kRelu) {  // v > 0 ? v : 0
    v = _mm256_and_ps(v, _mm256_cmp_ps(v, _mm256_setzero_ps(), _CMP_GT_OQ));
  } else if constexpr (A == Activation::kClip) {
    const __m256 lo = _mm256_set1_ps(e.lo), hi = _mm256_set1_ps(e.hi);
    v = _mm256_blendv_ps(v, lo, _mm256_cmp_ps(v, lo, _CMP_LT_OQ));
    v = _mm256_blendv_ps(v, hi, _mm256_cmp_ps(v, hi, _CMP_GT_OQ));
  } else if constexpr (A == Activation::kLeakyRelu) {
    v = _mm256_blendv_ps(_mm256_mul_ps(v, _mm256_set1_ps(e.alpha)), v,
                         _mm256_cmp_ps(v, _mm256_setzero_ps(), _CMP_GE_OQ));
  } else if constexpr (A == Activation::kHardSigmoid) {
    v = UnitClamp(_mm256_fmadd_ps(v, _mm256_set1_ps(e.alpha), _mm256_set1_ps(e.beta)));
  } else if constexpr (A == Activation::kHardSwish) {
    v = _mm256_mul_ps(
        v, UnitClamp(_mm256_fmadd_ps(v, _mm256_set1_ps(1.0f / 6), _mm256_set1_ps(0.5f))));
  }
  return v;
}

#endif

#if defined(__AVX2__)
// FinishAs for e's activation, chosen here (one vector type per build: this ISA's).
template <typename V>
inline V FinishVector(V v, bool scaled, V scale, V shift, const RowEpilogue& e) {
  switch (e.activation) {
    case Activation::kNone:
      break;
    case Activation::kRelu:
      return FinishAs<Activation::kRelu>(v, scaled, scale, shift, e);
    case Activation::kClip:
      return FinishAs<Activation::kClip>(v, scaled, scale, shift, e);
    case Activation::kLeakyRelu:
      return FinishAs<Activation::kLeakyRelu>(v, scaled, scale, shift, e);
    case Activation::kHardSigmoid:
      return FinishAs<Activation::kHardSigmoid>(v, scaled, scale, shift, e);
    case Activation::kHardSwish:
      return FinishAs<Activation::kHardSwish>(v, scaled, scale, shift, e);
  }
  return FinishAs<Activation::kNone>(v, scaled, scale, shift, e);
}
#endif

}  // namespace onnx_opt::interpreter::ONNX_OPT_SIMD_NS

#endif  // ONNX_OPT_INTERPRETER_CPU_SIMD_EPILOGUE_H_
