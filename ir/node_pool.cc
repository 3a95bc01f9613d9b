#include "ir/node_pool.h"

#include <memory>
#include <mutex>
#include <vector>

#include "glog/logging.h"

#if defined(__SANITIZE_ADDRESS__)
#define ONNX_OPT_NODE_POOL 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ONNX_OPT_NODE_POOL 0
#endif
#endif
#ifndef ONNX_OPT_NODE_POOL
#define ONNX_OPT_NODE_POOL 1
#endif

namespace onnx_opt::ir {
namespace {

constexpr size_t kSlotsPerSlab = 4096;

class Pool {
 public:
  void* Allocate(size_t size) {
    std::lock_guard<std::mutex> lock(mu_);
    if (slot_size_ == 0) slot_size_ = RoundUp(size);
    CHECK_LE(size, slot_size_) << "slab pool used for objects of different sizes";
    if (!free_.empty()) {
      void* slot = free_.back();
      free_.pop_back();
      return slot;
    }
    if (slabs_.empty() || used_ == kSlotsPerSlab) {
      // new[] aligns for any fundamental type, which is all a Node needs.
      slabs_.push_back(std::unique_ptr<std::byte[]>(new std::byte[slot_size_ * kSlotsPerSlab]));
      used_ = 0;
    }
    return slabs_.back().get() + slot_size_ * used_++;
  }

  void Free(void* slot) {
    std::lock_guard<std::mutex> lock(mu_);
    free_.push_back(slot);
  }

 private:
  static size_t RoundUp(size_t size) {
    const size_t a = alignof(std::max_align_t);
    return (size + a - 1) / a * a;
  }

  std::mutex mu_;
  size_t slot_size_ = 0;
  size_t used_ = 0;
  std::vector<std::unique_ptr<std::byte[]>> slabs_;
  std::vector<void*> free_;
};

Pool& TheNodePool() {
  static auto* pool = new Pool();  // never destroyed: nodes may be freed during static destruction
  return *pool;
}

Pool& TheValuePool() {
  static auto* pool = new Pool();  // never destroyed, like the node pool
  return *pool;
}

}  // namespace

void* AllocateNodeSlot(size_t size) {
  if constexpr (ONNX_OPT_NODE_POOL) return TheNodePool().Allocate(size);
  return ::operator new(size);
}

void FreeNodeSlot(void* slot, size_t size) {
  if constexpr (ONNX_OPT_NODE_POOL) {
    TheNodePool().Free(slot);
    return;
  }
  ::operator delete(slot, size);
}

void* AllocateValueSlot(size_t size) {
  if constexpr (ONNX_OPT_NODE_POOL) return TheValuePool().Allocate(size);
  return ::operator new(size);
}

void FreeValueSlot(void* slot, size_t size) {
  if constexpr (ONNX_OPT_NODE_POOL) {
    TheValuePool().Free(slot);
    return;
  }
  ::operator delete(slot, size);
}

}  // namespace onnx_opt::ir
