#include "ir/tensor.h"

#include <algorithm>

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
  data_ = buffer_ != nullptr ? buffer_->data() + offset : nullptr;
  size_ = size;
}

void Tensor::SetRawData(std::string bytes) {
  size_ = bytes.size();
  buffer_ = std::make_shared<StringBuffer>(std::move(bytes));
  data_ = buffer_->data();
}

char* Tensor::AllocateRaw(size_t size) {
  auto buffer = std::make_shared<HeapBuffer>(size);
  char* bytes = buffer->mutable_data();
  buffer_ = std::move(buffer);
  data_ = bytes;
  size_ = size;
  return bytes;
}

bool Tensor::ContentEquals(const Tensor& other) const {
  if (type_ != other.type_ || dims_ != other.dims_ || size_ != other.size_ ||
      strings_ != other.strings_) {
    return false;
  }
  const char* a = raw_data();
  const char* b = other.raw_data();
  if (a == b) return true;  // the same view (or both empty)
  for (size_t done = 0; done < size_;) {
    const size_t n = std::min(kScanChunk, size_ - done);
    const bool same = std::memcmp(a + done, b + done, n) == 0;
    buffer_->ReleasePages(a + done, n);
    other.buffer_->ReleasePages(b + done, n);
    if (!same) return false;
    done += n;
  }
  return true;
}

}  // namespace onnx_opt::ir
