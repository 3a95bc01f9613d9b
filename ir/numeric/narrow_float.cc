#include "ir/numeric/narrow_float.h"

#include <bit>
#include <cmath>
#include <limits>

#include "ir/numeric/bfloat16.h"
#include "ir/numeric/float16.h"
#include "ir/numeric/float4.h"
#include "ir/numeric/float8.h"

namespace onnx_opt::ir {

bool IsNarrowFloat(DataType type) {
  return type == DataType::kFloat16 || type == DataType::kBfloat16 ||
         type == DataType::kFloat4E2M1 || IsFloat8(type);
}

float NarrowFloatToFloat(DataType type, uint32_t bits) {
  switch (type) {
    case DataType::kFloat16:
      return HalfToFloat(static_cast<uint16_t>(bits));
    case DataType::kBfloat16:
      return Bfloat16ToFloat(static_cast<uint16_t>(bits));
    case DataType::kFloat4E2M1:
      return Float4E2M1ToFloat(static_cast<uint8_t>(bits));
    default:
      return Float8ToFloat(type, static_cast<uint8_t>(bits));
  }
}

uint32_t FloatToNarrowFloat(DataType type, float value, bool saturate) {
  switch (type) {
    case DataType::kFloat16:
      return FloatToHalf(value);
    case DataType::kBfloat16:
      return FloatToBfloat16(value);
    case DataType::kFloat4E2M1:
      return FloatToFloat4E2M1(value);
    default:
      return IsFloat8(type) ? FloatToFloat8(type, value, saturate) : 0;
  }
}

float NarrowFloatMax(DataType type) {
  switch (type) {
    case DataType::kFloat16:
      return 65504.0f;
    case DataType::kBfloat16:
      return std::bit_cast<float>(0x7F7F0000u);
    case DataType::kFloat8E4M3FN:
      return 448.0f;
    case DataType::kFloat8E4M3FNUZ:
      return 240.0f;
    case DataType::kFloat8E5M2:
    case DataType::kFloat8E5M2FNUZ:
      return 57344.0f;
    case DataType::kFloat8E8M0:
      return std::ldexp(1.0f, 127);
    case DataType::kFloat4E2M1:
      return 6.0f;
    default:
      return 0.0f;
  }
}

bool NarrowFloatHasInfinity(DataType type) {
  return type == DataType::kFloat16 || type == DataType::kBfloat16 || type == DataType::kFloat8E5M2;
}

bool NarrowFloatHasNaN(DataType type) {
  return IsNarrowFloat(type) && type != DataType::kFloat4E2M1;
}

}  // namespace onnx_opt::ir
