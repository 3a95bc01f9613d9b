// MatMulNBits and GatherBlockQuantized against standard-op decompositions (BitwiseAnd/BitShift to
// unpack, Sub/Mul to dequantize, MatMul/Gather) run by the same interpreter, and against loops
// written from the documentation.
#include <cmath>
#include <cstdint>
#include <vector>

#include "gtest/gtest.h"
#include "interpreter/cpu/isa.h"
#include "interpreter/testing/contrib_test_util.h"

namespace onnx_opt::interpreter::contrib {
namespace {

using interpreter::testing::RandomFloats;
using testing::ExpectError;
using testing::ExpectSameOutputs;
using testing::F;
using testing::I64;
using testing::Model;
using testing::RandomF;
using testing::RunModel;
using testing::U8;

std::vector<uint8_t> Bytes(int64_t n, uint32_t seed) {
  std::vector<uint8_t> v(n);
  uint32_t s = seed;
  for (auto& b : v) {
    s = s * 1664525u + 1013904223u;
    b = static_cast<uint8_t>(s >> 24);
  }
  return v;
}

// 4-bit weights [N=3, K=40] in blocks of 16 (3 blocks, the last one partly used), packed zero
// points.
TEST(ContribMatMulNBits, FourBitsAgainstDecomposition) {
  const std::string unpack = R"(
      lo = BitwiseAnd(b, m15) hi = BitShift<direction = "RIGHT">(b, four)
      lo4 = Unsqueeze(lo, ax3) hi4 = Unsqueeze(hi, ax3) pairs = Concat<axis = 3>(lo4, hi4)
      q8 = Reshape(pairs, qshape) q = Cast<to = 1>(q8))";
  const std::string tail = R"(
      s3 = Unsqueeze(sc, ax2) d = Sub(q, z) w3 = Mul(d, s3) w48 = Reshape(w3, wshape)
      w = Slice(w48, zero, k40, one) wt = Transpose(w) p = MatMul(a, wt) y = Add(p, bias) })";
  const std::string consts =
      R"(<uint8 m15 = {15}, uint8 four = {4}, int64[1] ax3 = {3}, int64[1] ax2 = {2},
      int64[3] qshape = {3, 3, 16}, int64[2] wshape = {3, 48}, int64[1] zero = {0}, int64[1] k40 = {40},
      int64[1] one = {1}, int64[2] zshape = {3, 4}, int64[1] three = {3}, int64[1] one2 = {1}>)";
  // Packed zero points: 3 blocks of 4 bits in 2 bytes per row.
  ExpectSameOutputs(
      Model(
          R"(g (float[2,40] a, uint8[3,3,8] b, float[3,3] sc, uint8[3,2] zp, float[3] bias) => (float[2,3] y) {
                 y = com.microsoft.MatMulNBits<K = 40, N = 3, bits = 4, block_size = 16>(a, b, sc, zp, , bias) })"),
      Model(absl::StrCat(
          R"(g (float[2,40] a, uint8[3,3,8] b, float[3,3] sc, uint8[3,2] zp, float[3] bias) => (float[2,3] y) )",
          consts, "{", unpack, R"(
                         zlo = BitwiseAnd(zp, m15) zhi = BitShift<direction = "RIGHT">(zp, four)
                         zl = Unsqueeze(zlo, ax2) zh = Unsqueeze(zhi, ax2) zz = Concat<axis = 2>(zl, zh)
                         z4 = Reshape(zz, zshape) z3 = Slice(z4, zero, three, one2) zf = Cast<to = 1>(z3) z = Unsqueeze(zf, ax2))",
          tail)),
      {RandomF({2, 40}, 1), U8({3, 3, 8}, Bytes(72, 2)), RandomF({3, 3}, 3),
       U8({3, 2}, {0x21, 0x07, 0x8f, 0x03, 0x55, 0x0a}), RandomF({3}, 4)});
}

// The same with the default zero point 8 (no zero_points input).
TEST(ContribMatMulNBits, DefaultZeroPointByLoop) {
  const int64_t K = 32, N = 2, block = 16;
  std::vector<uint8_t> b = Bytes(N * 2 * 8, 5);
  Tensor a = RandomF({1, K}, 6), sc = RandomF({N, 2}, 7);
  auto r = RunModel(Model(R"(g (float[1,32] a, uint8[2,2,8] b, float[2,2] sc) => (float[1,2] y) {
                               y = com.microsoft.MatMulNBits<K = 32, N = 2, block_size = 16>(a, b, sc) })"),
                    {a, U8({N, 2, 8}, b), sc});
  ASSERT_TRUE(r.ok()) << r.status();
  for (int64_t n = 0; n < N; ++n) {
    double want = 0;
    for (int64_t k = 0; k < K; ++k) {
      const uint8_t byte = b[(n * 2 + k / block) * 8 + (k % block) / 2];
      const int q = k % 2 == 0 ? byte & 15 : byte >> 4;
      want += a.data<float>()[k] * (q - 8) * sc.data<float>()[n * 2 + k / block];
    }
    EXPECT_NEAR((*r)[0].tensor().data<float>()[n], want, 1e-4);
  }
}

