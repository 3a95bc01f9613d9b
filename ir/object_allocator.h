// Where the IR's Node and Value objects get their memory. By default from the ordinary heap, so the
// library stays embeddable (the Python module lives in someone else's process). A tool may install
// another allocator at start, before it creates its first node or value: the tools install slab
// pools that keep consecutively created objects next to each other (tools/cli/ir_slab_pools.h over
// platform/slab_pool.h), which makes walks over large graphs stream memory instead of chasing
// pointers.
#ifndef ONNX_OPT_IR_OBJECT_ALLOCATOR_H_
#define ONNX_OPT_IR_OBJECT_ALLOCATOR_H_

#include <cstddef>

#include "absl/status/status.h"

namespace onnx_opt::ir {

enum class ObjectKind { kNode, kValue };

class ObjectAllocator {
 public:
  virtual ~ObjectAllocator() = default;
  // Thread-safe: graphs are built on several threads (the interpreter's If bodies, the tests).
  virtual void* Allocate(ObjectKind kind, size_t size) = 0;
  virtual void Free(ObjectKind kind, void* object, size_t size) = 0;
};

// Makes `allocator` (not owned; it must live for the rest of the process, since objects may be
// freed during static destruction) the source of every Node and Value. An object must go back to
// the allocator that made it, so this fails once any node or value has been created.
absl::Status SetObjectAllocator(ObjectAllocator* allocator);

// Used by Node's and Value's operator new and delete.
void* AllocateObject(ObjectKind kind, size_t size);
void FreeObject(ObjectKind kind, void* object, size_t size);

}  // namespace onnx_opt::ir

#endif  // ONNX_OPT_IR_OBJECT_ALLOCATOR_H_
