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

#endif  // ONNX_OPT_INTERPRETER_CPU_SIMD_INTRINSICS_H_
