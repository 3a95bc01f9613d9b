// Immutable byte storage shared by tensors: bytes moved out of a parsed file, or an mmap of an external
// data file. Tensors hold a view (buffer, offset, size), so loading never copies large weights.
#ifndef ONNX_OPT_IR_BUFFER_H_
#define ONNX_OPT_IR_BUFFER_H_

#include <cstddef>
#include <memory>
#include <string>

#include "absl/status/statusor.h"

namespace onnx_opt::ir {

class Buffer {
 public:
  virtual ~Buffer() = default;
  virtual const char* data() const = 0;
  virtual size_t size() const = 0;
};

// Owns a std::string (typically moved out of a protobuf message, so no copy is made).
class StringBuffer final : public Buffer {
 public:
  explicit StringBuffer(std::string bytes) : bytes_(std::move(bytes)) {}
  const char* data() const override { return bytes_.data(); }
  size_t size() const override { return bytes_.size(); }

 private:
  std::string bytes_;
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
  const std::string& path() const { return path_; }

 private:
  MappedFile(std::string path, void* addr, size_t size)
      : path_(std::move(path)), addr_(addr), size_(size) {}

  std::string path_;
  void* addr_;
  size_t size_;
};

}  // namespace onnx_opt::ir

#endif  // ONNX_OPT_IR_BUFFER_H_
