// The C allocator's settings for a tool process: one model in, one out, then exit. The tools apply
// them at start (process_start.h); the benchmarks that measure what the tools do call it too.
#ifndef ONNX_OPT_PLATFORM_HEAP_TUNING_H_
#define ONNX_OPT_PLATFORM_HEAP_TUNING_H_

namespace onnx_opt::platform {

// glibc's defaults suit long-lived servers: the top of the heap goes back to the kernel as soon as
// 128 KiB of it is free, and every block over 128 KiB is a fresh mapping. A tool frees and
// allocates models' worth of memory between phases (parse, import, passes, export), so those
// defaults cost a system call and a page fault per 4 KiB each time the memory comes back. The heap
// is kept and grown in large steps instead; blocks of kMmapThreshold and more (large tensors)
// still get their own mapping, so that freeing them returns their pages at once. Threads share the
// one heap.
//
// The heap is also reserved up front (1 GiB of address space, no memory until touched) and marked
// for transparent huge pages: on a virtual machine a first touch of a 4 KiB page can cost 12 us,
// while a 2 MiB huge page is zeroed in ~130 us, so a heap the size of a model's IR faults in at a
// fiftieth of the cost. The reservation is never trimmed (the kernel would not re-mark the heap
// when it grows again); past it, the heap grows as usual. The heap's unaligned head below its first
// 2 MiB boundary is skipped, not used in 4 KiB pages. Does nothing under sanitizers, which replace
// malloc.
void TuneHeapForTool();

}  // namespace onnx_opt::platform

#endif  // ONNX_OPT_PLATFORM_HEAP_TUNING_H_
