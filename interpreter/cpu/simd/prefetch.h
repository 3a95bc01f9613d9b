// Asking for memory to be brought into L2 ahead of its use, for the simd/ sources. Written as an
// asm statement: GCC 12 treats __builtin_prefetch as having no effect, so a loop that does nothing
// else (asking for a range of lines) may be deleted as dead; the next-strip requests of the
// unpacked GEMMs (next_strip.h) compiled to nothing that way.
#ifndef ONNX_OPT_INTERPRETER_CPU_SIMD_PREFETCH_H_
#define ONNX_OPT_INTERPRETER_CPU_SIMD_PREFETCH_H_

#include <cstdint>

#include "interpreter/cpu/simd/simd.h"

namespace onnx_opt::interpreter::ONNX_OPT_SIMD_NS {

// The cache line holding p, into L2 (prefetcht1); never faults, whatever p is.
inline void PrefetchL2(const void* p) {
#if defined(__x86_64__) || defined(__i386__)
  asm volatile("prefetcht1 %0" : : "m"(*static_cast<const char*>(p)));
#else
  __builtin_prefetch(p, 0, 2);
#endif
}

// Bytes [p, p + n) into L2: a line every 64 bytes from p, so when p is not on a line the last line
// of the range is missed (the skinny GEMMs' ranges are followed by more; next_strip.h's rows are
// whole lines when B and its row length are 64-byte aligned, as tensor buffers are).
inline void PrefetchL2(const void* p, int64_t n) {
  const char* c = static_cast<const char*>(p);
  for (int64_t i = 0; i < n; i += 64) PrefetchL2(c + i);
}

}  // namespace onnx_opt::interpreter::ONNX_OPT_SIMD_NS

#endif  // ONNX_OPT_INTERPRETER_CPU_SIMD_PREFETCH_H_
