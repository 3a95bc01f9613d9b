// A pool of equal-sized slots in slabs, handed out in order, so that objects created one after
// another sit next to each other in memory. The tools give the IR two (nodes, values) through
// tools/cli/ir_slab_pools.h: a walk over a large graph's node list, looking at each node's outputs,
// then reads memory in strides the hardware prefetches instead of chasing pointers across the heap
// (the "walk" benchmark in tools/bench, docs/performance.md). Freed slots are reused lowest address
// first, so a model built after another died is laid out as well as the first. Slabs are kept until
// the pool is destroyed.
#ifndef ONNX_OPT_PLATFORM_SLAB_POOL_H_
#define ONNX_OPT_PLATFORM_SLAB_POOL_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <vector>

namespace onnx_opt::platform {

// False under AddressSanitizer, where objects should come from the ordinary heap so that
// use-after-free is still caught; the pool itself works either way.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kSlabPoolsPay = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kSlabPoolsPay = false;
#else
inline constexpr bool kSlabPoolsPay = true;
#endif
#else
inline constexpr bool kSlabPoolsPay = true;
#endif

// Thread-safe. The first request fixes the slot size; later requests may not be larger.
class SlabPool {
 public:
  SlabPool() = default;
  SlabPool(const SlabPool&) = delete;
  SlabPool& operator=(const SlabPool&) = delete;

  void* Allocate(size_t size);
  void Free(void* slot);

 private:
  struct Slab {
    struct FreeMemory {
      void operator()(std::byte* p) const;
    };
    std::unique_ptr<std::byte, FreeMemory> memory;
    size_t slots = 0;
    std::vector<uint64_t> free_bits;  // bit set: slot free
    size_t free_count = 0;
    size_t first_free_word = 0;  // no free slot before this word
  };

  void AddSlab();

  std::mutex mu_;
  size_t slot_size_ = 0;
  std::vector<Slab> slabs_;                        // oldest first
  std::set<size_t> with_free_;                     // indices of slabs with a free slot
  std::map<const std::byte*, size_t> by_address_;  // slab start -> index
};

}  // namespace onnx_opt::platform

#endif  // ONNX_OPT_PLATFORM_SLAB_POOL_H_
