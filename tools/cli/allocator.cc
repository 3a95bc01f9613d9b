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
}

}  // namespace onnx_opt::cli
