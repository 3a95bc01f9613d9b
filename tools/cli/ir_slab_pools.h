// The tools' choice of memory for the IR's nodes and values: slab pools (platform/slab_pool.h) that
// keep objects created one after another next to each other, so that walks over large graphs stream
// memory. Library users (the Python module) keep the ordinary heap.
#ifndef ONNX_OPT_TOOLS_CLI_IR_SLAB_POOLS_H_
#define ONNX_OPT_TOOLS_CLI_IR_SLAB_POOLS_H_

namespace onnx_opt::cli {

// Installs the pools as the IR's object allocator (ir/object_allocator.h). Call at start, before
// any node or value exists; later calls do nothing. Under AddressSanitizer objects stay on the
// ordinary heap, where use-after-free is caught.
void UseSlabPoolsForIr();

}  // namespace onnx_opt::cli

#endif  // ONNX_OPT_TOOLS_CLI_IR_SLAB_POOLS_H_
