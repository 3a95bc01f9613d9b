#include "ir/spill_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "platform/memory_pages.h"

namespace onnx_opt::ir {

// A range of a SpillFile, mapped private and read-only (the file is never written again there, so
// a dropped page is read back as it was).
class SpilledBytes final : public Buffer {
 public:
  SpilledBytes(std::shared_ptr<const SpillFile> file, uint64_t offset, void* addr, size_t size)
      : file_(std::move(file)), offset_(offset), addr_(addr), size_(size) {}
  ~SpilledBytes() override {
    if (size_ > 0) ::munmap(addr_, size_);
  }
  const char* data() const override { return static_cast<const char*>(addr_); }
  size_t size() const override { return size_; }
  void ReleasePages(const char* data, size_t size) const override {
    const uintptr_t lo =
        std::max(reinterpret_cast<uintptr_t>(data), reinterpret_cast<uintptr_t>(addr_));
    const uintptr_t hi = std::min(reinterpret_cast<uintptr_t>(data) + size,
                                  reinterpret_cast<uintptr_t>(addr_) + size_);
    if (hi > lo) platform::ReleaseMappedPages(reinterpret_cast<const void*>(lo), hi - lo);
  }
  // Gives the file's blocks under the whole pages of the range back to the file system (they read
  // as zeros from then on).
  void Discard(const char* data, size_t size) const override {
    const uint64_t page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
    const uint64_t begin = static_cast<uint64_t>(std::max(data, this->data()) - this->data());
    const uint64_t end = std::min<uint64_t>(begin + size, size_);
    const uint64_t lo = (begin + page - 1) / page * page;
    // The mapping's last page is the file's until the next write's page boundary: all of it goes.
    const uint64_t hi = end == size_ ? (end + page - 1) / page * page : end / page * page;
    ReleasePages(data, size);
    if (hi > lo) {
      ::fallocate(file_->fd_, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
                  static_cast<off_t>(offset_ + lo), static_cast<off_t>(hi - lo));
    }
  }

 private:
  std::shared_ptr<const SpillFile> file_;
  uint64_t offset_;  // of data() in the file, a multiple of the page size
  void* addr_;
  size_t size_;
};

absl::StatusOr<std::shared_ptr<SpillFile>> SpillFile::Create(const std::string& dir) {
  const std::string where = dir.empty() ? "." : dir;
  // O_TMPFILE: a file with no name from the start; mkstemp + unlink where the file system lacks it.
  int fd = ::open(where.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd < 0) {
    std::string path = where + "/.onnx-opt-spill.XXXXXX";
    fd = ::mkostemp(path.data(), O_CLOEXEC);
    if (fd < 0) {
      return absl::InternalError(
          absl::StrCat("cannot create a temporary file in '", where, "': ", std::strerror(errno)));
    }
    ::unlink(path.c_str());
  }
  return std::shared_ptr<SpillFile>(new SpillFile(fd));
}

SpillFile::~SpillFile() { ::close(fd_); }

absl::StatusOr<std::shared_ptr<const Buffer>> SpillFile::Write(std::string_view bytes) {
  const uint64_t page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
  const uint64_t offset = (end_ + page - 1) / page * page;
  for (size_t done = 0; done < bytes.size();) {
    const ssize_t n =
        ::pwrite(fd_, bytes.data() + done, bytes.size() - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      return absl::ResourceExhaustedError(absl::StrCat(
          "cannot write ", bytes.size(), " bytes to a temporary file: ", std::strerror(errno)));
    }
    done += static_cast<size_t>(n);
  }
  end_ = offset + bytes.size();
  void* addr = nullptr;
  if (!bytes.empty()) {
    addr = ::mmap(nullptr, bytes.size(), PROT_READ, MAP_PRIVATE, fd_, static_cast<off_t>(offset));
    if (addr == MAP_FAILED) {
      return absl::InternalError(
          absl::StrCat("cannot map a temporary file: ", std::strerror(errno)));
    }
  }
  return std::make_shared<SpilledBytes>(shared_from_this(), offset, addr, bytes.size());
}

}  // namespace onnx_opt::ir
