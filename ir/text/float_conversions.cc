#include "ir/text/float_conversions.h"

#include <array>
#include <bit>
#include <cmath>
#include <limits>

#include "absl/strings/str_cat.h"

namespace onnx_opt::ir::text {
namespace {

// How a format spends its special bit patterns.
enum class Specials {
  kNone,  // float4e2m1: every pattern is a finite number
  kFn,    // float8e4m3fn: S.1111.111 is NaN, no infinity
  kFnuz,  // *fnuz: 1.0000.000 (negative zero) is the only NaN, no infinity
  kIeee,  // float8e5m2: exponent all ones is infinity (mantissa 0) or NaN
  kE8M0,  // float8e8m0: exponent only, 0xFF is NaN
};

struct MiniFormat {
  int exp_bits;
  int man_bits;
  int bias;
  Specials specials;
  uint32_t canonical_nan;  // meaningful when the format has a NaN
};

const MiniFormat* FindMiniFormat(DataType type) {
  static constexpr MiniFormat kE4M3FN{4, 3, 7, Specials::kFn, 0x7F};
  static constexpr MiniFormat kE4M3FNUZ{4, 3, 8, Specials::kFnuz, 0x80};
  static constexpr MiniFormat kE5M2{5, 2, 15, Specials::kIeee, 0x7E};
  static constexpr MiniFormat kE5M2FNUZ{5, 2, 16, Specials::kFnuz, 0x80};
  static constexpr MiniFormat kE8M0{8, 0, 127, Specials::kE8M0, 0xFF};
  static constexpr MiniFormat kE2M1{2, 1, 1, Specials::kNone, 0};
  switch (type) {
    case DataType::kFloat8E4M3FN: return &kE4M3FN;
    case DataType::kFloat8E4M3FNUZ: return &kE4M3FNUZ;
    case DataType::kFloat8E5M2: return &kE5M2;
    case DataType::kFloat8E5M2FNUZ: return &kE5M2FNUZ;
    case DataType::kFloat8E8M0: return &kE8M0;
    case DataType::kFloat4E2M1: return &kE2M1;
    default: return nullptr;
  }
}

int TotalBits(const MiniFormat& f) {
  return f.specials == Specials::kE8M0 ? 8 : 1 + f.exp_bits + f.man_bits;
}

bool IsNanCode(const MiniFormat& f, uint32_t code) {
  const uint32_t exp_mask = (1u << f.exp_bits) - 1;
  const uint32_t man_mask = (1u << f.man_bits) - 1;
  const uint32_t exp = (code >> f.man_bits) & exp_mask;
  const uint32_t man = code & man_mask;
  switch (f.specials) {
    case Specials::kNone: return false;
    case Specials::kFn: return exp == exp_mask && man == man_mask;
    case Specials::kFnuz: return code == (1u << (f.exp_bits + f.man_bits));
    case Specials::kIeee: return exp == exp_mask && man != 0;
    case Specials::kE8M0: return code == 0xFF;
  }
  return false;
}

float DecodeMini(const MiniFormat& f, uint32_t code) {
  code &= (1u << TotalBits(f)) - 1;
  if (IsNanCode(f, code)) return std::numeric_limits<float>::quiet_NaN();
  if (f.specials == Specials::kE8M0) return std::ldexp(1.0f, static_cast<int>(code) - f.bias);
  const uint32_t exp_mask = (1u << f.exp_bits) - 1;
  const uint32_t man_mask = (1u << f.man_bits) - 1;
  const bool negative = (code >> (f.exp_bits + f.man_bits)) & 1;
  const uint32_t exp = (code >> f.man_bits) & exp_mask;
  const uint32_t man = code & man_mask;
  float value;
  if (f.specials == Specials::kIeee && exp == exp_mask) {
    value = std::numeric_limits<float>::infinity();
  } else if (exp == 0) {
    value = std::ldexp(static_cast<float>(man), 1 - f.bias - f.man_bits);
  } else {
    value = std::ldexp(static_cast<float>(man | (1u << f.man_bits)),
                       static_cast<int>(exp) - f.bias - f.man_bits);
  }
  return negative ? -value : value;
}

// Decoded values of every pattern of a format, computed once.
const std::array<float, 256>& DecodeTable(DataType type) {
  static const auto* tables = [] {
    auto* t = new std::array<std::array<float, 256>, 6>();
    const DataType types[] = {DataType::kFloat8E4M3FN, DataType::kFloat8E4M3FNUZ,
                              DataType::kFloat8E5M2,   DataType::kFloat8E5M2FNUZ,
                              DataType::kFloat8E8M0,   DataType::kFloat4E2M1};
    for (int i = 0; i < 6; ++i) {
      const MiniFormat& f = *FindMiniFormat(types[i]);
      for (uint32_t c = 0; c < (1u << TotalBits(f)); ++c) (*t)[i][c] = DecodeMini(f, c);
    }
    return t;
  }();
  switch (type) {
    case DataType::kFloat8E4M3FN: return (*tables)[0];
    case DataType::kFloat8E4M3FNUZ: return (*tables)[1];
    case DataType::kFloat8E5M2: return (*tables)[2];
    case DataType::kFloat8E5M2FNUZ: return (*tables)[3];
    case DataType::kFloat8E8M0: return (*tables)[4];
    default: return (*tables)[5];
  }
}

absl::StatusOr<uint32_t> EncodeMini(DataType type, const MiniFormat& f, float x) {
  const std::array<float, 256>& table = DecodeTable(type);
  const uint32_t count = 1u << TotalBits(f);
  const std::string type_name = DataTypeName(type);
  if (std::isnan(x)) {
    if (f.specials == Specials::kNone) {
      return absl::InvalidArgumentError(absl::StrCat(type_name, " cannot represent NaN"));
    }
    return f.canonical_nan;
  }
  const bool negative = std::signbit(x);
  const uint32_t sign_bit = 1u << (f.exp_bits + f.man_bits);
  if (f.specials == Specials::kE8M0 && (negative || x == 0.0f)) {
    return absl::InvalidArgumentError(
        absl::StrCat(type_name, " cannot represent zero or negative values (", x, ")"));
  }
  // Exact matches first (this also keeps the sign of zero where the format has -0).
  for (uint32_t c = 0; c < count; ++c) {
    if (!IsNanCode(f, c) && std::bit_cast<uint32_t>(table[c]) == std::bit_cast<uint32_t>(x)) return c;
  }
  float max_finite = 0.0f;
  for (uint32_t c = 0; c < count; ++c) {
    if (!IsNanCode(f, c) && std::isfinite(table[c])) max_finite = std::max(max_finite, table[c]);
  }
  if (std::fabs(x) > max_finite) {
    if (f.specials == Specials::kIeee) {
      // IEEE rounding: overflow to infinity from half an ulp above the largest finite value.
      const float half_ulp = std::ldexp(1.0f, static_cast<int>(std::ilogb(max_finite)) - f.man_bits - 1);
      if (std::isinf(x) || std::fabs(x) >= max_finite + half_ulp) {
        return ((1u << f.exp_bits) - 1) << f.man_bits | (negative ? sign_bit : 0);
      }
    } else if (std::isinf(x) || std::fabs(x) > max_finite) {
      return absl::InvalidArgumentError(absl::StrCat("value ", x, " is out of range for ", type_name,
                                                     " (largest finite value ", max_finite, ")"));
    }
  }
  uint32_t best = 0;
  double best_distance = std::numeric_limits<double>::infinity();
  for (uint32_t c = 0; c < count; ++c) {
    if (IsNanCode(f, c) || !std::isfinite(table[c])) continue;
    const double distance = std::fabs(static_cast<double>(table[c]) - static_cast<double>(x));
    if (distance < best_distance || (distance == best_distance && (c & 1) == 0 && (best & 1) != 0)) {
      best = c;
      best_distance = distance;
    }
  }
  // A negative value that rounds to zero keeps its sign where the format has a negative zero.
  if (table[best] == 0.0f && negative && f.specials != Specials::kFnuz &&
      f.specials != Specials::kE8M0) {
    best |= sign_bit;
  }
  return best;
}

}  // namespace

bool IsNarrowFloat(DataType type) {
  return type == DataType::kFloat16 || type == DataType::kBfloat16 || FindMiniFormat(type) != nullptr;
}

uint16_t FloatToHalf(float value) {
  const uint32_t bits = std::bit_cast<uint32_t>(value);
  const uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000);
  const uint32_t abs = bits & 0x7FFFFFFF;
  if (abs > 0x7F800000) return sign | 0x7E00;   // NaN: quiet
  if (abs == 0x7F800000) return sign | 0x7C00;  // infinity
  const int exp = static_cast<int>(abs >> 23) - 127;
  const uint32_t man = abs & 0x7FFFFF;
  if (exp > 15) return sign | 0x7C00;
  if (exp >= -14) {
    uint32_t half = (static_cast<uint32_t>(exp + 15) << 10) | (man >> 13);
    const uint32_t rest = man & 0x1FFF;
    if (rest > 0x1000 || (rest == 0x1000 && (half & 1))) ++half;  // may carry into inf: correct
    return sign | static_cast<uint16_t>(half);
  }
  if (exp < -25) return sign;  // rounds to zero
  // Subnormal half: value = h * 2^-24 with h = m * 2^(exp + 1), m the 24-bit significand.
  const uint32_t m = man | 0x800000;
  const int shift = -(exp + 1);  // 14..24
  uint32_t h = m >> shift;
  const uint32_t rest = m & ((1u << shift) - 1);
  const uint32_t halfway = 1u << (shift - 1);
  if (rest > halfway || (rest == halfway && (h & 1))) ++h;
  return sign | static_cast<uint16_t>(h);
}

