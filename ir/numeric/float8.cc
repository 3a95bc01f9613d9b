#include "ir/numeric/float8.h"

#include <array>
#include <bit>
#include <cmath>
#include <limits>

namespace onnx_opt::ir {
namespace {

// Layout of the sign/exponent/mantissa float8 types.
struct Format {
  int exp_bits;
  int man_bits;
  int bias;
  bool fnuz;           // 0x80 is the only NaN; no -0, no infinity
  bool has_inf;        // e5m2
  uint8_t max_finite;  // code of the largest finite positive value
  uint8_t nan;         // the canonical NaN
};

constexpr Format kE4M3FN{4, 3, 7, false, false, 0x7E, 0x7F};
constexpr Format kE4M3FNUZ{4, 3, 8, true, false, 0x7F, 0x80};
constexpr Format kE5M2{5, 2, 15, false, true, 0x7B, 0x7F};
constexpr Format kE5M2FNUZ{5, 2, 16, true, false, 0x7F, 0x80};

const Format* FindFormat(DataType type) {
  switch (type) {
    case DataType::kFloat8E4M3FN:
      return &kE4M3FN;
    case DataType::kFloat8E4M3FNUZ:
      return &kE4M3FNUZ;
    case DataType::kFloat8E5M2:
      return &kE5M2;
    case DataType::kFloat8E5M2FNUZ:
      return &kE5M2FNUZ;
    default:
      return nullptr;
  }
}

float Decode(const Format& f, uint8_t code) {
  if (f.fnuz && code == 0x80) return std::numeric_limits<float>::quiet_NaN();
  const bool negative = code & 0x80;
  const int exp_max = (1 << f.exp_bits) - 1;
  const int man_max = (1 << f.man_bits) - 1;
  const int exp = (code >> f.man_bits) & exp_max;
  const int man = code & man_max;
  float value;
  if (f.has_inf && exp == exp_max) {
    value =
        man == 0 ? std::numeric_limits<float>::infinity() : std::numeric_limits<float>::quiet_NaN();
  } else if (!f.fnuz && !f.has_inf && exp == exp_max && man == man_max) {
    value = std::numeric_limits<float>::quiet_NaN();  // e4m3fn: S.1111.111
  } else if (exp == 0) {
    value = std::ldexp(static_cast<float>(man), 1 - f.bias - f.man_bits);
  } else {
    value = std::ldexp(static_cast<float>(man | (1 << f.man_bits)), exp - f.bias - f.man_bits);
  }
  return negative ? -value : value;
}

using Table = std::array<float, 256>;

// Every code's value, per type, computed once (decoding sits in the interpreter's inner loops).
const Table& DecodeTable(DataType type) {
  static const std::array<Table, 5>* tables = [] {
    auto* t = new std::array<Table, 5>();
    const Format* formats[4] = {&kE4M3FN, &kE4M3FNUZ, &kE5M2, &kE5M2FNUZ};
    for (int k = 0; k < 4; ++k) {
      for (int c = 0; c < 256; ++c) (*t)[k][c] = Decode(*formats[k], static_cast<uint8_t>(c));
    }
    for (int c = 0; c < 256; ++c) {
      (*t)[4][c] = c == 0xFF ? std::numeric_limits<float>::quiet_NaN() : std::ldexp(1.0f, c - 127);
    }
    return t;
  }();
  switch (type) {
    case DataType::kFloat8E4M3FN:
      return (*tables)[0];
    case DataType::kFloat8E4M3FNUZ:
      return (*tables)[1];
    case DataType::kFloat8E5M2:
      return (*tables)[2];
    case DataType::kFloat8E5M2FNUZ:
      return (*tables)[3];
    default:
      return (*tables)[4];
  }
}

// |value| (finite, not NaN) rounded to nearest-even in format `f`, as the code of a non-negative
// value, possibly past max_finite (the caller handles overflow).
uint32_t RoundMagnitude(const Format& f, float abs_value) {
  const uint32_t bits = std::bit_cast<uint32_t>(abs_value);
  const uint32_t exp_field = bits >> 23;
  // Float subnormals are far below the smallest float8 subnormal: they round to zero.
  if (exp_field == 0) return 0;
  const int exp = static_cast<int>(exp_field) - 127;
  const uint32_t significand = (bits & 0x7FFFFF) | 0x800000;  // 24 bits, 1.xxx * 2^exp
  const int min_exp = 1 - f.bias;                             // exponent of the smallest normal
  // Keep man_bits fraction bits at the value's exponent, or at min_exp for subnormal results.
  const int shift = 23 - f.man_bits + (exp < min_exp ? min_exp - exp : 0);
  if (shift > 24) return 0;  // below half the smallest subnormal
  uint32_t r = significand >> shift;
  const uint32_t rest = significand & ((1u << shift) - 1);
  const uint32_t halfway = 1u << (shift - 1);
  if (rest > halfway || (rest == halfway && (r & 1))) ++r;
  // A subnormal result is r itself (exponent field 0; r == 2^man_bits carries into the smallest
  // normal). A normal one adds the exponent field above the implicit bit (a carry bumps the
  // exponent).
  if (exp < min_exp) return r;
  return (static_cast<uint32_t>(exp - min_exp) << f.man_bits) + r;
}

}  // namespace

bool IsFloat8(DataType type) {
  return FindFormat(type) != nullptr || type == DataType::kFloat8E8M0;
}

float Float8ToFloat(DataType type, uint8_t code) {
  if (!IsFloat8(type)) return std::numeric_limits<float>::quiet_NaN();
  return DecodeTable(type)[code];
}

uint8_t FloatToFloat8(DataType type, float value, bool saturate) {
  if (type == DataType::kFloat8E8M0) return FloatToFloat8E8M0(value, saturate, E8M0Rounding::kUp);
  const Format* format = FindFormat(type);
  if (format == nullptr) return 0;
  const Format& f = *format;
  if (std::isnan(value)) return f.nan;
  const uint8_t sign = std::signbit(value) ? 0x80 : 0;
  const float abs_value = std::fabs(value);
  uint32_t code;
  if (std::isinf(abs_value)) {
    code = f.max_finite + 1u;  // treated as an overflow below
  } else {
    code = RoundMagnitude(f, abs_value);
  }
  if (code > f.max_finite) {
    if (saturate) return sign | f.max_finite;
    return f.has_inf ? static_cast<uint8_t>(sign | 0x7C) : f.nan;
  }
  if (code == 0 && f.fnuz) return 0;  // no negative zero
  return static_cast<uint8_t>(sign | code);
}

uint8_t FloatToFloat8E8M0(float value, bool saturate, E8M0Rounding rounding) {
  if (std::isnan(value) || value < 0) return 0xFF;
  if (std::isinf(value)) return saturate ? 0xFE : 0xFF;
  if (value == 0) return 0;
  int e;
  const float m = std::frexp(value, &e);  // value = m * 2^e, m in [0.5, 1)
  // value lies in [2^(e-1), 2^e): exactly 2^(e-1) when m == 0.5.
  int exp;
  if (m == 0.5f) {
    exp = e - 1;
  } else if (rounding == E8M0Rounding::kUp) {
    exp = e;
  } else if (m != 0.75f) {
    exp = m < 0.75f ? e - 1 : e;
  } else {
    exp = ((e - 1 + 127) & 1) == 0 ? e - 1 : e;  // tie: the even code
  }
  int code = exp + 127;
  if (code < 0) code = 0;
  if (code > 254) code = saturate ? 254 : 255;
  return static_cast<uint8_t>(code);
}

}  // namespace onnx_opt::ir
