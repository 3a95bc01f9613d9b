// Element-type dispatch: calls a generic lambda with a value of the C++ type that stores the
// element type, or returns an Unimplemented error naming the type. The lambda's return type must be
// constructible from absl::Status (absl::Status or absl::StatusOr<...>).
#ifndef ONNX_OPT_INTERPRETER_DISPATCH_H_
#define ONNX_OPT_INTERPRETER_DISPATCH_H_

#include <cstdint>
#include <string>
#include <type_traits>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "ir/data_type.h"

namespace onnx_opt::interpreter {

// A 16-byte element (complex128) for data movement.
struct Bytes16 {
  uint64_t lo, hi;
};

inline absl::Status UnsupportedType(ir::DataType t, std::string_view what = "") {
  return absl::UnimplementedError(absl::StrCat("unsupported element type ", ir::DataTypeName(t),
                                               what.empty() ? "" : " for ", std::string(what)));
}

#define ONNX_OPT_CASE(ENUM, TYPE) \
  case ir::DataType::ENUM:        \
    return f(TYPE{});

// float, double.
template <typename F>
auto DispatchFloat(ir::DataType t, F&& f) -> decltype(f(float{})) {
  switch (t) {
    ONNX_OPT_CASE(kFloat, float)
    ONNX_OPT_CASE(kDouble, double)
    default:
      return UnsupportedType(t);
  }
}

// Signed and unsigned integers of 8..64 bits.
template <typename F>
auto DispatchInt(ir::DataType t, F&& f) -> decltype(f(int32_t{})) {
  switch (t) {
    ONNX_OPT_CASE(kInt8, int8_t)
    ONNX_OPT_CASE(kInt16, int16_t)
    ONNX_OPT_CASE(kInt32, int32_t)
    ONNX_OPT_CASE(kInt64, int64_t)
    ONNX_OPT_CASE(kUint8, uint8_t)
    ONNX_OPT_CASE(kUint16, uint16_t)
    ONNX_OPT_CASE(kUint32, uint32_t)
    ONNX_OPT_CASE(kUint64, uint64_t)
    default:
      return UnsupportedType(t);
  }
}

// float, double and the integers.
template <typename F>
auto DispatchNumeric(ir::DataType t, F&& f) -> decltype(f(float{})) {
  switch (t) {
    ONNX_OPT_CASE(kFloat, float)
    ONNX_OPT_CASE(kDouble, double)
    ONNX_OPT_CASE(kInt8, int8_t)
    ONNX_OPT_CASE(kInt16, int16_t)
    ONNX_OPT_CASE(kInt32, int32_t)
    ONNX_OPT_CASE(kInt64, int64_t)
    ONNX_OPT_CASE(kUint8, uint8_t)
    ONNX_OPT_CASE(kUint16, uint16_t)
    ONNX_OPT_CASE(kUint32, uint32_t)
    ONNX_OPT_CASE(kUint64, uint64_t)
    default:
      return UnsupportedType(t);
  }
}

// Numeric plus bool (used by Cast and comparisons).
template <typename F>
auto DispatchNumericBool(ir::DataType t, F&& f) -> decltype(f(float{})) {
  if (t == ir::DataType::kBool) return f(bool{});
  return DispatchNumeric(t, std::forward<F>(f));
}

// Cast endpoints: numeric, bool, and the sub-byte integers stored one per byte.
template <typename F>
auto DispatchCastSource(ir::DataType t, F&& f) -> decltype(f(float{})) {
  switch (t) {
    ONNX_OPT_CASE(kBool, bool)
    ONNX_OPT_CASE(kInt4, int8_t)
    ONNX_OPT_CASE(kInt2, int8_t)
    ONNX_OPT_CASE(kUint4, uint8_t)
    ONNX_OPT_CASE(kUint2, uint8_t)
    default:
      return DispatchNumeric(t, std::forward<F>(f));
  }
}
template <typename F>
auto DispatchCastTarget(ir::DataType t, F&& f) -> decltype(f(float{})) {
  return DispatchCastSource(t, std::forward<F>(f));
}

// By storage width only: for kernels that move elements without looking at them.
template <typename F>
auto DispatchBySize(ir::DataType t, F&& f) -> decltype(f(uint8_t{})) {
  if (t == ir::DataType::kString) return f(std::string{});
  switch (ir::ElementBitWidth(t)) {
    case 2:
    case 4:
    case 8:
      return f(uint8_t{});
    case 16:
      return f(uint16_t{});
    case 32:
      return f(uint32_t{});
    case 64:
      return f(uint64_t{});
    case 128:
      return f(Bytes16{});
    default:
      return UnsupportedType(t);
  }
}

#undef ONNX_OPT_CASE

template <typename T>
constexpr ir::DataType DataTypeOf() {
  if constexpr (std::is_same_v<T, float>)
    return ir::DataType::kFloat;
  else if constexpr (std::is_same_v<T, double>)
    return ir::DataType::kDouble;
  else if constexpr (std::is_same_v<T, int8_t>)
    return ir::DataType::kInt8;
  else if constexpr (std::is_same_v<T, int16_t>)
    return ir::DataType::kInt16;
  else if constexpr (std::is_same_v<T, int32_t>)
    return ir::DataType::kInt32;
  else if constexpr (std::is_same_v<T, int64_t>)
    return ir::DataType::kInt64;
  else if constexpr (std::is_same_v<T, uint8_t>)
    return ir::DataType::kUint8;
  else if constexpr (std::is_same_v<T, uint16_t>)
    return ir::DataType::kUint16;
  else if constexpr (std::is_same_v<T, uint32_t>)
    return ir::DataType::kUint32;
  else if constexpr (std::is_same_v<T, uint64_t>)
    return ir::DataType::kUint64;
  else if constexpr (std::is_same_v<T, bool>)
    return ir::DataType::kBool;
  else if constexpr (std::is_same_v<T, std::string>)
    return ir::DataType::kString;
  else
    return ir::DataType::kUndefined;
}

}  // namespace onnx_opt::interpreter

#endif  // ONNX_OPT_INTERPRETER_DISPATCH_H_
