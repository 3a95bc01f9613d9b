#include "interpreter/cpu/scratch.h"

#include <cstdlib>

#include "glog/logging.h"

namespace onnx_opt::interpreter {

Scratch::~Scratch() { std::free(data_); }

void* Scratch::Get(int64_t bytes) {
  if (bytes > size_) {
    std::free(data_);
    data_ = nullptr;
    size_ = 0;
    const int64_t rounded = (bytes + 63) / 64 * 64;
    data_ = std::aligned_alloc(64, static_cast<size_t>(rounded));
    if (data_ == nullptr)
      LOG(FATAL) << "out of memory allocating " << rounded << " bytes of scratch";
    size_ = rounded;
  }
  return data_;
}

}  // namespace onnx_opt::interpreter
