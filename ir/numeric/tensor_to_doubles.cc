#include "ir/numeric/tensor_to_doubles.h"

#include <cstdint>

#include "ir/numeric/bfloat16.h"
#include "ir/numeric/float16.h"

namespace onnx_opt::ir {
namespace {

template <typename T, typename Convert>
std::vector<double> Read(const Tensor& t, size_t n, Convert convert) {
  std::vector<double> out(n);
  for (size_t i = 0; i < n; ++i) out[i] = convert(t.at<T>(i));
  return out;
}

template <typename T>
std::vector<double> Read(const Tensor& t, size_t n) {
  return Read<T>(t, n, [](T v) { return static_cast<double>(v); });
}

}  // namespace

std::optional<std::vector<double>> TensorToDoubles(const Tensor& t) {
  const std::optional<uint64_t> count = t.num_elements();
  if (!count.has_value()) return std::nullopt;
  const int bits = ElementBitWidth(t.data_type());
  if (bits < 8 || t.raw_size() != *count * static_cast<uint64_t>(bits / 8)) return std::nullopt;
  if (*count != 0 && t.raw_data() == nullptr) return std::nullopt;
  const size_t n = static_cast<size_t>(*count);
  switch (t.data_type()) {
    case DataType::kFloat:
      return Read<float>(t, n);
    case DataType::kDouble:
      return Read<double>(t, n);
    case DataType::kFloat16:
      return Read<uint16_t>(t, n, [](uint16_t v) { return double{HalfToFloat(v)}; });
    case DataType::kBfloat16:
      return Read<uint16_t>(t, n, [](uint16_t v) { return double{Bfloat16ToFloat(v)}; });
    case DataType::kInt8:
      return Read<int8_t>(t, n);
    case DataType::kBool:  // the stored byte: 0 or 1 in valid data
    case DataType::kUint8:
      return Read<uint8_t>(t, n);
    case DataType::kInt16:
      return Read<int16_t>(t, n);
    case DataType::kUint16:
      return Read<uint16_t>(t, n);
    case DataType::kInt32:
      return Read<int32_t>(t, n);
    case DataType::kUint32:
      return Read<uint32_t>(t, n);
    case DataType::kInt64:
      return Read<int64_t>(t, n);
    case DataType::kUint64:
      return Read<uint64_t>(t, n);
    default:
      return std::nullopt;
  }
}

}  // namespace onnx_opt::ir
