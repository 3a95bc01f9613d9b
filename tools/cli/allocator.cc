#include "tools/cli/allocator.h"

#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <climits>
#include <cstdint>
#include <cstdlib>

namespace onnx_opt::cli {
namespace {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer) || __has_feature(thread_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif

constexpr int kTopPad = 16 << 20;
constexpr int kMmapThreshold = 32 << 20;
constexpr int kHugePageReserve = 1 << 30;
// Above the reservation, so that freeing never gives its top back (see the header).
constexpr int kTrimThreshold = INT_MAX;

// Grows the heap by kHugePageReserve at once (glibc pads a growth by M_TOP_PAD) and marks the new
// part for huge pages. Address space only: pages come when first touched.
void ReserveHugePageHeap() {
  if (mallopt(M_TOP_PAD, kHugePageReserve) == 0) return;
  // Larger than anything left at the top of a fresh heap, smaller than the mmap threshold: it
  // makes glibc grow the heap, and by the pad.
  void* probe = std::malloc(1 << 20);
  // The compiler may drop an unused malloc/free pair; this one must happen.
  asm volatile("" : : "r"(probe) : "memory");
  (void)mallopt(M_TOP_PAD, kTopPad);
  if (probe == nullptr) return;
  const auto page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  const auto begin = reinterpret_cast<uintptr_t>(probe) / page * page;
  const auto end = reinterpret_cast<uintptr_t>(sbrk(0));
  // A heap that could not grow (a data limit) serves the probe from a mapping of its own instead.
  if (end > begin && end - begin >= static_cast<uintptr_t>(kHugePageReserve)) {
    (void)madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);  // advice only
  }
  std::free(probe);
}

}  // namespace

void TuneAllocatorForTool() {
  // Failures leave glibc's defaults, which are correct, only slower.
  (void)mallopt(M_TRIM_THRESHOLD, kTrimThreshold);
  (void)mallopt(M_TOP_PAD, kTopPad);
  (void)mallopt(M_MMAP_THRESHOLD, kMmapThreshold);
  // One arena for every thread: a second thread (the result check that runs beside the save, the
  // interpreter's workers) would otherwise get an arena of its own and fault in fresh pages while
  // the main heap holds freed ones (onnx-convert on cnn-700: ~45 of ~190 page faults of the save).
  // Small blocks still come from each thread's cache without the lock.
  (void)mallopt(M_ARENA_MAX, 1);
  if constexpr (!kSanitized) ReserveHugePageHeap();
}

}  // namespace onnx_opt::cli
