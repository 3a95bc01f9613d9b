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

#endif  // ONNX_OPT_INTERPRETER_CPU_SIMD_INTRINSICS_H_
