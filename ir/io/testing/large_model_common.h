// Shared by make_large_model and large_model_roundtrip: the checksum each generated tensor records.
#ifndef ONNX_OPT_IR_IO_TESTING_LARGE_MODEL_COMMON_H_
#define ONNX_OPT_IR_IO_TESTING_LARGE_MODEL_COMMON_H_

#include <cstddef>
#include <cstdint>
#include <string>

namespace onnx_opt::ir::io {

// Tensor metadata key holding the FNV-1a 64 hash of the tensor's bytes, in hex.
inline constexpr char kChecksumKey[] = "fnv1a64";

inline uint64_t Fnv1a(uint64_t h, const char* data, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    h ^= static_cast<unsigned char>(data[i]);
    h *= 1099511628211ull;
  }
  return h;
}
inline constexpr uint64_t kFnvSeed = 14695981039346656037ull;

}  // namespace onnx_opt::ir::io

#endif  // ONNX_OPT_IR_IO_TESTING_LARGE_MODEL_COMMON_H_