// 2 and 8 bits, float zero points and g_idx, against a loop over the documented layout.
TEST(ContribMatMulNBits, OtherBitsFloatZeroPointsAndGroupIndex) {
  for (int bits : {2, 8}) {
    const int64_t K = 16, N = 2, blob = 16 * bits / 8;
    std::vector<uint8_t> b = Bytes(N * blob, 8 + bits);
    Tensor a = RandomF({3, K}, 9), sc = RandomF({N, 1}, 10), zp = F({N, 1}, {1.5f, 2.0f});
    const std::string text =
        absl::StrCat("g (float[3,16] a, uint8[2,1,", blob,
                     "] b, float[2,1] sc, float[2,1] zp, int32[16] gi) => (float[3,2] y) {",
                     " y = com.microsoft.MatMulNBits<K = 16, N = 2, bits = ", bits,
                     ", block_size = 16>(a, b, sc, zp, gi) }");
    std::vector<int32_t> gi(K, 0);
    auto r = RunModel(Model(text), {a, U8({N, 1, blob}, b), sc, zp, testing::I32({K}, gi)});
    ASSERT_TRUE(r.ok()) << r.status();
    for (int64_t m = 0; m < 3; ++m) {
      for (int64_t n = 0; n < N; ++n) {
        double want = 0;
        for (int64_t k = 0; k < K; ++k) {
          const int64_t bit = k * bits;
          const int q = (b[n * blob + bit / 8] >> (bit % 8)) & ((1 << bits) - 1);
          want += a.data<float>()[m * K + k] * (q - zp.data<float>()[n]) * sc.data<float>()[n];
        }
        EXPECT_NEAR((*r)[0].tensor().data<float>()[m * N + n], want, 1e-3) << bits;
      }
    }
  }
  ExpectError(Model(R"(g (float[1,32] a, uint8[2,2,4] b, float[2,2] sc) => (float[1,2] y) {
                         y = com.microsoft.MatMulNBits<K = 32, N = 2, block_size = 16>(a, b, sc) })"),
              {RandomF({1, 32}, 1), U8({2, 2, 4}, Bytes(16, 1)), RandomF({2, 2}, 2)},
              "input 'B' must be uint8 [2,2,8]");
}

// The decode-step path (4 bits, M <= 8: the packed weight read in place) on every ISA against a
// double reference and against the general path (the same rows as the first rows of an A of 9
// rows), within a few float roundings of sum |a * w| (the two sum in different orders): with and
// without packed zero points (3 blocks: a zero-point byte half used), a bias, K = 40 not a multiple
// of the block (16), N = 130 (chunks of 64 columns on the threads), the in-order g_idx, M 1 to 12.
class MatMulNBitsEveryIsaTest : public ::testing::TestWithParam<Isa> {
 protected:
  void SetUp() override { ASSERT_TRUE(SetActiveIsa(GetParam()).ok()); }
  void TearDown() override { ASSERT_TRUE(SetActiveIsa(DetectedIsa()).ok()); }
};

