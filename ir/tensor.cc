#include "ir/tensor.h"

namespace onnx_opt::ir {

std::optional<uint64_t> Tensor::num_elements() const {
  uint64_t n = 1;
  for (int64_t d : dims_) {
    if (d < 0) return std::nullopt;
    const uint64_t u = static_cast<uint64_t>(d);
    if (u != 0 && n > UINT64_MAX / u) return std::nullopt;
    n *= u;
  }
  return n;
}

void Tensor::SetRawView(std::shared_ptr<const Buffer> buffer, size_t offset, size_t size) {
  buffer_ = std::move(buffer);
  offset_ = offset;
  size_ = size;
}

void Tensor::SetRawData(std::string bytes) {
  size_ = bytes.size();
  offset_ = 0;
  buffer_ = std::make_shared<StringBuffer>(std::move(bytes));
}

bool Tensor::ContentEquals(const Tensor& other) const {
  return type_ == other.type_ && dims_ == other.dims_ && raw_view() == other.raw_view() &&
         strings_ == other.strings_;
}

}  // namespace onnx_opt::ir
