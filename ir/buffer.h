// Immutable byte storage shared by tensors: bytes moved out of a parsed file, a model file read
// whole, or an mmap of a file. Tensors hold a view (buffer, offset, size), so loading never copies
// large weights.
#ifndef ONNX_OPT_IR_BUFFER_H_
#define ONNX_OPT_IR_BUFFER_H_

#include <sys/stat.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"

namespace onnx_opt::ir {

class Buffer {
 public:
  virtual ~Buffer() = default;
  virtual const char* data() const = 0;
  virtual size_t size() const = 0;
  // A hint that bytes [data, data + size) of this buffer are done with for now. A mapped file lets
  // go of the whole pages inside the range (they are read from the file again when next touched),
  // so scanning a huge mapping does not keep it resident; memory-backed buffers ignore it.
  virtual void ReleasePages(const char* data, size_t size) const {}
  // A promise that bytes [data, data + size) of this buffer are never read again (a save that is
  // the model's last use, see SaveOptions::discard_written): a spilled buffer (ir/spill_file.h)
  // gives the disk under them back, so its bytes and the saved copy need not fit on disk together.
  // Others ignore it.
  virtual void Discard(const char* data, size_t size) const {}
};

// Calls fn on [data, data + size) of `buffer` in pieces of kScanChunk bytes (the last one shorter)
// and releases each piece's pages once fn has seen it: the one way to read a large tensor whole
// (hashing, comparing, copying) without making all of it resident.
inline constexpr size_t kScanChunk = size_t{4} << 20;
void ScanReleasing(const Buffer* buffer, const char* data, size_t size,
                   absl::FunctionRef<void(const char* chunk, size_t n)> fn);

// Owns a std::string (typically moved out of a protobuf message, so no copy is made).
class StringBuffer final : public Buffer {
 public:
  explicit StringBuffer(std::string bytes) : bytes_(std::move(bytes)) {}
  const char* data() const override { return bytes_.data(); }
  size_t size() const override { return bytes_.size(); }

 private:
  std::string bytes_;
};

// Bytes allocated without being zeroed, for a producer that writes every one of them before anyone
// reads them (Tensor::AllocateRaw).
class HeapBuffer final : public Buffer {
 public:
  explicit HeapBuffer(size_t size)
      : bytes_(std::make_unique_for_overwrite<char[]>(size)), size_(size) {}
  const char* data() const override { return bytes_.get(); }
  size_t size() const override { return size_; }
  char* mutable_data() { return bytes_.get(); }

 private:
  std::unique_ptr<char[]> bytes_;
  size_t size_;
};

// A read-only, private mmap of a whole file.
class MappedFile final : public Buffer {
 public:
  static absl::StatusOr<std::shared_ptr<MappedFile>> Open(const std::string& path);
  ~MappedFile() override;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  const char* data() const override { return static_cast<const char*>(addr_); }
  size_t size() const override { return size_; }
  // Ignored for files under kKeepResidentBelow bytes.
  void ReleasePages(const char* data, size_t size) const override;
  static constexpr size_t kKeepResidentBelow = size_t{8} << 20;
  const std::string& path() const { return path_; }
  // The mapped file opened read-only again (offsets in it are offsets from data()), so its bytes
  // can be copied file to file without passing through memory; -1 when `path` no longer names the
  // same file. The caller closes it. (Not kept open: a model may have thousands of external files.)
  int Reopen() const;

 private:
  friend absl::StatusOr<std::shared_ptr<const Buffer>> OpenFileBytes(const std::string& path);
  // Maps the open regular file `fd` of `st`; closes fd either way.
  static absl::StatusOr<std::shared_ptr<MappedFile>> FromDescriptor(int fd, const struct stat& st,
                                                                    const std::string& path);
  MappedFile(std::string path, void* addr, size_t size, uint64_t device, uint64_t inode)
      : path_(std::move(path)), addr_(addr), size_(size), device_(device), inode_(inode) {}

  std::string path_;
  void* addr_;
  size_t size_;
  uint64_t device_;
  uint64_t inode_;
};

// A whole file read into anonymous memory laid on transparent huge pages. On a virtual machine
// every 4 KiB page of a mapping is paid for on its first touch, and the kernel pays again per page
// when it copies from one (a save writing tensors out): on the machine this was measured on, a
// 5.6 MB model mapped cost ~2 ms to scan and ~2.4 ms to write back out, and read into 2 MiB pages
// 0.8 ms to read, 0.13 ms to scan and 1.0 ms to write.
class HugePageFile final : public Buffer {
 public:
  // Reads `size` bytes from `fd` (at its current offset). nullptr, not an error, when this process
  // cannot get huge pages (transparent huge pages off): the caller maps the file instead.
  static absl::StatusOr<std::shared_ptr<HugePageFile>> Read(int fd, size_t size,
                                                            const std::string& path);
  ~HugePageFile() override;
  HugePageFile(const HugePageFile&) = delete;
  HugePageFile& operator=(const HugePageFile&) = delete;

  const char* data() const override { return data_; }
  size_t size() const override { return size_; }

 private:
  HugePageFile(void* mapping, size_t mapping_size, const char* data, size_t size)
      : mapping_(mapping), mapping_size_(mapping_size), data_(data), size_(size) {}

  void* mapping_;
  size_t mapping_size_;
  const char* data_;
  size_t size_;
};

// The one way to get a whole model file's bytes: a HugePageFile for sizes in
// [kReadIntoHugePagesFrom, MappedFile::kKeepResidentBelow), which are read whole anyway; otherwise
// a MappedFile (a huge page is zeroed whole, ~130 us, so a smaller file maps cheaper; a larger one
// is mapped so that its pages can be let go behind a reader).
inline constexpr size_t kReadIntoHugePagesFrom = size_t{1} << 20;
absl::StatusOr<std::shared_ptr<const Buffer>> OpenFileBytes(const std::string& path);

}  // namespace onnx_opt::ir

#endif  // ONNX_OPT_IR_BUFFER_H_
