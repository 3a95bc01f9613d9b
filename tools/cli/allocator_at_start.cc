// Tunes the heap before any static initializer runs (see allocator.h), from the executable's
// .preinit_array, which the C runtime calls before .init_array. Static initializers (protobuf's
// descriptors, gflags' registry, glog, the iostreams) otherwise allocate ~80 KiB first, on the
// heap's bottom 4 KiB pages: ~20 first-touch faults (~0.4 ms of a tool's start on the machine this
// was measured on), where one huge page is ~0.13 ms.
#include <cstring>

#include "tools/cli/allocator.h"

namespace onnx_opt::cli {
namespace {

// --version prints a line and exits: it allocates next to nothing, so the huge page the heap would
// start on is not worth zeroing.
void TuneAllocatorAtStart(int argc, char** argv, char** /*envp*/) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--version") == 0 || std::strcmp(argv[i], "-version") == 0) return;
  }
  TuneAllocatorForTool();
}

}  // namespace
}  // namespace onnx_opt::cli

// Only an executable has a .preinit_array; this library is linked only into the tools.
__attribute__((section(".preinit_array"), used)) static void (*const kTuneAllocatorAtStart)(int, char**, char**) =
    &onnx_opt::cli::TuneAllocatorAtStart;
