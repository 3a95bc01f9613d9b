// Immutable byte storage shared by tensors: bytes moved out of a parsed file, or an mmap of an external
// data file. Tensors hold a view (buffer, offset, size), so loading never copies large weights.
#ifndef ONNX_OPT_IR_BUFFER_H_
#define ONNX_OPT_IR_BUFFER_H_

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
  explicit HeapBuffer(size_t size) : bytes_(std::make_unique_for_overwrite<char[]>(size)), size_(size) {}
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
  // The mapped file opened read-only again (offsets in it are offsets from data()), so its bytes can
  // be copied file to file without passing through memory; -1 when `path` no longer names the same
  // file. The caller closes it. (Not kept open: a model may have thousands of external files.)
  int Reopen() const;

 private:
  MappedFile(std::string path, void* addr, size_t size, uint64_t device, uint64_t inode)
      : path_(std::move(path)), addr_(addr), size_(size), device_(device), inode_(inode) {}

  std::string path_;
  void* addr_;
  size_t size_;
  uint64_t device_;
  uint64_t inode_;
};

}  // namespace onnx_opt::ir

#endif  // ONNX_OPT_IR_BUFFER_H_
