#include "ir/buffer.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "platform/memory_pages.h"

namespace onnx_opt::ir {

namespace {

// Opens `path` read-only and checks that it is a regular file; the caller closes the result.
absl::StatusOr<int> OpenRegularFile(const std::string& path, struct stat* st) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return absl::NotFoundError(absl::StrCat("cannot open '", path, "': ", std::strerror(errno)));
  }
  if (::fstat(fd, st) != 0 || !S_ISREG(st->st_mode)) {
    ::close(fd);
    return absl::InvalidArgumentError(absl::StrCat("'", path, "' is not a regular file"));
  }
  return fd;
}

constexpr uintptr_t kHugePage = platform::kHugePageBytes;

}  // namespace

absl::StatusOr<std::shared_ptr<MappedFile>> MappedFile::Open(const std::string& path) {
  struct stat st;
  absl::StatusOr<int> fd = OpenRegularFile(path, &st);
  if (!fd.ok()) return fd.status();
  return FromDescriptor(*fd, st, path);
}

absl::StatusOr<std::shared_ptr<MappedFile>> MappedFile::FromDescriptor(int fd,
                                                                       const struct stat& st,
                                                                       const std::string& path) {
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
  const uintptr_t lo =
      std::max(reinterpret_cast<uintptr_t>(data), reinterpret_cast<uintptr_t>(addr_));
  const uintptr_t hi = std::min(reinterpret_cast<uintptr_t>(data) + size,
                                reinterpret_cast<uintptr_t>(addr_) + size_);
  // The mapping is read-only and private, so no page was ever written: a dropped page is read again
  // from the file.
  if (hi > lo) platform::ReleaseMappedPages(reinterpret_cast<const void*>(lo), hi - lo);
}

absl::StatusOr<std::shared_ptr<HugePageFile>> HugePageFile::Read(int fd, size_t size,
                                                                 const std::string& path) {
  if (size == 0 || !platform::TransparentHugePagesAvailable()) return nullptr;
  // Room to start on a 2 MiB boundary; the unaligned ends are unmapped again.
  const size_t whole = (size + kHugePage - 1) & ~(kHugePage - 1);
  const size_t reserved = whole + kHugePage;
  void* raw = ::mmap(nullptr, reserved, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  const auto begin = reinterpret_cast<uintptr_t>(raw);
  const uintptr_t aligned = (begin + kHugePage - 1) & ~(kHugePage - 1);
  if (aligned > begin) ::munmap(raw, aligned - begin);
  if (begin + reserved > aligned + whole)
    ::munmap(reinterpret_cast<void*>(aligned + whole), begin + reserved - aligned - whole);
  char* data = reinterpret_cast<char*>(aligned);
  // From here the mapping is owned: every return below frees it.
  std::shared_ptr<HugePageFile> file(new HugePageFile(data, whole, data, size));
  if (!platform::AdviseHugePages(data, whole)) return nullptr;
  for (size_t done = 0; done < size;) {
    const ssize_t n = ::read(fd, data + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0)
      return absl::DataLossError(absl::StrCat("cannot read '", path, "': ", std::strerror(errno)));
    if (n == 0)
      return absl::DataLossError(
          absl::StrCat("cannot read '", path, "': it shrank while being read"));
    done += static_cast<size_t>(n);
  }
  // Read-only from here, as a mapped file is: a stray write through a tensor view faults.
  (void)::mprotect(data, whole, PROT_READ);
  return file;
}

HugePageFile::~HugePageFile() { ::munmap(mapping_, mapping_size_); }

absl::StatusOr<std::shared_ptr<const Buffer>> OpenFileBytes(const std::string& path) {
  struct stat st;
  absl::StatusOr<int> fd = OpenRegularFile(path, &st);
  if (!fd.ok()) return fd.status();
  const auto size = static_cast<size_t>(st.st_size);
  if (size >= kReadIntoHugePagesFrom && size < MappedFile::kKeepResidentBelow) {
    absl::StatusOr<std::shared_ptr<HugePageFile>> read = HugePageFile::Read(*fd, size, path);
    if (!read.ok() || *read != nullptr) {
      ::close(*fd);
      if (!read.ok()) return read.status();
      return std::shared_ptr<const Buffer>(*std::move(read));
    }
  }
  absl::StatusOr<std::shared_ptr<MappedFile>> mapped = MappedFile::FromDescriptor(*fd, st, path);
  if (!mapped.ok()) return mapped.status();
  return std::shared_ptr<const Buffer>(*std::move(mapped));
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
