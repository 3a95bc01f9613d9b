#include "ir/numeric/float4.h"

#include <bit>
#include <cmath>
#include <limits>

#include "gtest/gtest.h"

namespace onnx_opt::ir {
namespace {

TEST(Float4Test, EveryPattern) {
  const float magnitudes[8] = {0, 0.5, 1, 1.5, 2, 3, 4, 6};
  for (uint8_t c = 0; c < 8; ++c) {
    EXPECT_EQ(Float4E2M1ToFloat(c), magnitudes[c]);
    EXPECT_EQ(Float4E2M1ToFloat(c | 8), -magnitudes[c]);
    EXPECT_EQ(Float4E2M1ToFloat(c | 0xF0), magnitudes[c]);  // high bits ignored
    EXPECT_EQ(FloatToFloat4E2M1(magnitudes[c]), c);
    EXPECT_EQ(FloatToFloat4E2M1(-magnitudes[c]), c | 8);  // -0 included
  }
}

TEST(Float4Test, RoundsToNearestEven) {
  EXPECT_EQ(FloatToFloat4E2M1(0.25f), 0x0);  // 0 / 0.5: tie -> even
  EXPECT_EQ(FloatToFloat4E2M1(0.26f), 0x1);
  EXPECT_EQ(FloatToFloat4E2M1(0.75f), 0x2);  // 0.5 / 1: tie -> even (1)
  EXPECT_EQ(FloatToFloat4E2M1(1.25f), 0x2);  // 1 / 1.5: tie -> even (1)
  EXPECT_EQ(FloatToFloat4E2M1(1.75f), 0x4);  // 1.5 / 2: tie -> even (2)
  EXPECT_EQ(FloatToFloat4E2M1(2.5f), 0x4);   // 2 / 3: tie -> even (2)
  EXPECT_EQ(FloatToFloat4E2M1(3.5f), 0x6);   // 3 / 4: tie -> even (4)
  EXPECT_EQ(FloatToFloat4E2M1(5.0f), 0x6);   // 4 / 6: tie -> even (4)
  EXPECT_EQ(FloatToFloat4E2M1(5.01f), 0x7);
  EXPECT_EQ(FloatToFloat4E2M1(-5.0f), 0xE);
  EXPECT_EQ(FloatToFloat4E2M1(-0.1f), 0x8);  // keeps the sign of zero
}

TEST(Float4Test, SaturatesAndMapsNanToNegativeZero) {
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(FloatToFloat4E2M1(7.0f), 0x7);
  EXPECT_EQ(FloatToFloat4E2M1(1e30f), 0x7);
  EXPECT_EQ(FloatToFloat4E2M1(inf), 0x7);
  EXPECT_EQ(FloatToFloat4E2M1(-inf), 0xF);
  EXPECT_EQ(FloatToFloat4E2M1(std::numeric_limits<float>::quiet_NaN()), 0x8);
  EXPECT_EQ(FloatToFloat4E2M1(-std::numeric_limits<float>::quiet_NaN()), 0x8);
}

}  // namespace
}  // namespace onnx_opt::ir
