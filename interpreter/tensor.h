// The interpreter's dense tensor: element type, dims and a shared, 64-byte aligned buffer (or a
// view of an ir::Tensor's bytes when they are suitably aligned). Every element has at least one
// byte: sub-byte types (int4, uint4, int2, uint2, float4e2m1) are unpacked to one byte per element
// and packed again only when converted back to ir::Tensor. float16/bfloat16/float8 keep their bit
// patterns. Strings live in a std::vector<std::string>, so data<std::string>() works like any other
// type.
#ifndef ONNX_OPT_INTERPRETER_TENSOR_H_
#define ONNX_OPT_INTERPRETER_TENSOR_H_

#include <complex>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "ir/data_type.h"
#include "ir/tensor.h"

namespace onnx_opt::interpreter {

using ir::DataType;

// Bytes one element takes in the interpreter's (unpacked) layout; 0 for strings and unknown types.
int StorageSize(DataType type);
int64_t NumElements(absl::Span<const int64_t> dims);
std::string DimsToString(absl::Span<const int64_t> dims);

class Tensor {
 public:
  Tensor() = default;  // undefined type, rank 0, no data
  // Zero-filled (strings: empty).
  Tensor(DataType type, std::vector<int64_t> dims);
  // Contents left unset (strings: empty): for kernels that write every element. Saves a pass over
  // the memory that large outputs would otherwise pay.
  static Tensor Uninitialized(DataType type, std::vector<int64_t> dims);

  template <typename T>
  static Tensor FromVector(DataType type, std::vector<int64_t> dims, const std::vector<T>& v) {
    Tensor t(type, std::move(dims));
    T* d = t.mutable_data<T>();
    for (size_t i = 0; i < v.size() && i < static_cast<size_t>(t.size()); ++i) d[i] = v[i];
    return t;
  }
  template <typename T>
  static Tensor Scalar(DataType type, T v) {
    return FromVector<T>(type, {}, {v});
  }

  // Converts from the IR: shares the IR buffer when aligned and not packed, copies otherwise.
  static absl::StatusOr<Tensor> FromIr(const ir::Tensor& t);
  // Converts to the IR (packs sub-byte types).
  ir::Tensor ToIr() const;

  DataType dtype() const { return dtype_; }
  const std::vector<int64_t>& dims() const { return dims_; }
  int64_t rank() const { return static_cast<int64_t>(dims_.size()); }
  int64_t dim(int64_t i) const { return dims_[i]; }
  int64_t size() const { return size_; }
  bool is_defined() const { return dtype_ != DataType::kUndefined; }
  bool is_string() const { return dtype_ == DataType::kString; }
  int element_size() const { return StorageSize(dtype_); }

  template <typename T>
  const T* data() const {
    if constexpr (std::is_same_v<T, std::string>) {
      return strings_ ? strings_->data() : nullptr;
    } else {
      return reinterpret_cast<const T*>(data_);
    }
  }
  // Only for tensors a kernel just created (storage is shared between copies of a Tensor).
  template <typename T>
  T* mutable_data() {
    if constexpr (std::is_same_v<T, std::string>) {
      return strings_ ? strings_->data() : nullptr;
    } else {
      return reinterpret_cast<T*>(const_cast<char*>(data_));
    }
  }
  const char* raw() const { return data_; }
  char* mutable_raw() { return const_cast<char*>(data_); }
  template <typename T>
  std::vector<T> ToVector() const {
    const T* d = data<T>();
    return std::vector<T>(d, d + size_);
  }

  // Same data, new dims (same element count).
  Tensor Reshaped(std::vector<int64_t> dims) const;
  // Whether this tensor is the only holder of its (non-string, interpreter-allocated or shared)
  // buffer: no other Tensor, view or IR tensor sees it, so it may be overwritten.
  bool has_unique_buffer() const {
    return holder_ != nullptr && !strings_ && holder_.use_count() == 1;
  }
  // Whether `other` is this tensor: the same storage (the same bytes at the same address, kept by
  // the same holder), type and dims.
  bool SharesStorageWith(const Tensor& other) const {
    return data_ == other.data_ && holder_ == other.holder_ && strings_ == other.strings_ &&
           dtype_ == other.dtype_ && dims_ == other.dims_;
  }
  // The bytes of this tensor seen as `type` and `dims` (same byte size), for an output written in
  // place over an input that dies; the caller checked has_unique_buffer().
  Tensor ReusedAs(DataType type, std::vector<int64_t> dims) const;
  // A deep copy.
  Tensor Clone() const;
  std::string ShapeString() const;  // "float[2,3]"

 private:
  Tensor(DataType type, std::vector<int64_t> dims, bool zero_fill);

  DataType dtype_ = DataType::kUndefined;
  std::vector<int64_t> dims_;
  int64_t size_ = 1;
  std::shared_ptr<const void> holder_;  // keeps data_ alive
  const char* data_ = nullptr;
  std::shared_ptr<std::vector<std::string>> strings_;
};

// Element conversion of a whole tensor (the Cast rules, saturate for float8).
absl::StatusOr<Tensor> CastTensor(const Tensor& in, DataType to, bool saturate = true);
// float16/bfloat16/float8/float4 -> float; other types unchanged. The element conversions
// themselves (and IsNarrowFloat) are in ir/numeric.
Tensor WidenToFloat(const Tensor& in);

}  // namespace onnx_opt::interpreter

#endif  // ONNX_OPT_INTERPRETER_TENSOR_H_
