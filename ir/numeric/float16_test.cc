#include "ir/numeric/float16.h"

#include <bit>
#include <cmath>
#include <limits>

#include "gtest/gtest.h"

namespace onnx_opt::ir {
namespace {

float Bits(uint32_t b) { return std::bit_cast<float>(b); }

TEST(Float16Test, KnownValues) {
  EXPECT_EQ(FloatToHalf(1.0f), 0x3C00);
  EXPECT_EQ(FloatToHalf(-2.0f), 0xC000);
  EXPECT_EQ(FloatToHalf(0.0f), 0x0000);
  EXPECT_EQ(FloatToHalf(-0.0f), 0x8000);
  EXPECT_EQ(FloatToHalf(65504.0f), 0x7BFF);
  EXPECT_EQ(FloatToHalf(std::ldexp(1.0f, -14)), 0x0400);  // smallest normal
  EXPECT_EQ(HalfToFloat(0x3555), 0.333251953125f);
  EXPECT_EQ(HalfToFloat(0xC000), -2.0f);
  EXPECT_EQ(HalfToFloat(0x0001), std::ldexp(1.0f, -24));
  EXPECT_EQ(HalfToFloat(0x03FF), std::ldexp(1023.0f, -24));
}

TEST(Float16Test, RoundsToNearestEven) {
  // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties to even (1.0); 1 + 3 * 2^-11 to 1 + 2^-9.
  EXPECT_EQ(FloatToHalf(1.0f + std::ldexp(1.0f, -11)), 0x3C00);
  EXPECT_EQ(FloatToHalf(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3C02);
  EXPECT_EQ(FloatToHalf(std::nextafter(1.0f + std::ldexp(1.0f, -11), 2.0f)), 0x3C01);
  EXPECT_EQ(FloatToHalf(std::nextafter(1.0f + std::ldexp(1.0f, -11), 0.0f)), 0x3C00);
  EXPECT_EQ(FloatToHalf(-(1.0f + 3 * std::ldexp(1.0f, -11))), 0xBC02);
  // Rounding up out of a binade carries into the exponent: 2 - 2^-12 -> 2.0.
  EXPECT_EQ(FloatToHalf(2.0f - std::ldexp(1.0f, -12)), 0x4000);
}

TEST(Float16Test, Subnormals) {
  EXPECT_EQ(FloatToHalf(std::ldexp(1.0f, -24)), 0x0001);   // smallest subnormal
  EXPECT_EQ(FloatToHalf(std::ldexp(1.0f, -25)), 0x0000);   // tie to even: zero
  EXPECT_EQ(FloatToHalf(-std::ldexp(1.0f, -25)), 0x8000);  // ... of the same sign
  EXPECT_EQ(FloatToHalf(std::ldexp(1.5f, -25)), 0x0001);
  EXPECT_EQ(FloatToHalf(std::ldexp(3.0f, -25)), 0x0002);  // 1.5 ulp: tie to even (2)
  EXPECT_EQ(FloatToHalf(std::ldexp(5.0f, -25)), 0x0002);  // 2.5 ulp: tie to even (2)
  EXPECT_EQ(FloatToHalf(std::nextafter(std::ldexp(1.0f, -25), 1.0f)), 0x0001);
  EXPECT_EQ(FloatToHalf(std::ldexp(1.0f, -30)), 0x0000);
  EXPECT_EQ(FloatToHalf(std::numeric_limits<float>::denorm_min()), 0x0000);
  // The largest subnormal rounds up into the smallest normal.
  EXPECT_EQ(FloatToHalf(std::ldexp(1023.75f, -24)), 0x0400);
}

TEST(Float16Test, InfinityAndOverflow) {
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(FloatToHalf(inf), 0x7C00);
  EXPECT_EQ(FloatToHalf(-inf), 0xFC00);
  EXPECT_EQ(FloatToHalf(65519.0f), 0x7BFF);
  EXPECT_EQ(FloatToHalf(65520.0f), 0x7C00);  // halfway to the next binade: ties to even, infinity
  EXPECT_EQ(FloatToHalf(-1e6f), 0xFC00);
  EXPECT_EQ(FloatToHalf(std::numeric_limits<float>::max()), 0x7C00);
  EXPECT_TRUE(std::isinf(HalfToFloat(0x7C00)));
  EXPECT_EQ(HalfToFloat(0xFC00), -inf);
}

TEST(Float16Test, EveryPatternRoundTrips) {
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    const float f = HalfToFloat(static_cast<uint16_t>(bits));
    if (std::isnan(f)) continue;
    ASSERT_EQ(FloatToHalf(f), bits) << std::hex << bits;
  }
}

TEST(Float16Test, NanKeepsSignAndTopPayloadBitsAndStaysNan) {
  EXPECT_EQ(FloatToHalf(std::numeric_limits<float>::quiet_NaN()), 0x7E00);
  EXPECT_EQ(FloatToHalf(-std::numeric_limits<float>::quiet_NaN()), 0xFE00);
  EXPECT_EQ(FloatToHalf(Bits(0x7FC02000)), 0x7E01);  // payload's top bits kept
  EXPECT_EQ(FloatToHalf(Bits(0xFFFFE000)), 0xFFFF);
  // A signaling NaN with its payload only in low bits would truncate to infinity: it stays NaN,
  // quiet.
  EXPECT_EQ(FloatToHalf(Bits(0x7F800001)), 0x7E00);
  EXPECT_EQ(FloatToHalf(Bits(0x7FA00000)), 0x7F00);
  // Every half NaN widens to a float NaN with the same payload; quiet ones come back unchanged, and
  // signaling ones come back quiet.
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    if ((bits & 0x7C00) != 0x7C00 || (bits & 0x3FF) == 0) continue;
    const float f = HalfToFloat(static_cast<uint16_t>(bits));
    ASSERT_TRUE(std::isnan(f)) << std::hex << bits;
    ASSERT_EQ(std::bit_cast<uint32_t>(f),
              ((bits & 0x8000) << 16) | 0x7F800000 | ((bits & 0x3FF) << 13));
    ASSERT_EQ(FloatToHalf(f), bits | 0x200) << std::hex << bits;
  }
}

}  // namespace
}  // namespace onnx_opt::ir
