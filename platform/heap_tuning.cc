#include "platform/heap_tuning.h"

#include <malloc.h>
#include <unistd.h>

#include <climits>
#include <cstdint>
#include <cstdlib>

#include "platform/memory_pages.h"

namespace onnx_opt::platform {
namespace {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer) || \
    __has_feature(thread_sanitizer)
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
constexpr uintptr_t kHugePage = kHugePageBytes;
// Above the reservation, so that freeing never gives its top back (see the header).
constexpr int kTrimThreshold = INT_MAX;

// Grows the heap by kHugePageReserve at once (glibc pads a growth by M_TOP_PAD) and marks the new
// part for huge pages. Address space only: pages come when first touched.
//
// Only whole, aligned 2 MiB ranges become huge pages, and a range that already has a 4 KiB page
// never does. The heap starts anywhere and is used from the bottom, so the part below its first
// 2 MiB boundary would come 4 KiB at a time (~300 faults, ~6 ms, of onnx-convert's load of a 5 MB
// model). The block that makes the heap grow is therefore sized to end just below a boundary and
// kept: it is never touched past its header, costs address space only, and everything allocated
// after it starts on huge pages. glibc writes the header of the rest of the heap right after the
// block, so the block must not end past the boundary, or that write would claim the range above it
// for 4 KiB pages before the advice is given.
void ReserveHugePageHeap() {
  const auto top_end = reinterpret_cast<uintptr_t>(sbrk(0));
  const size_t top_size = mallinfo2().keepcost;  // the free block at the top of the heap
  if (top_end == static_cast<uintptr_t>(-1) || top_size > top_end) return;
  const uintptr_t top_start = top_end - top_size;
  // At least 64 KiB past the current top, so that the block cannot be served without growing.
  const uintptr_t boundary = (top_end + (64 << 10) + kHugePage - 1) & ~(kHugePage - 1);
  // The block's header (16 bytes) sits at top_start; the next header goes at top_start + chunk,
  // where chunk is the request plus 8, rounded up to 16. 64 bytes of slack keep it below.
  const size_t request = boundary - top_start - 64;
  if (mallopt(M_TOP_PAD, kHugePageReserve) == 0) return;
  void* skipped_head = std::malloc(request);
  // The compiler may drop an unused malloc; this one must happen.
  asm volatile("" : : "r"(skipped_head) : "memory");
  (void)mallopt(M_TOP_PAD, kTopPad);
  if (skipped_head == nullptr) return;
  const auto head = reinterpret_cast<uintptr_t>(skipped_head);
  const auto end = reinterpret_cast<uintptr_t>(sbrk(0));
  // A heap that could not grow (a data limit) serves the block from a mapping of its own, and a
  // free block elsewhere in the heap may serve it without growth: then there is nothing to mark.
  if (head + request > boundary || end < boundary ||
      end - boundary < static_cast<uintptr_t>(kHugePageReserve)) {
    std::free(skipped_head);
    return;
  }
  (void)AdviseHugePages(reinterpret_cast<void*>(boundary), end - boundary);
}

}  // namespace

void TuneHeapForTool() {
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

}  // namespace onnx_opt::platform
