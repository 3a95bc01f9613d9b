#include "interpreter/tensor_limit.h"

#include <unistd.h>

#include <atomic>

namespace onnx_opt::interpreter {
namespace {

uint64_t PhysicalMemoryBytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page_size <= 0) return uint64_t{1} << 40;
  return static_cast<uint64_t>(pages) * static_cast<uint64_t>(page_size);
}

std::atomic<uint64_t>& Limit() {
  static std::atomic<uint64_t> limit{PhysicalMemoryBytes()};
  return limit;
}

}  // namespace

uint64_t MaxTensorBytes() { return Limit().load(std::memory_order_relaxed); }
void SetMaxTensorBytes(uint64_t bytes) { Limit().store(bytes, std::memory_order_relaxed); }

}  // namespace onnx_opt::interpreter