float HalfToFloat(uint16_t bits) {
  const uint32_t sign = static_cast<uint32_t>(bits & 0x8000) << 16;
  const uint32_t exp = (bits >> 10) & 0x1F;
  const uint32_t man = bits & 0x3FF;
  if (exp == 0x1F) return std::bit_cast<float>(sign | 0x7F800000 | (man << 13));
  if (exp == 0) {
    const float v = std::ldexp(static_cast<float>(man), -24);
    return sign ? -v : v;
  }
  return std::bit_cast<float>(sign | ((exp + 112) << 23) | (man << 13));
}

uint16_t FloatToBfloat16(float value) {
  const uint32_t bits = std::bit_cast<uint32_t>(value);
  if ((bits & 0x7FFFFFFF) > 0x7F800000) return static_cast<uint16_t>((bits >> 16) | 0x0040);
  const uint32_t rounded = bits + 0x7FFF + ((bits >> 16) & 1);
  return static_cast<uint16_t>(rounded >> 16);
}

float Bfloat16ToFloat(uint16_t bits) { return std::bit_cast<float>(static_cast<uint32_t>(bits) << 16); }

float NarrowFloatToFloat(DataType type, uint32_t bits) {
  if (type == DataType::kFloat16) return HalfToFloat(static_cast<uint16_t>(bits));
  if (type == DataType::kBfloat16) return Bfloat16ToFloat(static_cast<uint16_t>(bits));
  const MiniFormat* f = FindMiniFormat(type);
  if (f == nullptr) return std::numeric_limits<float>::quiet_NaN();
  return DecodeTable(type)[bits & ((1u << TotalBits(*f)) - 1)];
}

absl::StatusOr<uint32_t> FloatToNarrowFloat(DataType type, float value) {
  if (type == DataType::kFloat16) return FloatToHalf(value);
  if (type == DataType::kBfloat16) return FloatToBfloat16(value);
  const MiniFormat* f = FindMiniFormat(type);
  if (f == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(DataTypeName(type), " is not a narrow float type"));
  }
  return EncodeMini(type, *f, value);
}

}  // namespace onnx_opt::ir::text
