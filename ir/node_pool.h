// Where Node and Value objects live: slabs of consecutive slots, one pool per kind, handed out in
// order, so that nodes created one after another (a loaded model, in file order) sit next to each
// other in memory, and so do their output values. Walking a large graph's node list (and looking at
// each node's outputs) then reads memory in strides the hardware prefetches instead of chasing
// pointers across the heap (see the "walk" benchmark in tools/bench). Freed slots are reused lowest
// address first, so a model built after another died is laid out as well as the first; slabs are
// kept for the life of the process. Under AddressSanitizer both come from the ordinary
// heap, so that use-after-free is still caught.
#ifndef ONNX_OPT_IR_NODE_POOL_H_
#define ONNX_OPT_IR_NODE_POOL_H_

#include <cstddef>

namespace onnx_opt::ir {

// False under AddressSanitizer, where both kinds come from the ordinary heap.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kSlabPoolsEnabled = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kSlabPoolsEnabled = false;
#else
inline constexpr bool kSlabPoolsEnabled = true;
#endif
#else
inline constexpr bool kSlabPoolsEnabled = true;
#endif

void* AllocateNodeSlot(size_t size);
void FreeNodeSlot(void* slot, size_t size);
void* AllocateValueSlot(size_t size);
void FreeValueSlot(void* slot, size_t size);

}  // namespace onnx_opt::ir

#endif  // ONNX_OPT_IR_NODE_POOL_H_
