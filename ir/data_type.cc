#include "ir/data_type.h"

#include <array>

namespace onnx_opt::ir {
namespace {

struct TypeInfo {
  const char* name;
  int bits;
};

// Indexed by the DataType number.
constexpr std::array<TypeInfo, kMaxKnownDataType + 1> kTypeInfo = {{
    {"undefined", 0},      {"float", 32},       {"uint8", 8},          {"int8", 8},
    {"uint16", 16},        {"int16", 16},       {"int32", 32},         {"int64", 64},
    {"string", 0},         {"bool", 8},         {"float16", 16},       {"double", 64},
    {"uint32", 32},        {"uint64", 64},      {"complex64", 64},     {"complex128", 128},
    {"bfloat16", 16},      {"float8e4m3fn", 8}, {"float8e4m3fnuz", 8}, {"float8e5m2", 8},
    {"float8e5m2fnuz", 8}, {"uint4", 4},        {"int4", 4},           {"float4e2m1", 4},
    {"float8e8m0", 8},     {"uint2", 2},        {"int2", 2},
}};

}  // namespace

bool IsKnownDataType(DataType type) {
  const int32_t n = static_cast<int32_t>(type);
  return n > 0 && n <= kMaxKnownDataType;
}

int64_t IrVersionForDataType(DataType type) {
  switch (type) {
    case DataType::kFloat8E4M3FN:
    case DataType::kFloat8E4M3FNUZ:
    case DataType::kFloat8E5M2:
    case DataType::kFloat8E5M2FNUZ:
      return 9;
    case DataType::kUint4:
    case DataType::kInt4:
      return 10;
    case DataType::kFloat4E2M1:
      return 11;
    case DataType::kFloat8E8M0:
      return 12;
    case DataType::kUint2:
    case DataType::kInt2:
      return 13;
    default:
      return 3;
  }
}

int ElementBitWidth(DataType type) {
  if (!IsKnownDataType(type)) return 0;
  return kTypeInfo[static_cast<int32_t>(type)].bits;
}

uint64_t RawByteSize(DataType type, uint64_t count) {
  const uint64_t bits = static_cast<uint64_t>(ElementBitWidth(type));
  if (bits >= 8) return count * (bits / 8);
  return (count * bits + 7) / 8;
}

std::string DataTypeName(DataType type) {
  const int32_t n = static_cast<int32_t>(type);
  if (n >= 0 && n <= kMaxKnownDataType) return kTypeInfo[n].name;
  return "type<" + std::to_string(n) + ">";
}

std::optional<DataType> ParseDataTypeName(std::string_view name) {
  for (int32_t n = 1; n <= kMaxKnownDataType; ++n) {
    if (name == kTypeInfo[n].name) return static_cast<DataType>(n);
  }
  return std::nullopt;
}

bool IsFloatingPoint(DataType type) {
  switch (type) {
    case DataType::kFloat:
    case DataType::kDouble:
    case DataType::kFloat16:
    case DataType::kBfloat16:
    case DataType::kFloat8E4M3FN:
    case DataType::kFloat8E4M3FNUZ:
    case DataType::kFloat8E5M2:
    case DataType::kFloat8E5M2FNUZ:
    case DataType::kFloat8E8M0:
    case DataType::kFloat4E2M1:
      return true;
    default:
      return false;
  }
}

bool IsSignedInteger(DataType type) {
  switch (type) {
    case DataType::kInt8:
    case DataType::kInt16:
    case DataType::kInt32:
    case DataType::kInt64:
    case DataType::kInt4:
    case DataType::kInt2:
      return true;
    default:
      return false;
  }
}

bool IsWholeByteInteger(DataType type) {
  return (IsSignedInteger(type) || IsUnsignedInteger(type)) && ElementBitWidth(type) >= 8;
}

bool IsUnsignedInteger(DataType type) {
  switch (type) {
    case DataType::kUint8:
    case DataType::kUint16:
    case DataType::kUint32:
    case DataType::kUint64:
    case DataType::kUint4:
    case DataType::kUint2:
      return true;
    default:
      return false;
  }
}

bool IsComplex(DataType type) {
  return type == DataType::kComplex64 || type == DataType::kComplex128;
}

}  // namespace onnx_opt::ir
