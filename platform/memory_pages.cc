#include "platform/memory_pages.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <string_view>

namespace onnx_opt::platform {

void ReleaseMappedPages(const void* data, size_t size) {
  static const uintptr_t page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
  const auto lo = reinterpret_cast<uintptr_t>(data);
  const uintptr_t begin = (lo + page - 1) & ~(page - 1);
  const uintptr_t end = (lo + size) & ~(page - 1);
  if (end > begin) (void)::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_DONTNEED);
}

bool TransparentHugePagesAvailable() {
  static const bool available = [] {
    const int fd = ::open("/sys/kernel/mm/transparent_hugepage/enabled", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    char text[128] = {};
    const ssize_t n = ::read(fd, text, sizeof(text) - 1);
    ::close(fd);
    if (n <= 0) return false;
    const std::string_view setting(text, static_cast<size_t>(n));
    return setting.find("[always]") != std::string_view::npos ||
           setting.find("[madvise]") != std::string_view::npos;
  }();
  return available;
}

bool AdviseHugePages(void* data, size_t size) {
#ifdef MADV_HUGEPAGE
  return ::madvise(data, size, MADV_HUGEPAGE) == 0;
#else
  return false;
#endif
}

size_t AvailableMemoryBytes() {
  const int fd = ::open("/proc/meminfo", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  char text[4096] = {};
  const ssize_t n = ::read(fd, text, sizeof(text) - 1);
  ::close(fd);
  if (n <= 0) return 0;
  const std::string_view info(text, static_cast<size_t>(n));
  constexpr std::string_view kField = "MemAvailable:";
  const size_t at = info.find(kField);
  if (at == std::string_view::npos) return 0;
  size_t kib = 0;
  for (size_t i = at + kField.size(); i < info.size() && info[i] != '\n'; ++i) {
    if (info[i] >= '0' && info[i] <= '9') kib = kib * 10 + static_cast<size_t>(info[i] - '0');
  }
  return kib * 1024;
}

}  // namespace onnx_opt::platform