TEST_P(MatMulNBitsEveryIsaTest, DecodeStepsMatchReferenceAndGeneralPath) {
  const int64_t K = 40, N = 130, block = 16, blocks = 3, blob = 8;
  const std::vector<uint8_t> b = Bytes(N * blocks * blob, 21), zp = Bytes(N * 2, 22);
  const Tensor sc = RandomF({N, blocks}, 23), bias = RandomF({N}, 24);
  std::vector<int32_t> in_order(K);
  for (int64_t k = 0; k < K; ++k) in_order[k] = static_cast<int32_t>(k / block);
  for (int form = 0; form < 3; ++form) {  // no zero points; packed ones + bias; + g_idx
    const bool zero_points = form > 0, with_bias = form > 0, g_idx = form == 2;
    auto run = [&](int64_t M, const Tensor& a) {
      const std::string text = absl::StrCat(
          "g (float[", M,
          ",40] a, uint8[130,3,8] b, float[130,3] sc, uint8[130,2] zp, int32[40] gi, ",
          "float[130] bias) => (float[", M, ",130] y) {",
          " y = com.microsoft.MatMulNBits<K = 40, N = 130, bits = 4, block_size = 16>(a, b, sc",
          zero_points ? ", zp" : "",
          with_bias ? absl::StrCat(", ", g_idx ? "gi" : "", ", bias") : "", ") }");
      auto r = RunModel(Model(text), {a, U8({N, blocks, blob}, b), sc, U8({N, 2}, zp),
                                      testing::I32({K}, in_order), bias});
      EXPECT_TRUE(r.ok()) << r.status();
      return r.ok() ? (*r)[0].tensor() : Tensor();
    };
    const Tensor a9 = RandomF({9, K}, 25);
    const Tensor general = run(9, a9);
    ASSERT_TRUE(general.is_defined());
    for (int64_t M : {1, 2, 3, 4, 5, 6, 7, 8, 12}) {
      const Tensor a =
          M <= 9 ? F({M, K}, std::vector<float>(a9.data<float>(), a9.data<float>() + M * K))
                 : RandomF({M, K}, 26);
      const Tensor y = run(M, a);
      ASSERT_TRUE(y.is_defined());
      for (int64_t m = 0; m < M; ++m) {
        for (int64_t n = 0; n < N; ++n) {
          double want = with_bias ? bias.data<float>()[n] : 0.0, magnitude = std::abs(want);
          for (int64_t k = 0; k < K; ++k) {
            const uint8_t byte = b[(n * blocks + k / block) * blob + k % block / 2];
            const int q = k % 2 == 0 ? byte & 15 : byte >> 4;
            const int64_t g = k / block;
            const uint8_t zbyte = zp[n * 2 + g / 2];
            const int z = !zero_points ? 8 : g % 2 == 0 ? zbyte & 15 : zbyte >> 4;
            const double term =
                a.data<float>()[m * K + k] *
                static_cast<double>((static_cast<float>(q) - static_cast<float>(z)) *
                                    sc.data<float>()[n * blocks + g]);
            want += term;
            magnitude += std::abs(term);
          }
          const float got = y.data<float>()[m * N + n];
          ASSERT_LE(std::abs(got - want), 1e-6 * magnitude)
              << "form " << form << " M " << M << " at " << m << "," << n;
          if (M <= 9) {
            ASSERT_LE(std::abs(got - general.data<float>()[m * N + n]), 2e-6 * magnitude)
                << "form " << form << " M " << M << " at " << m << "," << n;
          }
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(EveryIsa, MatMulNBitsEveryIsaTest, ::testing::ValuesIn(SupportedIsas()),
                         [](const ::testing::TestParamInfo<Isa>& info) {
                           return std::string(IsaName(info.param));
                         });

TEST(ContribGatherBlockQuantized, Int4AgainstDequantizeAndGather) {
  // int4 table [4, 32], blocks of 16 along axis 1, zero points; indices with a negative one.
  ExpectSameOutputs(
      Model(R"(g (int4[4,32] d, int64[2,2] i, float[4,2] s, int4[4,2] z) => (float[2,2,32] y) {
                 y = com.microsoft.GatherBlockQuantized<block_size = 16>(d, i, s, z) })"),
      Model(R"(g (int4[4,32] d, int64[2,2] i, float[4,2] s, int4[4,2] z) => (float[2,2,32] y) {
                 t = DequantizeLinear<axis = 1, block_size = 16>(d, s, z) y = Gather(t, i) })"),
      {*CastTensor(F({4, 32}, RandomFloats(128, -8, 7.99f, 11)), DataType::kInt4),
       I64({2, 2}, {0, 3, -1, 1}), RandomF({4, 2}, 12),
       *CastTensor(F({4, 2}, {1, -2, 3, 0, 7, -8, 2, 2}), DataType::kInt4)});
}

TEST(ContribGatherBlockQuantized, Uint8PackedDefaultZeroPointAndOutOfRange) {
  // uint8 data, 4 bits packed: [2, 8] bytes hold [2, 16] values; one block of 16 per row; default
  // zero point 8. Index 5 is out of range: zeros.
  std::vector<uint8_t> bytes = Bytes(16, 13);
  auto r = RunModel(Model(R"(g (uint8[2,8] d, int32[2] i, float[2,1] s) => (float[2,16] y) {
                               y = com.microsoft.GatherBlockQuantized<block_size = 16, bits = 4>(d, i, s) })"),
                    {U8({2, 8}, bytes), testing::I32({2}, {1, 5}), F({2, 1}, {0.5f, 2.0f})});
  ASSERT_TRUE(r.ok()) << r.status();
  const float* y = (*r)[0].tensor().data<float>();
  for (int c = 0; c < 16; ++c) {
    const uint8_t byte = bytes[8 + c / 2];
    const int q = c % 2 == 0 ? byte & 15 : byte >> 4;
    EXPECT_FLOAT_EQ(y[c], (q - 8) * 2.0f) << c;
    EXPECT_EQ(y[16 + c], 0.0f);
  }
}

}  // namespace
}  // namespace onnx_opt::interpreter::contrib
