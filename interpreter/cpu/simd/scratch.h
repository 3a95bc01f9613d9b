// A growable, 64-byte aligned buffer that a kernel keeps per thread (thread_local) and reuses from
// call to call: fresh pages would be faulted in on every call.
#ifndef ONNX_OPT_INTERPRETER_CPU_SIMD_SCRATCH_H_
#define ONNX_OPT_INTERPRETER_CPU_SIMD_SCRATCH_H_

#include <cstdint>
#include <cstdlib>

#include "interpreter/cpu/simd/simd.h"

namespace onnx_opt::interpreter::ONNX_OPT_SIMD_NS {

class Scratch {
 public:
  Scratch() = default;
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  ~Scratch() { std::free(data_); }

  // At least `bytes` bytes; the old contents are not kept when it grows.
  void* Get(int64_t bytes) {
    if (bytes > size_) {
      std::free(data_);
      size_ = (bytes + 63) / 64 * 64;
      data_ = std::aligned_alloc(64, static_cast<size_t>(size_));
      if (data_ == nullptr) std::abort();
    }
    return data_;
  }

 private:
  void* data_ = nullptr;
  int64_t size_ = 0;
};

}  // namespace onnx_opt::interpreter::ONNX_OPT_SIMD_NS

#endif  // ONNX_OPT_INTERPRETER_CPU_SIMD_SCRATCH_H_
