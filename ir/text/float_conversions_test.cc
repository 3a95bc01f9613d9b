#include "ir/text/float_conversions.h"

#include <bit>
#include <cmath>
#include <limits>

#include "gtest/gtest.h"

namespace onnx_opt::ir::text {
namespace {

TEST(FloatConversionsTest, HalfKnownValues) {
  EXPECT_EQ(FloatToHalf(1.0f), 0x3C00);
  EXPECT_EQ(FloatToHalf(-2.0f), 0xC000);
  EXPECT_EQ(FloatToHalf(65504.0f), 0x7BFF);
  EXPECT_EQ(FloatToHalf(65520.0f), 0x7C00);  // halfway to the next binade: rounds to inf
  EXPECT_EQ(FloatToHalf(65519.0f), 0x7BFF);
  EXPECT_EQ(FloatToHalf(std::ldexp(1.0f, -24)), 0x0001);  // smallest subnormal
  EXPECT_EQ(FloatToHalf(std::ldexp(1.0f, -25)), 0x0000);  // tie to even: zero
  EXPECT_EQ(FloatToHalf(std::ldexp(1.5f, -25)), 0x0001);
  EXPECT_EQ(FloatToHalf(-0.0f), 0x8000);
  EXPECT_EQ(FloatToHalf(std::numeric_limits<float>::infinity()), 0x7C00);
  EXPECT_EQ(FloatToHalf(std::numeric_limits<float>::quiet_NaN()) & 0x7E00, 0x7E00);
  // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties to even (1.0).
  EXPECT_EQ(FloatToHalf(1.0f + std::ldexp(1.0f, -11)), 0x3C00);
  EXPECT_EQ(FloatToHalf(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3C02);
  EXPECT_EQ(HalfToFloat(0x3555), 0.333251953125f);
}

TEST(FloatConversionsTest, HalfRoundTripsEveryPattern) {
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    const float f = HalfToFloat(static_cast<uint16_t>(bits));
    if (std::isnan(f)) continue;
    ASSERT_EQ(FloatToHalf(f), bits) << std::hex << bits;
  }
}

TEST(FloatConversionsTest, Bfloat16) {
  EXPECT_EQ(FloatToBfloat16(1.0f), 0x3F80);
  EXPECT_EQ(Bfloat16ToFloat(0x3F80), 1.0f);
  EXPECT_EQ(FloatToBfloat16(std::bit_cast<float>(0x3F808000u)), 0x3F80);  // tie to even
  EXPECT_EQ(FloatToBfloat16(std::bit_cast<float>(0x3F818000u)), 0x3F82);
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    const float f = Bfloat16ToFloat(static_cast<uint16_t>(bits));
    if (std::isnan(f)) continue;
    ASSERT_EQ(FloatToBfloat16(f), bits) << std::hex << bits;
  }
}

TEST(FloatConversionsTest, Float8KnownValues) {
  EXPECT_EQ(NarrowFloatToFloat(DataType::kFloat8E4M3FN, 0x7E), 448.0f);
  EXPECT_TRUE(std::isnan(NarrowFloatToFloat(DataType::kFloat8E4M3FN, 0x7F)));
  EXPECT_EQ(NarrowFloatToFloat(DataType::kFloat8E4M3FN, 0x38), 1.0f);
  EXPECT_EQ(NarrowFloatToFloat(DataType::kFloat8E4M3FN, 0x01), std::ldexp(1.0f, -9));
  EXPECT_EQ(NarrowFloatToFloat(DataType::kFloat8E4M3FNUZ, 0x7F), 240.0f);
  EXPECT_TRUE(std::isnan(NarrowFloatToFloat(DataType::kFloat8E4M3FNUZ, 0x80)));
  EXPECT_EQ(NarrowFloatToFloat(DataType::kFloat8E5M2, 0x7B), 57344.0f);
  EXPECT_TRUE(std::isinf(NarrowFloatToFloat(DataType::kFloat8E5M2, 0x7C)));
  EXPECT_EQ(NarrowFloatToFloat(DataType::kFloat8E5M2, 0x3C), 1.0f);
  EXPECT_EQ(NarrowFloatToFloat(DataType::kFloat8E5M2FNUZ, 0x7F), 57344.0f);
  EXPECT_EQ(NarrowFloatToFloat(DataType::kFloat8E8M0, 127), 1.0f);
  EXPECT_EQ(NarrowFloatToFloat(DataType::kFloat8E8M0, 0), std::ldexp(1.0f, -127));
  EXPECT_TRUE(std::isnan(NarrowFloatToFloat(DataType::kFloat8E8M0, 0xFF)));
  const float e2m1[8] = {0, 0.5, 1, 1.5, 2, 3, 4, 6};
  for (uint32_t c = 0; c < 8; ++c) {
    EXPECT_EQ(NarrowFloatToFloat(DataType::kFloat4E2M1, c), e2m1[c]);
    EXPECT_EQ(NarrowFloatToFloat(DataType::kFloat4E2M1, c | 8), -e2m1[c]);
  }
}

TEST(FloatConversionsTest, NarrowFormatsRoundTripEveryPattern) {
  for (DataType t : {DataType::kFloat8E4M3FN, DataType::kFloat8E4M3FNUZ, DataType::kFloat8E5M2,
                     DataType::kFloat8E5M2FNUZ, DataType::kFloat8E8M0, DataType::kFloat4E2M1}) {
    const uint32_t count = t == DataType::kFloat4E2M1 ? 16 : 256;
    for (uint32_t c = 0; c < count; ++c) {
      const float f = NarrowFloatToFloat(t, c);
      if (std::isnan(f)) continue;
      absl::StatusOr<uint32_t> back = FloatToNarrowFloat(t, f);
      ASSERT_TRUE(back.ok()) << DataTypeName(t) << " " << c << ": " << back.status();
      ASSERT_EQ(*back, c) << DataTypeName(t) << " value " << f;
    }
  }
}

TEST(FloatConversionsTest, NarrowFormatsRoundToNearestEven) {
  // e4m3fn around 1: representable 1.0 (0x38), 1.125 (0x39), 1.25 (0x3A).
  EXPECT_EQ(*FloatToNarrowFloat(DataType::kFloat8E4M3FN, 1.0625f), 0x38u);  // tie -> even
  EXPECT_EQ(*FloatToNarrowFloat(DataType::kFloat8E4M3FN, 1.1875f), 0x3Au);  // tie -> even
  EXPECT_EQ(*FloatToNarrowFloat(DataType::kFloat8E4M3FN, 1.1f), 0x39u);
  EXPECT_EQ(*FloatToNarrowFloat(DataType::kFloat4E2M1, 2.5f), 0x4u);  // between 2 and 3 -> 2
  EXPECT_EQ(*FloatToNarrowFloat(DataType::kFloat4E2M1, -5.0f), 0xEu);  // between 4 and 6 -> 4
  EXPECT_EQ(*FloatToNarrowFloat(DataType::kFloat8E4M3FN, -1e-9f), 0x80u);  // keeps the sign of zero
  EXPECT_EQ(*FloatToNarrowFloat(DataType::kFloat8E4M3FNUZ, -0.0f), 0x00u);  // no negative zero
  EXPECT_EQ(*FloatToNarrowFloat(DataType::kFloat8E5M2, 1e6f), 0x7Cu);  // overflows to inf
  EXPECT_EQ(*FloatToNarrowFloat(DataType::kFloat8E5M2, -std::numeric_limits<float>::infinity()), 0xFCu);
}

TEST(FloatConversionsTest, NarrowFormatsRejectWhatTheyCannotHold) {
  EXPECT_FALSE(FloatToNarrowFloat(DataType::kFloat8E4M3FN, 500.0f).ok());
  EXPECT_FALSE(FloatToNarrowFloat(DataType::kFloat8E4M3FN, std::numeric_limits<float>::infinity()).ok());
  EXPECT_FALSE(FloatToNarrowFloat(DataType::kFloat4E2M1, std::nanf("")).ok());
  EXPECT_FALSE(FloatToNarrowFloat(DataType::kFloat8E8M0, 0.0f).ok());
  EXPECT_FALSE(FloatToNarrowFloat(DataType::kFloat8E8M0, -1.0f).ok());
  EXPECT_FALSE(FloatToNarrowFloat(DataType::kInt8, 1.0f).ok());
  EXPECT_EQ(*FloatToNarrowFloat(DataType::kFloat8E4M3FNUZ, std::nanf("")), 0x80u);
}

}  // namespace
}  // namespace onnx_opt::ir::text
