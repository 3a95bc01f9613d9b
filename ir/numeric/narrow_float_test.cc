#include "ir/numeric/narrow_float.h"

#include <cmath>
#include <limits>

#include "gtest/gtest.h"
#include "ir/numeric/bfloat16.h"
#include "ir/numeric/float16.h"
#include "ir/numeric/float4.h"
#include "ir/numeric/float8.h"

namespace onnx_opt::ir {
namespace {

const DataType kNarrow[] = {DataType::kFloat16,      DataType::kBfloat16,
                            DataType::kFloat8E4M3FN, DataType::kFloat8E4M3FNUZ,
                            DataType::kFloat8E5M2,   DataType::kFloat8E5M2FNUZ,
                            DataType::kFloat8E8M0,   DataType::kFloat4E2M1};

uint32_t PatternCount(DataType t) {
  return t == DataType::kFloat4E2M1
             ? 16
             : (t == DataType::kFloat16 || t == DataType::kBfloat16 ? 65536 : 256);
}

TEST(NarrowFloatTest, Membership) {
  for (DataType t : kNarrow) EXPECT_TRUE(IsNarrowFloat(t)) << DataTypeName(t);
  for (DataType t : {DataType::kFloat, DataType::kDouble, DataType::kInt8, DataType::kUint4,
                     DataType::kString}) {
    EXPECT_FALSE(IsNarrowFloat(t)) << DataTypeName(t);
    EXPECT_EQ(NarrowFloatMax(t), 0.0f);
    EXPECT_EQ(FloatToNarrowFloat(t, 1.0f, true), 0u);
  }
}

TEST(NarrowFloatTest, DispatchesToEachType) {
  EXPECT_EQ(NarrowFloatToFloat(DataType::kFloat16, 0x3C00), 1.0f);
  EXPECT_EQ(NarrowFloatToFloat(DataType::kBfloat16, 0x3F80), 1.0f);
  EXPECT_EQ(NarrowFloatToFloat(DataType::kFloat8E4M3FN, 0x38), 1.0f);
  EXPECT_EQ(NarrowFloatToFloat(DataType::kFloat4E2M1, 0x2), 1.0f);
  EXPECT_EQ(FloatToNarrowFloat(DataType::kFloat16, 1e6f, true),
            0x7C00u);  // float16 has no saturate
  EXPECT_EQ(FloatToNarrowFloat(DataType::kBfloat16, 1.0f, false), 0x3F80u);
  EXPECT_EQ(FloatToNarrowFloat(DataType::kFloat8E4M3FN, 1000.0f, true), 0x7Eu);
  EXPECT_EQ(FloatToNarrowFloat(DataType::kFloat8E4M3FN, 1000.0f, false), 0x7Fu);
  EXPECT_EQ(FloatToNarrowFloat(DataType::kFloat8E8M0, 3.0f, true), 129u);
  EXPECT_EQ(FloatToNarrowFloat(DataType::kFloat4E2M1, 100.0f, false), 0x7u);  // always saturates
}

TEST(NarrowFloatTest, LimitsMatchTheDecodedPatterns) {
  for (DataType t : kNarrow) {
    SCOPED_TRACE(DataTypeName(t));
    float max = 0;
    bool inf = false, nan = false;
    for (uint32_t c = 0; c < PatternCount(t); ++c) {
      const float v = NarrowFloatToFloat(t, c);
      if (std::isnan(v))
        nan = true;
      else if (std::isinf(v))
        inf = true;
      else
        max = std::max(max, v);
      if (!std::isnan(v)) {
        ASSERT_EQ(FloatToNarrowFloat(t, v, false), c) << c;
      }
    }
    EXPECT_EQ(NarrowFloatMax(t), max);
    EXPECT_EQ(NarrowFloatHasInfinity(t), inf);
    EXPECT_EQ(NarrowFloatHasNaN(t), nan);
  }
}

}  // namespace
}  // namespace onnx_opt::ir
