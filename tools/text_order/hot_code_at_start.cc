// Fills the page table for the tools' hot code in one system call, before the static initializers
// run it (from the executable's .preinit_array; list it first among a tool's deps so that it runs
// before the other entries there). On the VM the tools are measured on, a fault on the executable's
// pages costs ~15 us (the kernel then maps the 16 pages around it) and a start took ~70 of them;
// with the page table filled first (MADV_POPULATE_READ, ~0.15-0.3 us a page) only the hypervisor's
// cheaper first touch of each page remains. `onnx-convert --opset=21` on cnn-700 ~0.6 ms faster,
// `--version` ~0.3 ms (issue 16's note has the runs). What libc runs before .preinit_array
// (~15 faults) is not helped.
//
// What is hot comes from the layout the linker is asked for (tools/text_order/text_order.txt): the
// system libraries' code (their archives have no section per function, so it cannot be ordered)
// and the listed functions come first, up to the end marker below; every other function of ours
// follows it. The read-only data after the code is filled in too, up to the end of the executable
// segment. On a cold start the whole range is read from disk at once (checking first what is cached,
// mincore, costs about as much as filling the page table); a kernel without MADV_POPULATE_READ
// (Linux < 5.14) refuses it and nothing changes. Linked into the statically linked tools only
// (tools/tool_linkopts.bzl), and checked by tests/hot_code_layout_test.sh.
#include <sys/mman.h>

#include <cstdint>

extern "C" {
// Placed right after the listed functions by text_order.txt (its last name before the catch-all).
__attribute__((noinline, used)) void onnx_opt_hot_text_end() { __asm__ volatile(""); }
// Defined by the linker: the executable's ELF header (the start of its first segment) and the end
// of the segment that holds the code and the read-only data.
extern const char __ehdr_start[];
extern const char etext[];
// The C runtime's .fini section, which the linker places between the code and the read-only data.
void _fini();
}

namespace onnx_opt::text_order {
namespace {

constexpr uintptr_t kPage = 4096;

void Populate(uintptr_t begin, uintptr_t end) {
  begin &= ~(kPage - 1);
  end = (end + kPage - 1) & ~(kPage - 1);
  if (end > begin) (void)::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_POPULATE_READ);
}

void PopulateHotCode(int /*argc*/, char** /*argv*/, char** /*envp*/) {
  const auto start = reinterpret_cast<uintptr_t>(__ehdr_start);
  const auto hot_end = reinterpret_cast<uintptr_t>(&onnx_opt_hot_text_end);
  const auto data = reinterpret_cast<uintptr_t>(&_fini);
  const auto end = reinterpret_cast<uintptr_t>(etext);
  // A layout other than the one asked for (another linker, no ordering file) leaves everything as is.
  if (!(start < hot_end && hot_end < data && data < end)) return;
  Populate(start, hot_end);
  Populate(data, end);
}

}  // namespace
}  // namespace onnx_opt::text_order

__attribute__((section(".preinit_array"), used)) static void (*const kPopulateHotCode)(int, char**, char**) =
    &onnx_opt::text_order::PopulateHotCode;
