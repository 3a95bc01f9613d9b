#include "ir/numeric/float8.h"

#include <bit>
#include <cmath>
#include <limits>
#include <vector>

#include "gtest/gtest.h"

namespace onnx_opt::ir {
namespace {

constexpr DataType kE4M3FN = DataType::kFloat8E4M3FN;
constexpr DataType kE4M3FNUZ = DataType::kFloat8E4M3FNUZ;
constexpr DataType kE5M2 = DataType::kFloat8E5M2;
constexpr DataType kE5M2FNUZ = DataType::kFloat8E5M2FNUZ;
constexpr DataType kE8M0 = DataType::kFloat8E8M0;
const DataType kSignedTypes[] = {kE4M3FN, kE4M3FNUZ, kE5M2, kE5M2FNUZ};

const float kInf = std::numeric_limits<float>::infinity();
const float kNan = std::numeric_limits<float>::quiet_NaN();

bool IsFnuz(DataType t) { return t == kE4M3FNUZ || t == kE5M2FNUZ; }

TEST(Float8Test, KnownValues) {
  EXPECT_EQ(Float8ToFloat(kE4M3FN, 0x38), 1.0f);
  EXPECT_EQ(Float8ToFloat(kE4M3FN, 0x7E), 448.0f);
  EXPECT_EQ(Float8ToFloat(kE4M3FN, 0xFE), -448.0f);
  EXPECT_EQ(Float8ToFloat(kE4M3FN, 0x01), std::ldexp(1.0f, -9));
  EXPECT_EQ(Float8ToFloat(kE4M3FN, 0x08), std::ldexp(1.0f, -6));
  EXPECT_TRUE(std::isnan(Float8ToFloat(kE4M3FN, 0x7F)));
  EXPECT_TRUE(std::isnan(Float8ToFloat(kE4M3FN, 0xFF)));
  EXPECT_TRUE(std::signbit(Float8ToFloat(kE4M3FN, 0x80)));
  EXPECT_EQ(Float8ToFloat(kE4M3FNUZ, 0x40), 1.0f);
  EXPECT_EQ(Float8ToFloat(kE4M3FNUZ, 0x7F), 240.0f);
  EXPECT_EQ(Float8ToFloat(kE4M3FNUZ, 0x01), std::ldexp(1.0f, -10));
  EXPECT_TRUE(std::isnan(Float8ToFloat(kE4M3FNUZ, 0x80)));
  EXPECT_EQ(Float8ToFloat(kE5M2, 0x3C), 1.0f);
  EXPECT_EQ(Float8ToFloat(kE5M2, 0x7B), 57344.0f);
  EXPECT_EQ(Float8ToFloat(kE5M2, 0x7C), kInf);
  EXPECT_EQ(Float8ToFloat(kE5M2, 0xFC), -kInf);
  EXPECT_EQ(Float8ToFloat(kE5M2, 0x01), std::ldexp(1.0f, -16));
  for (uint8_t c : {0x7D, 0x7E, 0x7F, 0xFD, 0xFE, 0xFF})
    EXPECT_TRUE(std::isnan(Float8ToFloat(kE5M2, c)));
  EXPECT_EQ(Float8ToFloat(kE5M2FNUZ, 0x40), 1.0f);
  EXPECT_EQ(Float8ToFloat(kE5M2FNUZ, 0x7F), 57344.0f);
  EXPECT_EQ(Float8ToFloat(kE5M2FNUZ, 0x01), std::ldexp(1.0f, -17));
  EXPECT_TRUE(std::isnan(Float8ToFloat(kE5M2FNUZ, 0x80)));
  EXPECT_EQ(Float8ToFloat(kE8M0, 127), 1.0f);
  EXPECT_EQ(Float8ToFloat(kE8M0, 0), std::ldexp(1.0f, -127));
  EXPECT_EQ(Float8ToFloat(kE8M0, 254), std::ldexp(1.0f, 127));
  EXPECT_TRUE(std::isnan(Float8ToFloat(kE8M0, 0xFF)));
  EXPECT_TRUE(std::isnan(Float8ToFloat(DataType::kFloat, 0x38)));
  EXPECT_TRUE(IsFloat8(kE8M0));
  EXPECT_FALSE(IsFloat8(DataType::kFloat16));
}

TEST(Float8Test, EveryPatternRoundTrips) {
  for (DataType t : {kE4M3FN, kE4M3FNUZ, kE5M2, kE5M2FNUZ, kE8M0}) {
    for (int c = 0; c < 256; ++c) {
      const float f = Float8ToFloat(t, static_cast<uint8_t>(c));
      if (std::isnan(f)) continue;
      if (IsFnuz(t) && c == 0) continue;
      if (std::isfinite(f)) ASSERT_EQ(FloatToFloat8(t, f, true), c) << DataTypeName(t) << " " << c;
      ASSERT_EQ(FloatToFloat8(t, f, false), c) << DataTypeName(t) << " " << c;
    }
  }
}

TEST(Float8Test, RoundsToNearestEven) {
  // e4m3fn around 1: 1.0 (0x38), 1.125 (0x39), 1.25 (0x3A).
  EXPECT_EQ(FloatToFloat8(kE4M3FN, 1.0625f, true), 0x38);  // tie -> even
  EXPECT_EQ(FloatToFloat8(kE4M3FN, 1.1875f, true), 0x3A);  // tie -> even
  EXPECT_EQ(FloatToFloat8(kE4M3FN, std::nextafter(1.0625f, 2.0f), true), 0x39);
  EXPECT_EQ(FloatToFloat8(kE4M3FN, 1.1f, true), 0x39);
  EXPECT_EQ(FloatToFloat8(kE4M3FN, -1.0625f, true), 0xB8);
  EXPECT_EQ(FloatToFloat8(kE4M3FN, 1.9375f, true), 0x40);  // carries into the next binade
  EXPECT_EQ(FloatToFloat8(kE5M2, 1.125f, true), 0x3C);     // 1, 1.25: tie -> even
  EXPECT_EQ(FloatToFloat8(kE5M2, 1.375f, true), 0x3E);
  EXPECT_EQ(FloatToFloat8(kE5M2, 3.0f, true), 0x42);
}

TEST(Float8Test, Subnormals) {
  const float min_e4m3fn = std::ldexp(1.0f, -9);
  EXPECT_EQ(FloatToFloat8(kE4M3FN, min_e4m3fn, true), 0x01);
  EXPECT_EQ(FloatToFloat8(kE4M3FN, min_e4m3fn / 2, true), 0x00);   // tie -> even: zero
  EXPECT_EQ(FloatToFloat8(kE4M3FN, -min_e4m3fn / 2, true), 0x80);  // keeps the sign of zero
  EXPECT_EQ(FloatToFloat8(kE4M3FNUZ, -std::ldexp(1.0f, -11), true), 0x00);  // no -0 in fnuz
  EXPECT_EQ(FloatToFloat8(kE4M3FN, std::nextafter(min_e4m3fn / 2, 1.0f), true), 0x01);
  EXPECT_EQ(FloatToFloat8(kE4M3FN, 1.5f * min_e4m3fn, true), 0x02);  // tie -> even
  EXPECT_EQ(FloatToFloat8(kE4M3FN, 2.5f * min_e4m3fn, true), 0x02);  // tie -> even
  EXPECT_EQ(FloatToFloat8(kE4M3FN, 7.5f * min_e4m3fn, true), 0x08);  // into the smallest normal
  EXPECT_EQ(FloatToFloat8(kE5M2, std::ldexp(3.0f, -17), true), 0x02);
  EXPECT_EQ(FloatToFloat8(kE5M2FNUZ, std::ldexp(1.0f, -17), true), 0x01);
  EXPECT_EQ(FloatToFloat8(kE4M3FN, std::numeric_limits<float>::denorm_min(), true), 0x00);
  EXPECT_EQ(FloatToFloat8(kE4M3FN, -std::numeric_limits<float>::denorm_min(), true), 0x80);
  EXPECT_EQ(FloatToFloat8(kE4M3FN, -0.0f, true), 0x80);
  EXPECT_EQ(FloatToFloat8(kE5M2FNUZ, -0.0f, true), 0x00);
}

TEST(Float8Test, SaturationFollowsTheCastSpec) {
  struct Case {
    DataType type;
    uint8_t max;                // the largest finite code
    uint8_t overflow;           // saturate = false: +inf or NaN
    float just_below_overflow;  // rounds to max
    float overflowing;          // rounds past max
  };
  const Case cases[] = {
      {kE4M3FN, 0x7E, 0x7F, 464.0f, 465.0f},    // 448, next step 480: 464 ties to the even 0x7E
      {kE4M3FNUZ, 0x7F, 0x80, 247.0f, 248.0f},  // 240, next 256: 248 ties away from the odd 0x7F
      {kE5M2, 0x7B, 0x7C, 61439.0f, 61440.0f},  // 57344, next 65536
      {kE5M2FNUZ, 0x7F, 0x80, 61439.0f, 61440.0f},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(DataTypeName(c.type));
    const uint8_t neg_overflow = c.type == kE5M2 ? 0xFC : c.overflow;
    EXPECT_EQ(FloatToFloat8(c.type, c.just_below_overflow, false), c.max);
    EXPECT_EQ(FloatToFloat8(c.type, c.overflowing, true), c.max);
    EXPECT_EQ(FloatToFloat8(c.type, -c.overflowing, true), c.max | 0x80);
    EXPECT_EQ(FloatToFloat8(c.type, c.overflowing, false), c.overflow);
    EXPECT_EQ(FloatToFloat8(c.type, -c.overflowing, false), neg_overflow);
    EXPECT_EQ(FloatToFloat8(c.type, 1e30f, true), c.max);
    EXPECT_EQ(FloatToFloat8(c.type, std::numeric_limits<float>::max(), false), c.overflow);
    EXPECT_EQ(FloatToFloat8(c.type, kInf, true), c.max);
    EXPECT_EQ(FloatToFloat8(c.type, -kInf, true), c.max | 0x80);
    EXPECT_EQ(FloatToFloat8(c.type, kInf, false), c.overflow);
    EXPECT_EQ(FloatToFloat8(c.type, -kInf, false), neg_overflow);
  }
}

TEST(Float8Test, NanBecomesTheCanonicalNan) {
  const float nans[] = {kNan, -kNan, std::bit_cast<float>(0x7F800001u),
                        std::bit_cast<float>(0xFFFFFFFFu)};
  for (float nan : nans) {
    for (bool saturate : {true, false}) {
      EXPECT_EQ(FloatToFloat8(kE4M3FN, nan, saturate), 0x7F);
      EXPECT_EQ(FloatToFloat8(kE5M2, nan, saturate), 0x7F);
      EXPECT_EQ(FloatToFloat8(kE4M3FNUZ, nan, saturate), 0x80);
      EXPECT_EQ(FloatToFloat8(kE5M2FNUZ, nan, saturate), 0x80);
      EXPECT_EQ(FloatToFloat8(kE8M0, nan, saturate), 0xFF);
    }
  }
}

TEST(Float8Test, E8M0) {
  EXPECT_EQ(FloatToFloat8(kE8M0, 1.0f, true), 127);
  EXPECT_EQ(FloatToFloat8(kE8M0, 3.0f, true), 129);  // round up: 4
  EXPECT_EQ(FloatToFloat8(kE8M0, 2.0f, true), 128);
  EXPECT_EQ(FloatToFloat8(kE8M0, -1.0f, true), 0xFF);
  EXPECT_EQ(FloatToFloat8(kE8M0, 0.0f, true), 0);
  EXPECT_EQ(FloatToFloat8(kE8M0, -0.0f, true), 0);
  EXPECT_EQ(FloatToFloat8(kE8M0, std::ldexp(1.0f, -140), true), 0);
  EXPECT_EQ(FloatToFloat8(kE8M0, kInf, true), 0xFE);
  EXPECT_EQ(FloatToFloat8(kE8M0, kInf, false), 0xFF);
  EXPECT_EQ(FloatToFloat8(kE8M0, std::numeric_limits<float>::max(), true), 0xFE);
  EXPECT_EQ(FloatToFloat8(kE8M0, std::numeric_limits<float>::max(), false), 0xFF);
  EXPECT_EQ(FloatToFloat8E8M0(1.4f, true, E8M0Rounding::kNearest), 127);
  EXPECT_EQ(FloatToFloat8E8M0(1.6f, true, E8M0Rounding::kNearest), 128);
  EXPECT_EQ(FloatToFloat8E8M0(1.5f, true, E8M0Rounding::kNearest), 128);  // tie: even code (2)
  EXPECT_EQ(FloatToFloat8E8M0(3.0f, true, E8M0Rounding::kNearest), 128);  // tie: even code (2)
  EXPECT_EQ(FloatToFloat8E8M0(6.0f, true, E8M0Rounding::kNearest), 130);  // tie: even code (8)
  EXPECT_EQ(FloatToFloat8E8M0(1.4f, true, E8M0Rounding::kUp), 128);
}

// The nearest code by search over every finite value, ties to the even code; past the largest
// value, the virtual next step (max + its ulp) stands for overflow. Independent of the bit
// arithmetic.
uint8_t Reference(DataType t, float x, bool saturate) {
  if (std::isnan(x)) return IsFnuz(t) ? 0x80 : 0x7F;
  std::vector<std::pair<double, int>> values;  // non-negative finite, ascending by code
  for (int c = 0; c < 128; ++c) {
    const float v = Float8ToFloat(t, static_cast<uint8_t>(c));
    if (std::isfinite(v)) values.push_back({v, c});
  }
  const double max = values.back().first;
  const double next = max + (max - values[values.size() - 2].first);
  values.push_back({next, -1});
  const double a = std::fabs(static_cast<double>(x));
  const uint8_t sign = std::signbit(x) ? 0x80 : 0;
  if (a >= next) {  // overflow (the distances below would lose precision for huge values)
    if (saturate) return sign | values[values.size() - 2].second;
    return t == kE5M2 ? (sign | 0x7C) : (IsFnuz(t) ? 0x80 : 0x7F);
  }
  int best = 0;
  double best_distance = std::numeric_limits<double>::infinity();
  for (size_t i = 0; i < values.size(); ++i) {
    const double d = std::fabs(values[i].first - a);
    // The virtual step's code would be max + 1: even when max is odd.
    const bool even =
        values[i].second == -1 ? (values[i - 1].second & 1) == 1 : (values[i].second & 1) == 0;
    if (d < best_distance || (d == best_distance && even)) {
      best_distance = d;
      best = static_cast<int>(i);
    }
  }
  if (values[best].second == -1) {
    if (saturate) return sign | values[values.size() - 2].second;
    return t == kE5M2 ? (sign | 0x7C) : (IsFnuz(t) ? 0x80 : 0x7F);
  }
  if (values[best].second == 0 && IsFnuz(t)) return 0;
  return sign | values[best].second;
}

TEST(Float8Test, AgreesWithANearestValueSearch) {
  std::vector<float> inputs;
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    inputs.push_back(std::bit_cast<float>(bits << 16));             // every bfloat16
    inputs.push_back(std::bit_cast<float>((bits << 16) | 0x8000));  // halfway between them
    inputs.push_back(std::bit_cast<float>((bits << 16) | 0x7FFF));
  }
  for (DataType t : kSignedTypes) {
    for (int c = 0; c < 255; ++c) {  // midpoints of neighbours and the floats next to them
      const float lo = Float8ToFloat(t, static_cast<uint8_t>(c));
      const float hi = Float8ToFloat(t, static_cast<uint8_t>(c + 1));
      if (!std::isfinite(lo) || !std::isfinite(hi)) continue;
      const float mid = (lo + hi) / 2;
      inputs.insert(inputs.end(), {mid, std::nextafter(mid, kInf), std::nextafter(mid, -kInf)});
    }
  }
  for (DataType t : kSignedTypes) {
    for (float x : inputs) {
      for (bool saturate : {true, false}) {
        ASSERT_EQ(FloatToFloat8(t, x, saturate), Reference(t, x, saturate))
            << DataTypeName(t) << " x=" << x << " bits=" << std::hex << std::bit_cast<uint32_t>(x)
            << " saturate=" << saturate;
      }
    }
  }
}

}  // namespace
}  // namespace onnx_opt::ir
