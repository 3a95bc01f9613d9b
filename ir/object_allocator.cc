#include "ir/object_allocator.h"

#include <atomic>
#include <new>

namespace onnx_opt::ir {
namespace {

std::atomic<ObjectAllocator*> installed{nullptr};
std::atomic<bool> any_created{false};

}  // namespace

absl::Status SetObjectAllocator(ObjectAllocator* allocator) {
  if (any_created.load(std::memory_order_acquire)) {
    return absl::FailedPreconditionError(
        "the IR's object allocator can only be set before the first node or value is created");
  }
  installed.store(allocator, std::memory_order_release);
  return absl::OkStatus();
}

void* AllocateObject(ObjectKind kind, size_t size) {
  // Checked before stored: the flag's cache line is then only read once it is set.
  if (!any_created.load(std::memory_order_relaxed))
    any_created.store(true, std::memory_order_release);
  ObjectAllocator* allocator = installed.load(std::memory_order_acquire);
  return allocator != nullptr ? allocator->Allocate(kind, size) : ::operator new(size);
}

void FreeObject(ObjectKind kind, void* object, size_t size) {
  ObjectAllocator* allocator = installed.load(std::memory_order_acquire);
  if (allocator != nullptr) {
    allocator->Free(kind, object, size);
  } else {
    ::operator delete(object, size);
  }
}

}  // namespace onnx_opt::ir
