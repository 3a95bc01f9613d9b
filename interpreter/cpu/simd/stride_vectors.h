// Vectors of the even and of the odd floats of 2 * lanes consecutive ones (stride-2 taps, and the
// Winograd tiles' columns), for the simd/ sources of the AVX2 and AVX-512 builds.
#ifndef ONNX_OPT_INTERPRETER_CPU_SIMD_STRIDE_VECTORS_H_
#define ONNX_OPT_INTERPRETER_CPU_SIMD_STRIDE_VECTORS_H_

#include "interpreter/cpu/simd/simd.h"

#if defined(__AVX2__)
#include <cstdint>

#include "interpreter/cpu/simd/intrinsics.h"

namespace onnx_opt::interpreter::ONNX_OPT_SIMD_NS {

// Stride-2 taps in whole vectors: the elements 2i and 2i + 1 (i = 0..lanes-1) of the 2 * lanes
// floats at p, each set in one vector (the compiler's own loop loaded them one by one: 144 channels
// of 56x56 at stride 2 ran at ~6 cycles an output).
#if defined(__AVX512F__)
using StrideVector = __m512;
constexpr int64_t kStrideLanes = 16;
inline StrideVector StrideSet1(float v) { return _mm512_set1_ps(v); }
inline StrideVector StrideFma(StrideVector a, StrideVector b, StrideVector c) {
  return _mm512_fmadd_ps(a, b, c);
}
inline void StrideStore(float* p, StrideVector v) { _mm512_storeu_ps(p, v); }
// The even and odd lanes of a then b.
inline void SplitEvenOdd(__m512 a, __m512 b, StrideVector* even, StrideVector* odd) {
  const __m512i even_index =
      _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  const __m512i odd_index =
      _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
  *even = _mm512_permutex2var_ps(a, even_index, b);
  *odd = _mm512_permutex2var_ps(a, odd_index, b);
}
inline void EvenOdd(const float* p, StrideVector* even, StrideVector* odd) {
  SplitEvenOdd(_mm512_loadu_ps(p), _mm512_loadu_ps(p + 16), even, odd);
}
// The same reading only the first `count` (0..32) floats at p (the rest as zeros).
inline void EvenOddMasked(const float* p, int64_t count, StrideVector* even, StrideVector* odd) {
  const uint32_t bits = count >= 32 ? 0xffffffffu : (1u << count) - 1;
  SplitEvenOdd(_mm512_maskz_loadu_ps(static_cast<__mmask16>(bits), p),
               _mm512_maskz_loadu_ps(static_cast<__mmask16>(bits >> 16), p + 16), even, odd);
}
#else
using StrideVector = __m256;
constexpr int64_t kStrideLanes = 8;
inline StrideVector StrideSet1(float v) { return _mm256_set1_ps(v); }
inline StrideVector StrideFma(StrideVector a, StrideVector b, StrideVector c) {
  return _mm256_fmadd_ps(a, b, c);
}
inline void StrideStore(float* p, StrideVector v) { _mm256_storeu_ps(p, v); }
inline void EvenOdd(const float* p, StrideVector* even, StrideVector* odd) {
  const __m256 a = _mm256_loadu_ps(p), b = _mm256_loadu_ps(p + 8);
  // Per 128-bit half [a0 a2 b0 b2 | a4 a6 b4 b6], then the 64-bit pairs put in order.
  auto order = [](__m256 v) {
    return _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(v), _MM_SHUFFLE(3, 1, 2, 0)));
  };
  *even = order(_mm256_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0)));
  *odd = order(_mm256_shuffle_ps(a, b, _MM_SHUFFLE(3, 1, 3, 1)));
}
#endif

}  // namespace onnx_opt::interpreter::ONNX_OPT_SIMD_NS

#endif  // defined(__AVX2__)

#endif  // ONNX_OPT_INTERPRETER_CPU_SIMD_STRIDE_VECTORS_H_
