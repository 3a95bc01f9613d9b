// Tensor element types, numbered exactly as TensorProto.DataType so values pass through unchanged.
#ifndef ONNX_OPT_IR_DATA_TYPE_H_
#define ONNX_OPT_IR_DATA_TYPE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace onnx_opt::ir {

enum class DataType : int32_t {
  kUndefined = 0,
  kFloat = 1,
  kUint8 = 2,
  kInt8 = 3,
  kUint16 = 4,
  kInt16 = 5,
  kInt32 = 6,
  kInt64 = 7,
  kString = 8,
  kBool = 9,
  kFloat16 = 10,
  kDouble = 11,
  kUint32 = 12,
  kUint64 = 13,
  kComplex64 = 14,
  kComplex128 = 15,
  kBfloat16 = 16,
  kFloat8E4M3FN = 17,
  kFloat8E4M3FNUZ = 18,
  kFloat8E5M2 = 19,
  kFloat8E5M2FNUZ = 20,
  kUint4 = 21,
  kInt4 = 22,
  kFloat4E2M1 = 23,
  kFloat8E8M0 = 24,
  kUint2 = 25,
  kInt2 = 26,
};

// The largest element type number we know; larger numbers are kept as-is but unsupported.
inline constexpr int32_t kMaxKnownDataType = 26;

bool IsKnownDataType(DataType type);

// Bits per element in the raw (packed, little-endian) layout: 4 for int4, 2 for int2, 0 for string
// and unknown types.
int ElementBitWidth(DataType type);

// Bytes needed for `count` elements in the raw layout (sub-byte types are packed, rounded up).
uint64_t RawByteSize(DataType type, uint64_t count);

// The spelling used by the ONNX text syntax and in messages: "float", "int64", "float16",
// "bfloat16", "float8e4m3fn", "uint4", ... ("undefined" for kUndefined, "type<N>" for numbers we do
// not know).
std::string DataTypeName(DataType type);

// Inverse of DataTypeName for known types.
std::optional<DataType> ParseDataTypeName(std::string_view name);

// The IR version that introduced an element type (onnx.proto's Version history): float8e4m3fn,
// float8e4m3fnuz, float8e5m2 and float8e5m2fnuz 9; uint4 and int4 10; float4e2m1 11; float8e8m0 12;
// uint2 and int2 13; every other type 3 (bfloat16 came with IR 4, but models of IR 3 holding it are
// left alone: no runtime refuses them).
int64_t IrVersionForDataType(DataType type);

bool IsFloatingPoint(DataType type);  // float, double, float16, bfloat16, float8*, float4
bool IsSignedInteger(DataType type);
// int8/16/32/64 and uint8/16/32/64: the integers of whole bytes (not the packed 2- and 4-bit ones).
bool IsWholeByteInteger(DataType type);
bool IsUnsignedInteger(DataType type);
bool IsComplex(DataType type);

}  // namespace onnx_opt::ir

#endif  // ONNX_OPT_IR_DATA_TYPE_H_
