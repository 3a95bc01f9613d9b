#include "ir/text/float_conversions.h"

#include <bit>
#include <cmath>
#include <limits>

#include "gtest/gtest.h"
#include "ir/numeric/narrow_float.h"

namespace onnx_opt::ir::text {
namespace {

TEST(FloatConversionsTest, NarrowFormatsRoundTripEveryPattern) {
  for (DataType t : {DataType::kFloat16, DataType::kBfloat16, DataType::kFloat8E4M3FN,
                     DataType::kFloat8E4M3FNUZ, DataType::kFloat8E5M2, DataType::kFloat8E5M2FNUZ,
                     DataType::kFloat8E8M0, DataType::kFloat4E2M1}) {
    const uint32_t count =
        t == DataType::kFloat4E2M1
            ? 16
            : (t == DataType::kFloat16 || t == DataType::kBfloat16 ? 65536 : 256);
    for (uint32_t c = 0; c < count; ++c) {
      const float f = NarrowFloatToFloat(t, c);
      if (std::isnan(f)) continue;
      absl::StatusOr<uint32_t> back = CheckedFloatToNarrowFloat(t, f);
      ASSERT_TRUE(back.ok()) << DataTypeName(t) << " " << c << ": " << back.status();
      ASSERT_EQ(*back, c) << DataTypeName(t) << " value " << f;
    }
  }
}

TEST(FloatConversionsTest, NarrowFormatsRoundToNearestEven) {
  // e4m3fn around 1: representable 1.0 (0x38), 1.125 (0x39), 1.25 (0x3A).
  EXPECT_EQ(*CheckedFloatToNarrowFloat(DataType::kFloat8E4M3FN, 1.0625f), 0x38u);  // tie -> even
  EXPECT_EQ(*CheckedFloatToNarrowFloat(DataType::kFloat8E4M3FN, 1.1875f), 0x3Au);  // tie -> even
  EXPECT_EQ(*CheckedFloatToNarrowFloat(DataType::kFloat8E4M3FN, 1.1f), 0x39u);
  EXPECT_EQ(*CheckedFloatToNarrowFloat(DataType::kFloat4E2M1, 2.5f), 0x4u);  // between 2 and 3 -> 2
  EXPECT_EQ(*CheckedFloatToNarrowFloat(DataType::kFloat4E2M1, -5.0f),
            0xEu);  // between 4 and 6 -> 4
  EXPECT_EQ(*CheckedFloatToNarrowFloat(DataType::kFloat8E4M3FN, -1e-9f),
            0x80u);  // keeps the sign of zero
  EXPECT_EQ(*CheckedFloatToNarrowFloat(DataType::kFloat8E4M3FNUZ, -0.0f),
            0x00u);                                                           // no negative zero
  EXPECT_EQ(*CheckedFloatToNarrowFloat(DataType::kFloat8E5M2, 1e6f), 0x7Cu);  // overflows to inf
  EXPECT_EQ(
      *CheckedFloatToNarrowFloat(DataType::kFloat8E5M2, -std::numeric_limits<float>::infinity()),
      0xFCu);
}

TEST(FloatConversionsTest, NarrowFormatsRejectWhatTheyCannotHold) {
  EXPECT_FALSE(CheckedFloatToNarrowFloat(DataType::kFloat8E4M3FN, 500.0f).ok());
  EXPECT_FALSE(
      CheckedFloatToNarrowFloat(DataType::kFloat8E4M3FN, std::numeric_limits<float>::infinity())
          .ok());
  EXPECT_FALSE(CheckedFloatToNarrowFloat(DataType::kFloat4E2M1, std::nanf("")).ok());
  EXPECT_FALSE(CheckedFloatToNarrowFloat(DataType::kFloat8E8M0, 0.0f).ok());
  EXPECT_FALSE(CheckedFloatToNarrowFloat(DataType::kFloat8E8M0, -1.0f).ok());
  EXPECT_FALSE(CheckedFloatToNarrowFloat(DataType::kInt8, 1.0f).ok());
  EXPECT_EQ(*CheckedFloatToNarrowFloat(DataType::kFloat8E4M3FNUZ, std::nanf("")), 0x80u);
  EXPECT_FALSE(CheckedFloatToNarrowFloat(DataType::kFloat4E2M1, 6.5f).ok());  // Cast would saturate
  EXPECT_FALSE(CheckedFloatToNarrowFloat(DataType::kFloat8E4M3FNUZ, 241.0f).ok());
  EXPECT_FALSE(
      CheckedFloatToNarrowFloat(DataType::kFloat8E8M0, std::numeric_limits<float>::infinity())
          .ok());
}

TEST(FloatConversionsTest, NanAndInfinity) {
  EXPECT_EQ(*CheckedFloatToNarrowFloat(DataType::kFloat16, std::nanf("")), 0x7E00u);
  EXPECT_EQ(*CheckedFloatToNarrowFloat(DataType::kFloat16, -std::nanf("")), 0xFE00u);
  EXPECT_EQ(*CheckedFloatToNarrowFloat(DataType::kBfloat16, std::nanf("")), 0x7FC0u);
  EXPECT_EQ(*CheckedFloatToNarrowFloat(DataType::kFloat8E4M3FN, std::nanf("")), 0x7Fu);
  EXPECT_EQ(*CheckedFloatToNarrowFloat(DataType::kFloat8E5M2, std::nanf("")), 0x7Fu);
  EXPECT_EQ(*CheckedFloatToNarrowFloat(DataType::kFloat8E8M0, std::nanf("")), 0xFFu);
  EXPECT_EQ(*CheckedFloatToNarrowFloat(DataType::kFloat16, 1e6f), 0x7C00u);
  EXPECT_EQ(*CheckedFloatToNarrowFloat(DataType::kFloat8E5M2, 61440.0f),
            0x7Cu);  // IEEE: ties to inf
  EXPECT_EQ(*CheckedFloatToNarrowFloat(DataType::kFloat8E5M2, 61439.0f), 0x7Bu);
}

TEST(FloatConversionsTest, Float8E8M0RoundsToTheNearestPowerOfTwo) {
  EXPECT_EQ(*CheckedFloatToNarrowFloat(DataType::kFloat8E8M0, 1.4f), 127u);
  EXPECT_EQ(*CheckedFloatToNarrowFloat(DataType::kFloat8E8M0, 1.6f), 128u);
  EXPECT_EQ(*CheckedFloatToNarrowFloat(DataType::kFloat8E8M0, 3.0f), 128u);  // tie: the even code
  EXPECT_EQ(*CheckedFloatToNarrowFloat(DataType::kFloat8E8M0, std::ldexp(1.0f, -130)), 0u);
}

}  // namespace
}  // namespace onnx_opt::ir::text
