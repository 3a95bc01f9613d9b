// <immintrin.h> for the vector kernels. GCC 12 warns that the intrinsics' own _mm512_undefined_*
// placeholders are "used uninitialized" or "may be" wherever some of them are inlined (GCC bug
// 105593, e.g. _mm512_reduce_add_ps): nothing of ours, silenced here once. Clang has neither the
// bug nor the warning group.
#ifndef ONNX_OPT_INTERPRETER_CPU_SIMD_INTRINSICS_H_
#define ONNX_OPT_INTERPRETER_CPU_SIMD_INTRINSICS_H_

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop
#else
#include <immintrin.h>
#endif

// Marks a function whose masked loads have masked-off lanes outside the buffer they read (the
// hardware reads nothing there; an implicit im2col's vectors start before a plane's first element
// or end past its last): AddressSanitizer checks such a load as a read of the whole vector, so the
// function opts out of its checks. Its lanes that count are checked against stored references by
// the tests.
#define ONNX_OPT_MASKED_LOADS_PAST_BUFFERS __attribute__((no_sanitize_address))

#include <cstdint>

// In the ISA's namespace (see simd.h): these inline functions are compiled with each ISA's flags.
namespace onnx_opt::interpreter::ONNX_OPT_SIMD_NS {

#if defined(__AVX2__)
// The mask selecting lanes [0, n) of an 8-lane maskload/maskstore; n may be <= 0 or >= 8.
inline __m256i FirstLanes8(int64_t n) {
  const int count = n <= 0 ? 0 : (n >= 8 ? 8 : static_cast<int>(n));
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(count), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}
#endif

#if defined(__AVX512F__)
// The mask selecting lanes [0, n) of a 16-lane operation; n may be <= 0 or >= 16.
inline __mmask16 FirstLanes16(int64_t n) {
  return n <= 0 ? __mmask16(0) : (n >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << n) - 1));
}
#endif

}  // namespace onnx_opt::interpreter::ONNX_OPT_SIMD_NS

#endif  // ONNX_OPT_INTERPRETER_CPU_SIMD_INTRINSICS_H_
