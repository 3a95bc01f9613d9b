// A constant tensor: element type, dims and data. Numeric data is kept in the raw little-endian
// layout of TensorProto.raw_data (sub-byte types packed), as a view into a shared Buffer; strings
// separately.
#ifndef ONNX_OPT_IR_TENSOR_H_
#define ONNX_OPT_IR_TENSOR_H_

#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/functional/function_ref.h"
#include "ir/boxed.h"
#include "ir/buffer.h"
#include "ir/data_type.h"
#include "ir/explicit_defaults.h"

namespace onnx_opt::ir {

using StringPairs = std::vector<std::pair<std::string, std::string>>;

class Tensor {
 public:
  // How the tensor's data was stored in the file it came from; export writes it back the same way
  // unless told otherwise, so that load -> save is lossless.
  enum class Storage {
    kNone,      // no data field was present
    kRaw,       // raw_data
    kTyped,     // float_data / int32_data / int64_data / double_data / uint64_data / string_data
    kExternal,  // external_data (location, offset, length, checksum, ...)
  };

  Tensor() = default;
  Tensor(DataType type, std::vector<int64_t> dims) : type_(type), dims_(std::move(dims)) {}

  // Convenience constructors for new tensors.
  template <typename T>
  static Tensor FromVector(DataType type, std::vector<int64_t> dims, const std::vector<T>& values) {
    Tensor t(type, std::move(dims));
    std::string bytes(values.size() * sizeof(T), '\0');
    if (!values.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
    t.SetRawData(std::move(bytes));
    return t;
  }

  const std::string& name() const { return name_; }
  void set_name(std::string n) { name_ = std::move(n); }
  const std::string& doc_string() const { return rare_->doc_string; }
  void set_doc_string(std::string d) { rare_.SetField(&Rare::doc_string, std::move(d)); }

  DataType data_type() const { return type_; }
  void set_data_type(DataType t) { type_ = t; }
  const std::vector<int64_t>& dims() const { return dims_; }
  void set_dims(std::vector<int64_t> dims) { dims_ = std::move(dims); }
  // Product of dims, or nullopt on a negative dim or overflow.
  std::optional<uint64_t> num_elements() const;

  // Raw little-endian bytes (empty for string tensors).
  const char* raw_data() const { return buffer_ ? data_ : nullptr; }
  size_t raw_size() const { return size_; }
  std::string_view raw_view() const {
    return std::string_view(raw_data() ? raw_data() : "", size_);
  }
  // Shares `buffer` bytes [offset, offset+size) without copying.
  void SetRawView(std::shared_ptr<const Buffer> buffer, size_t offset, size_t size);
  void SetRawData(std::string bytes);
  // Gives the tensor `size` new bytes, not zeroed, and returns them for the caller to fill before
  // the tensor is read or copied: a producer that writes every byte (a pass computing new weights)
  // is spared a pass zeroing megabytes first.
  char* AllocateRaw(size_t size);
  const std::shared_ptr<const Buffer>& buffer() const { return buffer_; }
  // Reads the raw bytes whole in pieces, releasing mapped pages behind (see ScanReleasing).
  void ScanRaw(absl::FunctionRef<void(const char* chunk, size_t n)> fn) const {
    ScanReleasing(buffer_.get(), raw_data(), size_, fn);
  }
  // Lets go of the resident pages of a tensor mapped from a file (see Buffer::ReleasePages).
  void ReleasePages() const {
    if (buffer_ != nullptr) buffer_->ReleasePages(raw_data(), size_);
  }

  // Element i of a numeric tensor whose element type is T-sized (copies; safe for unaligned data).
  template <typename T>
  T at(size_t i) const {
    T v;
    std::memcpy(&v, raw_data() + i * sizeof(T), sizeof(T));
    return v;
  }
  template <typename T>
  std::vector<T> ToVector() const {
    std::vector<T> out(size_ / sizeof(T));
    if (!out.empty()) std::memcpy(out.data(), raw_data(), out.size() * sizeof(T));
    return out;
  }

  const std::vector<std::string>& strings() const { return strings_; }
  std::vector<std::string>& mutable_strings() { return strings_; }

  Storage storage() const { return storage_; }
  void set_storage(Storage s) { storage_ = s; }
  // The external_data entries as read (key, value), in file order; meaningful for kExternal.
  const StringPairs& external_data() const { return rare_->external_data; }
  StringPairs& mutable_external_data() { return rare_->external_data; }

  // TensorProto.segment, kept for round trips.
  const std::optional<std::pair<int64_t, int64_t>>& segment() const { return rare_->segment; }
  void set_segment(std::optional<std::pair<int64_t, int64_t>> s) {
    rare_.SetField(&Rare::segment, std::move(s));
  }
  const StringPairs& metadata_props() const { return rare_->metadata_props; }
  StringPairs& mutable_metadata_props() { return rare_->metadata_props; }
  // Fields the file wrote with their default value (see explicit_defaults.h).
  const ExplicitDefaults& explicit_defaults() const { return explicit_defaults_; }
  ExplicitDefaults& mutable_explicit_defaults() { return explicit_defaults_; }

  // Same type, dims and data bytes (names and storage do not matter). Compares in pieces and
  // releases mapped pages behind, so comparing huge weights keeps little resident.
  bool ContentEquals(const Tensor& other) const;

 private:
  std::string name_;
  DataType type_ = DataType::kUndefined;
  std::vector<int64_t> dims_;
  std::shared_ptr<const Buffer> buffer_;
  // buffer_->data() + offset, kept so that raw_data() (and at<T>() per element) is not a virtual
  // call: a Buffer's bytes never move.
  const char* data_ = nullptr;
  size_t size_ = 0;
  std::vector<std::string> strings_;
  Storage storage_ = Storage::kRaw;
  // What few tensors carry, boxed (tensors are copied by folding and kept by every initializer).
  struct Rare {
    std::string doc_string;
    StringPairs external_data;
    std::optional<std::pair<int64_t, int64_t>> segment;
    StringPairs metadata_props;
  };
  Boxed<Rare> rare_;
  ExplicitDefaults explicit_defaults_;
};

// SparseTensorProto: values (1-D), indices (COO, [NNZ] linearized or [NNZ, rank]) and the dense
// dims.
struct SparseTensor {
  Tensor values;
  Tensor indices;
  std::vector<int64_t> dims;
};

}  // namespace onnx_opt::ir

#endif  // ONNX_OPT_IR_TENSOR_H_
