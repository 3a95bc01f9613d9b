#include "tools/cli/allocator.h"

#include <malloc.h>

namespace onnx_opt::cli {
namespace {

constexpr int kTrimThreshold = 64 << 20;
constexpr int kTopPad = 16 << 20;
constexpr int kMmapThreshold = 32 << 20;

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
}

}  // namespace onnx_opt::cli
