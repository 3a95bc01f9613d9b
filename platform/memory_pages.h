// The operating-system calls behind the IR's memory, kept here so that the IR itself stays portable
// C++: letting go of the resident pages of a read-only file mapping, and transparent huge pages for
// large blocks the IR fills itself. Each call is advice: a kernel that refuses it changes speed,
// not results.
#ifndef ONNX_OPT_PLATFORM_MEMORY_PAGES_H_
#define ONNX_OPT_PLATFORM_MEMORY_PAGES_H_

#include <cstddef>

namespace onnx_opt::platform {

inline constexpr size_t kHugePageBytes = size_t{2} << 20;

// Drops the resident pages lying wholly inside [data, data + size) of a private, read-only file
// mapping (a page shared with a neighbour stays). Nothing was ever written to such pages, so the
// next touch reads them from the file again.
void ReleaseMappedPages(const void* data, size_t size);

// Whether the kernel gives huge pages to memory marked for them (its transparent-huge-page setting
// is "always" or "madvise"). Read once.
bool TransparentHugePagesAvailable();

// Marks [data, data + size) for transparent huge pages; only whole, 2 MiB-aligned ranges inside it
// can become one. False when the kernel refuses.
bool AdviseHugePages(void* data, size_t size);

// Bytes of memory the system can give this process without swapping (Linux's MemAvailable: free
// memory and what the page cache can drop); 0 when it cannot tell.
size_t AvailableMemoryBytes();

}  // namespace onnx_opt::platform

#endif  // ONNX_OPT_PLATFORM_MEMORY_PAGES_H_
