#include "ir/buffer.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace onnx_opt::ir {

absl::StatusOr<std::shared_ptr<MappedFile>> MappedFile::Open(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return absl::NotFoundError(absl::StrCat("cannot open '", path, "': ", std::strerror(errno)));
  }
  struct stat st;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return absl::InvalidArgumentError(absl::StrCat("'", path, "' is not a regular file"));
  }
  const size_t size = static_cast<size_t>(st.st_size);
  void* addr = nullptr;
  if (size > 0) {
    // A file under kKeepResidentBelow is read whole (parse, then save or hash): its page table is
    // filled in one call instead of a fault per 64 KiB. Larger ones fault in as they are read, so
    // that their pages can be let go behind the reader.
    const int populate = size < kKeepResidentBelow ? MAP_POPULATE : 0;
    addr = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE | populate, fd, 0);
    if (addr == MAP_FAILED) {
      const int err = errno;
      ::close(fd);
      return absl::ResourceExhaustedError(
          absl::StrCat("cannot map '", path, "': ", std::strerror(err)));
    }
  }
  ::close(fd);
  return std::shared_ptr<MappedFile>(new MappedFile(path, addr, size, st.st_dev, st.st_ino));
}

MappedFile::~MappedFile() {
  if (addr_ != nullptr) ::munmap(addr_, size_);
}

int MappedFile::Reopen() const {
  const int fd = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  struct stat st;
  if (::fstat(fd, &st) != 0 || st.st_dev != device_ || st.st_ino != inode_ ||
      static_cast<uint64_t>(st.st_size) != size_) {
    ::close(fd);
    return -1;
  }
  return fd;
}

void MappedFile::ReleasePages(const char* data, size_t size) const {
  // A small file stays resident anyway: letting go of its pages only makes the next reader (the
  // next pass, the save) fault them back in, a system call and a fault per tensor for nothing.
  if (size_ < kKeepResidentBelow) return;
  static const uintptr_t page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
  const uintptr_t lo = std::max(reinterpret_cast<uintptr_t>(data), reinterpret_cast<uintptr_t>(addr_));
  const uintptr_t hi = std::min(reinterpret_cast<uintptr_t>(data) + size, reinterpret_cast<uintptr_t>(addr_) + size_);
  // Only whole pages inside the range: a neighbour sharing a page may still be in use.
  const uintptr_t begin = (lo + page - 1) & ~(page - 1);
  const uintptr_t end = hi & ~(page - 1);
  // Safe because the mapping is read-only and private, so no page was ever written: a dropped page
  // is read again from the file.
  if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_DONTNEED);
}

void ScanReleasing(const Buffer* buffer, const char* data, size_t size,
                   absl::FunctionRef<void(const char* chunk, size_t n)> fn) {
  for (size_t done = 0; done < size;) {
    const size_t n = std::min(kScanChunk, size - done);
    fn(data + done, n);
    if (buffer != nullptr) buffer->ReleasePages(data + done, n);
    done += n;
  }
}

}  // namespace onnx_opt::ir
