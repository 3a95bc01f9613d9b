#include "ir/numeric/bfloat16.h"

#include <bit>
#include <cmath>
#include <limits>

#include "gtest/gtest.h"

namespace onnx_opt::ir {
namespace {

float Bits(uint32_t b) { return std::bit_cast<float>(b); }

TEST(Bfloat16Test, KnownValues) {
  EXPECT_EQ(FloatToBfloat16(1.0f), 0x3F80);
  EXPECT_EQ(FloatToBfloat16(-0.0f), 0x8000);
  EXPECT_EQ(Bfloat16ToFloat(0x3F80), 1.0f);
  EXPECT_EQ(Bfloat16ToFloat(0x4040), 3.0f);
  EXPECT_EQ(Bfloat16ToFloat(0x0001), Bits(0x00010000));  // subnormal
}

TEST(Bfloat16Test, RoundsToNearestEven) {
  EXPECT_EQ(FloatToBfloat16(Bits(0x3F808000)), 0x3F80);  // tie -> even
  EXPECT_EQ(FloatToBfloat16(Bits(0x3F818000)), 0x3F82);  // tie -> even
  EXPECT_EQ(FloatToBfloat16(Bits(0x3F808001)), 0x3F81);
  EXPECT_EQ(FloatToBfloat16(Bits(0x3F807FFF)), 0x3F80);
  EXPECT_EQ(FloatToBfloat16(Bits(0x00008000)), 0x0000);  // subnormal tie -> even (zero)
  EXPECT_EQ(FloatToBfloat16(Bits(0x00018000)), 0x0002);
}

TEST(Bfloat16Test, InfinityAndOverflow) {
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(FloatToBfloat16(inf), 0x7F80);
  EXPECT_EQ(FloatToBfloat16(-inf), 0xFF80);
  EXPECT_EQ(FloatToBfloat16(std::numeric_limits<float>::max()), 0x7F80);  // rounds past the largest
  EXPECT_EQ(FloatToBfloat16(Bits(0x7F7F7FFF)), 0x7F7F);
}

TEST(Bfloat16Test, EveryPatternRoundTrips) {
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    const float f = Bfloat16ToFloat(static_cast<uint16_t>(bits));
    if (std::isnan(f)) continue;
    ASSERT_EQ(FloatToBfloat16(f), bits) << std::hex << bits;
  }
}

TEST(Bfloat16Test, NanKeepsSignAndTopPayloadBitsAndStaysNan) {
  EXPECT_EQ(FloatToBfloat16(std::numeric_limits<float>::quiet_NaN()), 0x7FC0);
  EXPECT_EQ(FloatToBfloat16(-std::numeric_limits<float>::quiet_NaN()), 0xFFC0);
  EXPECT_EQ(FloatToBfloat16(Bits(0x7F800001)), 0x7FC0);  // would truncate to infinity
  EXPECT_EQ(FloatToBfloat16(Bits(0x7FA10000)), 0x7FE1);
  EXPECT_EQ(FloatToBfloat16(Bits(0x7FFFFFFF)), 0x7FFF);  // no rounding carry out of a NaN
  for (uint32_t bits = 0x7F81; bits < 0x7FFF; ++bits) {
    const float f = Bfloat16ToFloat(static_cast<uint16_t>(bits));
    ASSERT_TRUE(std::isnan(f));
    ASSERT_EQ(FloatToBfloat16(f), bits | 0x40) << std::hex << bits;
  }
}

}  // namespace
}  // namespace onnx_opt::ir
