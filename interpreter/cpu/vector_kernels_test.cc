// Every vector kernel on every ISA this CPU supports, against plain scalar references in double.
#include "interpreter/cpu/vector_kernels.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "interpreter/cpu/isa.h"
#include "interpreter/testing/test_util.h"

namespace onnx_opt::interpreter {
namespace {

// |got - want| <= atol + rtol * |want|, NaN matching NaN, infinities matching exactly.
::testing::AssertionResult Near(float got, double want, double rtol, double atol) {
  if (std::isnan(want)) {
    return std::isnan(got) ? ::testing::AssertionSuccess()
                           : ::testing::AssertionFailure() << got << " vs NaN";
  }
  if (std::isinf(want)) {
    return got == want ? ::testing::AssertionSuccess()
                       : ::testing::AssertionFailure() << got << " vs " << want;
  }
  if (std::abs(got - want) <= atol + rtol * std::abs(want)) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << got << " vs " << want;
}

class VectorKernelsTest : public ::testing::TestWithParam<Isa> {
 protected:
  const VectorKernels& k() const { return VecFor(GetParam()); }
};

TEST_P(VectorKernelsTest, TableIsForItsIsa) { EXPECT_EQ(k().isa, GetParam()); }

TEST_P(VectorKernelsTest, GemmMatchesLoopsInEveryTransposition) {
  const int64_t M = 37, N = 29, K = 53;
  const std::vector<float> a = testing::RandomFloats(M * K, -1, 1, 1),
                           b = testing::RandomFloats(K * N, -1, 1, 2),
                           c0 = testing::RandomFloats(M * N, -1, 1, 3);
  for (bool ta : {false, true}) {
    for (bool tb : {false, true}) {
      for (float beta : {0.0f, 1.0f, 0.5f}) {
        std::vector<float> c = c0;
        k().gemm_f32(ta, tb, M, N, K, 2.0f, a.data(), b.data(), beta, c.data());
        for (int64_t i = 0; i < M; ++i) {
          for (int64_t j = 0; j < N; ++j) {
            double acc = 0;
            for (int64_t p = 0; p < K; ++p) {
              acc += static_cast<double>(ta ? a[p * M + i] : a[i * K + p]) *
                     (tb ? b[j * K + p] : b[p * N + j]);
            }
            const double want = 2.0 * acc + beta * c0[i * N + j];
            ASSERT_TRUE(Near(c[i * N + j], want, 1e-5, 1e-5))
                << ta << tb << beta << " at " << i << "," << j;
          }
        }
      }
    }
  }
}

// Plain products (alpha 1, beta 0, no transposes) take a kernel of their own on AVX2 and AVX-512:
// every row and column remainder of its 6 x 64 blocks (and of their last vector, computed as dot
// products when it holds a few columns), K within one slice of 512 and across several, and
// submatrices of larger arrays (leading dimensions).
TEST_P(VectorKernelsTest, PlainGemmOverShortAndLongInnerDimensions) {
  for (int64_t K : {1, 7, 24, 64, 65, 512, 513, 1300}) {
    // Blocks of every row count (1-6: 16 = 6 + 6 + 4), each compiled on its own.
    for (int64_t M : {1, 2, 3, 5, 6, 13, 16}) {
      // 1, 3, 49 and 100: 1-4 columns past the last whole vector (dot products on AVX2 and
      // AVX-512).
      for (int64_t N : {1, 3, 15, 49, 64, 100}) {
        const int64_t lda = K + 3, ldb = N + 5, ldc = N + 2;
        const std::vector<float> a = testing::RandomFloats(M * lda, -1, 1, 21),
                                 b = testing::RandomFloats(K * ldb, -1, 1, 22);
        std::vector<float> c(M * N, 7.0f), c_ld(M * ldc, 7.0f);
        std::vector<float> a_dense(M * K), b_dense(K * N);
        for (int64_t i = 0; i < M; ++i)
          std::copy_n(a.begin() + i * lda, K, a_dense.begin() + i * K);
        for (int64_t p = 0; p < K; ++p)
          std::copy_n(b.begin() + p * ldb, N, b_dense.begin() + p * N);
        k().gemm_f32(false, false, M, N, K, 1.0f, a_dense.data(), b_dense.data(), 0.0f, c.data());
        k().gemm_ld_f32(false, false, M, N, K, 1.0f, a.data(), lda, b.data(), ldb, 0.0f,
                        c_ld.data(), ldc);
        for (int64_t i = 0; i < M; ++i) {
          for (int64_t j = 0; j < N; ++j) {
            double want = 0;
            for (int64_t p = 0; p < K; ++p)
              want += static_cast<double>(a[i * lda + p]) * b[p * ldb + j];
            const std::string where =
                "M" + std::to_string(M) + " N" + std::to_string(N) + " K" + std::to_string(K);
            // Float sums of K terms: the rounding error grows with K.
            const double atol = 2e-6 * static_cast<double>(K);
            ASSERT_TRUE(Near(c[i * N + j], want, 1e-5, atol)) << where << " at " << i << "," << j;
            ASSERT_TRUE(Near(c_ld[i * ldc + j], want, 1e-5, atol))
                << where << " (ld) at " << i << "," << j;
          }
          // Columns past N in C's rows are left alone.
          for (int64_t j = N; j < ldc; ++j) ASSERT_EQ(c_ld[i * ldc + j], 7.0f);
        }
      }
    }
  }
}

// The skinny GEMM (a few rows of A) against double sums: every row count, column counts across its
// blocks of 1024 and their remainders, K not a multiple of its row groups or lanes, leading
// dimensions, B stored K x N and N x K, overwriting and adding to C; and any split of the columns
// gives the same bits (threads split N).
TEST_P(VectorKernelsTest, SkinnyGemmMatchesLoopsAndSplitsOfColumns) {
  for (bool trans_b : {false, true}) {
    for (bool accumulate : {false, true}) {
      for (int64_t M = 1; M <= kSkinnyMaxRows; ++M) {
        for (int64_t N : {1, 17, 1024, 1500}) {
          for (int64_t K : {1, 3, 4, 37}) {
            const int64_t lda = K + 1, ldb = (trans_b ? K : N) + 3, ldc = N + 2;
            const std::vector<float> a = testing::RandomFloats(M * lda, -1, 1, 31),
                                     b = testing::RandomFloats((trans_b ? N : K) * ldb, -1, 1, 32),
                                     c0 = testing::RandomFloats(M * ldc, -1, 1, 33);
            std::vector<float> c = c0, halves = c0;
            k().skinny_gemm_f32(trans_b, accumulate, M, N, K, a.data(), lda, b.data(), ldb,
                                c.data(), ldc);
            const int64_t cut = N / 2 + 1;
            const int64_t b_cut = trans_b ? cut * ldb : cut;  // where column `cut` of op(B) starts
            k().skinny_gemm_f32(trans_b, accumulate, M, cut, K, a.data(), lda, b.data(), ldb,
                                halves.data(), ldc);
            k().skinny_gemm_f32(trans_b, accumulate, M, N - cut, K, a.data(), lda, b.data() + b_cut,
                                ldb, halves.data() + cut, ldc);
            const std::string where = "transB " + std::to_string(trans_b) + " accumulate " +
                                      std::to_string(accumulate) + " M" + std::to_string(M) + " N" +
                                      std::to_string(N) + " K" + std::to_string(K);
            for (int64_t i = 0; i < M; ++i) {
              for (int64_t j = 0; j < N; ++j) {
                double want = accumulate ? c0[i * ldc + j] : 0.0;
                for (int64_t p = 0; p < K; ++p) {
                  want += static_cast<double>(a[i * lda + p]) *
                          (trans_b ? b[j * ldb + p] : b[p * ldb + j]);
                }
                ASSERT_TRUE(Near(c[i * ldc + j], want, 1e-5, 1e-5 * static_cast<double>(K + 1)))
                    << where << " at " << i << "," << j;
                ASSERT_EQ(c[i * ldc + j], halves[i * ldc + j]) << where << " at " << i << "," << j;
              }
              for (int64_t j = N; j < ldc; ++j) ASSERT_EQ(c[i * ldc + j], c0[i * ldc + j]);
            }
          }
        }
      }
    }
  }
}

// The quantized skinny GEMM equals the float one on weights dequantized as DequantizeLinear does:
// 8-bit bit for bit; packed 4-bit within a few float roundings of sum |a * w| (on AVX-512 a chunk
// of rows is summed unscaled and scaled once), signed and unsigned, with and without zero points,
// per column and in blocks of rows (the last one short; 6 rows: groups of 4 rows straddle blocks),
// starting at a column other than 0.
TEST_P(VectorKernelsTest, SkinnyQuantizedGemmIsTheFloatOneOnDequantizedWeights) {
  const int64_t K = 45, cols = 1100, ld = cols + 4;
  for (int bits : {8, 4}) {
    for (bool is_signed : {true, false}) {
      for (bool zero_points : {false, true}) {
        for (int64_t block_rows : {K, int64_t{16}, int64_t{6}}) {
          const int64_t blocks = (K + block_rows - 1) / block_rows;
          // Values in range for `bits` (a byte each here), packed below for 4 bits.
          std::vector<uint8_t> q(K * ld), z(blocks * cols);
          std::vector<float> s = testing::RandomFloats(blocks * cols, 0.001f, 0.1f, 41);
          const float top = bits == 8 ? 255.99f : 15.99f;
          const std::vector<float> r = testing::RandomFloats(K * ld + blocks * cols, 0, top, 42);
          const int sign_bit = bits - 1;
          auto value = [&](uint8_t v) -> float {  // the stored bits read as DequantizeLinear does
            if (!is_signed) return static_cast<float>(v);
            return static_cast<float>(static_cast<int>(v) - ((v >> sign_bit) & 1) * (1 << bits));
          };
          for (size_t i = 0; i < q.size(); ++i) q[i] = static_cast<uint8_t>(r[i]);
          for (size_t i = 0; i < z.size(); ++i) z[i] = static_cast<uint8_t>(r[q.size() + i]);
          // Zero points are a byte each, sign-extended, in both layouts.
          std::vector<uint8_t> zbytes(z.size());
          for (size_t i = 0; i < z.size(); ++i)
            zbytes[i] = static_cast<uint8_t>(static_cast<int8_t>(value(z[i])));
          std::vector<uint8_t> stored = q;
          if (bits == 4) {
            stored.assign(K * ld / 2, 0);
            for (int64_t i = 0; i < K * ld; ++i)
              stored[i / 2] |= static_cast<uint8_t>(q[i] << (4 * (i % 2)));
          }
          const QuantizedMatrix m{stored.data(),
                                  is_signed,
                                  bits == 4 ? ld / 2 : ld,
                                  cols,
                                  block_rows,
                                  s.data(),
                                  zero_points ? zbytes.data() : nullptr,
                                  bits};
          const int64_t col0 = bits == 4 ? 6 : 5, N = cols - col0;
          std::vector<float> w(K * N);
          for (int64_t p = 0; p < K; ++p) {
            for (int64_t j = 0; j < N; ++j) {
              const int64_t at = p / block_rows * cols + col0 + j;
              const float zero = zero_points ? value(z[at]) : 0.0f;
              w[p * N + j] = (value(q[p * ld + col0 + j]) - zero) * s[at];
            }
          }
          for (int64_t M : {1, 4, 8}) {
            const std::vector<float> a = testing::RandomFloats(M * K, -1, 1, 43);
            std::vector<float> got(M * N), want(M * N);
            k().skinny_gemm_quantized_f32(M, N, K, a.data(), K, m, col0, got.data(), N);
            k().skinny_gemm_f32(false, false, M, N, K, a.data(), K, w.data(), N, want.data(), N);
            const std::string where =
                absl::StrCat(bits, " bits, signed ", is_signed, " zero points ", zero_points,
                             " block ", block_rows, " M ", M);
            if (bits == 8) {
              ASSERT_EQ(got, want) << where;
              continue;
            }
            for (int64_t i = 0; i < M; ++i) {
              for (int64_t j = 0; j < N; ++j) {
                float magnitude = 0;
                for (int64_t p = 0; p < K; ++p) magnitude += std::abs(a[i * K + p] * w[p * N + j]);
                ASSERT_NEAR(got[i * N + j], want[i * N + j], 1e-6f * magnitude)
                    << where << " at " << i << "," << j;
              }
            }
          }
        }
      }
    }
  }
}

// Packed 4-bit weights wider than one strip of the AVX-512 kernel (8192 columns) and more rows than
// one chunk (32), blocks of 48 (chunks end at block ends), against a double reference: within a few
// float roundings of sum |a * w|, with the columns past the last whole 32 included.
TEST_P(VectorKernelsTest, SkinnyQuantizedGemm4BitAcrossStripsAndChunks) {
  const int64_t K = 100, cols = 8192 + 150, block_rows = 48, blocks = (K + block_rows - 1) / 48;
  const std::vector<float> r = testing::RandomFloats(K * cols / 2 + blocks * cols, 0, 255.99f, 61);
  std::vector<uint8_t> stored(K * cols / 2), zero(blocks * cols);
  for (size_t i = 0; i < stored.size(); ++i) stored[i] = static_cast<uint8_t>(r[i]);
  for (size_t i = 0; i < zero.size(); ++i)
    zero[i] = static_cast<uint8_t>(static_cast<int>(r[stored.size() + i]) % 16);
  const std::vector<float> s = testing::RandomFloats(blocks * cols, 0.001f, 0.1f, 62);
  for (bool zero_points : {false, true}) {
    const QuantizedMatrix m{stored.data(),
                            false,
                            cols / 2,
                            cols,
                            block_rows,
                            s.data(),
                            zero_points ? zero.data() : nullptr,
                            4};
    const int64_t col0 = 2, N = cols - col0 - 1, M = 4;
    const std::vector<float> a = testing::RandomFloats(M * K, -1, 1, 63);
    std::vector<float> got(M * N);
    k().skinny_gemm_quantized_f32(M, N, K, a.data(), K, m, col0, got.data(), N);
    for (int64_t i = 0; i < M; ++i) {
      for (int64_t j = 0; j < N; ++j) {
        double want = 0, magnitude = 0;
        for (int64_t p = 0; p < K; ++p) {
          const int64_t c = col0 + j, at = p / block_rows * cols + c;
          const int q = (stored[(p * cols + c) / 2] >> (4 * (c % 2))) & 15;
          const double w = (q - (zero_points ? zero[at] : 0)) * static_cast<double>(s[at]);
          want += a[i * K + p] * w;
          magnitude += std::abs(a[i * K + p] * w);
        }
        ASSERT_NEAR(got[i * N + j], want, 1e-6 * magnitude)
            << "zero points " << zero_points << " at " << i << "," << j;
      }
    }
  }
}

// MatMulNBits' 4-bit rows against a double reference: with and without zero points (an odd number
// of blocks: the last zero-point byte half used), blocks of 16 and 64, M 1 to 8, a run of rows not
// starting at 0. The kernel sums in its own order: within a few float roundings of sum |a * w|.
TEST_P(VectorKernelsTest, SkinnyGemm4BitRowsMatchesDoubleReference) {
  const int64_t N = 70, row0 = 3, rows = N - row0;
  for (int64_t block : {int64_t{16}, int64_t{64}}) {
    const int64_t k_blocks = 5, K = k_blocks * block, blob = block / 2, zp_row = (k_blocks + 1) / 2;
    const std::vector<float> r =
        testing::RandomFloats(N * k_blocks * blob + N * zp_row, 0, 255.99f, 51);
    std::vector<uint8_t> q(N * k_blocks * blob), z(N * zp_row);
    for (size_t i = 0; i < q.size(); ++i) q[i] = static_cast<uint8_t>(r[i]);
    for (size_t i = 0; i < z.size(); ++i) z[i] = static_cast<uint8_t>(r[q.size() + i]);
    const std::vector<float> s = testing::RandomFloats(N * k_blocks, 0.001f, 0.1f, 52);
    for (bool zero_points : {false, true}) {
      const Blocked4BitRows w{q.data(), k_blocks, block, s.data(),
                              zero_points ? z.data() : nullptr};
      for (int64_t M = 1; M <= kSkinnyMaxRows; ++M) {
        const int64_t lda = K + 3;
        const std::vector<float> a = testing::RandomFloats(M * lda, -1, 1, 53);
        std::vector<float> c(M * rows, -1.0f);
        k().skinny_gemm_4bit_rows_f32(M, rows, a.data(), lda, w, row0, c.data(), rows);
        for (int64_t m = 0; m < M; ++m) {
          for (int64_t j = 0; j < rows; ++j) {
            const int64_t n = row0 + j;
            double want = 0, magnitude = 0;
            for (int64_t k = 0; k < K; ++k) {
              const uint8_t byte = q[(n * k_blocks + k / block) * blob + k % block / 2];
              const int qv = k % 2 == 0 ? byte & 15 : byte >> 4;
              const int64_t b = k / block;
              const uint8_t zbyte = z[n * zp_row + b / 2];
              const int zv = !zero_points ? 8 : b % 2 == 0 ? zbyte & 15 : zbyte >> 4;
              const double term =
                  a[m * lda + k] *
                  static_cast<double>((static_cast<float>(qv) - static_cast<float>(zv)) *
                                      s[n * k_blocks + b]);
              want += term;
              magnitude += std::abs(term);
            }
            ASSERT_TRUE(Near(c[m * rows + j], want, 0, 1e-6 * magnitude))
                << "block " << block << " zero points " << zero_points << " M " << M << " at " << m
                << "," << j;
          }
        }
      }
    }
  }
}

// Entries of every group size the kernels use (up to 4 at once, then the rest), hidden sizes
// below, at and across a unit block: against the cell computed in double from unpacked R, and the
// same bits whichever blocks a call covers and whichever entries are computed with it.
TEST_P(VectorKernelsTest, LstmStepMatchesTheCellInDouble) {
  auto sigmoid = [](double x) { return 1 / (1 + std::exp(-x)); };
  for (int64_t H : {1, 5, 16, 17, 40, 128}) {
    for (int64_t count : {1, 2, 3, 5}) {
      SCOPED_TRACE(absl::StrCat("H ", H, ", entries ", count));
      const std::vector<float> r = testing::RandomFloats(4 * H * H, -0.5f, 0.5f, H),
                               h = testing::RandomFloats(count * H, -1, 1, 7),
                               xw = testing::RandomFloats(count * 4 * H, -2, 2, 8),
                               c0 = testing::RandomFloats(count * H, -1, 1, 9);
      std::vector<float> packed(LstmPackedWeightsSize(H));
      PackLstmWeights(r.data(), H, packed.data());
      std::vector<float> c = c0, h_out(count * H, -7.0f);
      std::vector<const float*> h_rows, xw_rows;
      std::vector<float*> c_rows, out_rows;
      for (int64_t e = 0; e < count; ++e) {
        h_rows.push_back(h.data() + e * H);
        xw_rows.push_back(xw.data() + e * 4 * H);
        c_rows.push_back(c.data() + e * H);
        out_rows.push_back(h_out.data() + e * H);
      }
      const int64_t blocks = (H + kLstmUnitBlock - 1) / kLstmUnitBlock;
      k().lstm_step_f32(H, packed.data(),
                        {count, h_rows.data(), xw_rows.data(), c_rows.data(), out_rows.data()}, 0,
                        blocks);
      for (int64_t e = 0; e < count; ++e) {
        for (int64_t u = 0; u < H; ++u) {
          double gate[4];
          for (int g = 0; g < 4; ++g) {
            double sum = xw[e * 4 * H + g * H + u];
            for (int64_t j = 0; j < H; ++j)
              sum += static_cast<double>(h[e * H + j]) * r[(g * H + u) * H + j];
            gate[g] = sum;
          }
          const double cell =
              sigmoid(gate[2]) * c0[e * H + u] + sigmoid(gate[0]) * std::tanh(gate[3]);
          ASSERT_TRUE(Near(c[e * H + u], cell, 1e-5, 1e-5)) << "c at " << e << "," << u;
          ASSERT_TRUE(Near(h_out[e * H + u], sigmoid(gate[1]) * std::tanh(cell), 1e-5, 1e-5))
              << "h at " << e << "," << u;
        }
      }
      // Each entry alone, the blocks one call each: the same bits.
      for (int64_t e = 0; e < count; ++e) {
        std::vector<float> c1(c0.begin() + e * H, c0.begin() + (e + 1) * H), h1(H, -7.0f);
        const float* hp = h_rows[e];
        const float* xp = xw_rows[e];
        float* cp = c1.data();
        float* op = h1.data();
        for (int64_t b = 0; b < blocks; ++b)
          k().lstm_step_f32(H, packed.data(), {1, &hp, &xp, &cp, &op}, b, b + 1);
        for (int64_t u = 0; u < H; ++u) {
          ASSERT_EQ(c1[u], c[e * H + u]) << e << "," << u;
          ASSERT_EQ(h1[u], h_out[e * H + u]) << e << "," << u;
        }
      }
    }
  }
}

TEST_P(VectorKernelsTest, GemmWithEmptyInnerDimensionScalesC) {
  std::vector<float> c{1, 2, 3, 4};
  k().gemm_f32(false, false, 2, 2, 0, 1.0f, nullptr, nullptr, 0.5f, c.data());
  EXPECT_EQ(c, (std::vector<float>{0.5f, 1, 1.5f, 2}));
}

TEST_P(VectorKernelsTest, BinaryOpsInEveryOperandForm) {
  const int64_t n = 1000;  // not a multiple of any vector width
  const std::vector<float> a = testing::RandomFloats(n, -4, 4, 4),
                           b = testing::RandomFloats(n, 0.5f, 4, 5);
  const float s = 1.75f;
  struct Case {
    BinaryOp op;
    double (*f)(double, double);
  };
  const Case cases[] = {
      {BinaryOp::kAdd, [](double x, double y) { return x + y; }},
      {BinaryOp::kSub, [](double x, double y) { return x - y; }},
      {BinaryOp::kMul, [](double x, double y) { return x * y; }},
      {BinaryOp::kDiv, [](double x, double y) { return x / y; }},
      {BinaryOp::kMax, [](double x, double y) { return std::max(x, y); }},
      {BinaryOp::kMin, [](double x, double y) { return std::min(x, y); }},
  };
  for (const Case& c : cases) {
    std::vector<float> out(n);
    k().binary_f32(c.op, Operands::kVectorVector, a.data(), b.data(), out.data(), n);
    for (int64_t i = 0; i < n; ++i) ASSERT_TRUE(Near(out[i], c.f(a[i], b[i]), 1e-6, 0));
    k().binary_f32(c.op, Operands::kVectorScalar, a.data(), &s, out.data(), n);
    for (int64_t i = 0; i < n; ++i) ASSERT_TRUE(Near(out[i], c.f(a[i], s), 1e-6, 0));
    k().binary_f32(c.op, Operands::kScalarVector, &s, b.data(), out.data(), n);
    for (int64_t i = 0; i < n; ++i) ASSERT_TRUE(Near(out[i], c.f(s, b[i]), 1e-6, 0));
  }
  // In place, and NaN propagation of Max/Min.
  std::vector<float> x = a;
  k().binary_f32(BinaryOp::kAdd, Operands::kVectorScalar, x.data(), &s, x.data(), n);
  for (int64_t i = 0; i < n; ++i) ASSERT_EQ(x[i], a[i] + s);
  const float nan = std::numeric_limits<float>::quiet_NaN(), one = 1;
  float out;
  k().binary_f32(BinaryOp::kMax, Operands::kVectorScalar, &nan, &one, &out, 1);
  EXPECT_TRUE(std::isnan(out));
  k().binary_f32(BinaryOp::kMin, Operands::kVectorScalar, &one, &nan, &out, 1);
  EXPECT_TRUE(std::isnan(out));
}

// Exp, Tanh, Sigmoid and Erf over a dense sweep (including the small-argument and saturation
// regions) and their special values, within a few float ulp of the double result.
TEST_P(VectorKernelsTest, TranscendentalsAreAccurate) {
  std::vector<float> x;
  for (float v = -110; v <= 90; v += 0.013f) x.push_back(v);
  for (float v = -0.1f; v <= 0.1f; v += 1e-4f) x.push_back(v);
  const float inf = std::numeric_limits<float>::infinity(),
              nan = std::numeric_limits<float>::quiet_NaN();
  for (float v : {0.0f, -0.0f, 1e-30f, -1e-30f, inf, -inf, nan, 88.72f, 88.73f, -87.5f, -103.9f})
    x.push_back(v);
  const int64_t n = x.size();
  std::vector<float> y(n);
  struct Case {
    UnaryOp op;
    double (*f)(double);
    double rtol, atol;
  };
  // Within 4 ulp (Tanh 8: 1 - 2 / (e^2x + 1) cancels a little just above the range of its series).
  // Exp's results below float's normal range are within two denormal steps (2^n is applied in two
  // roundings); Sigmoid gives 0 where the true result is a denormal (e^-x overflows first).
  const Case cases[] = {
      {UnaryOp::kExp, [](double v) { return std::exp(v); }, 5e-7, 3e-45},
      {UnaryOp::kTanh, [](double v) { return std::tanh(v); }, 1e-6, 0},
      {UnaryOp::kSigmoid, [](double v) { return 1 / (1 + std::exp(-v)); }, 5e-7,
       std::numeric_limits<float>::min()},
      {UnaryOp::kErf, [](double v) { return std::erf(v); }, 3e-7, 0},
  };
  for (const Case& c : cases) {
    k().unary_f32(c.op, x.data(), y.data(), n, 0, 0);
    for (int64_t i = 0; i < n; ++i) {
      double want = c.f(x[i]);
      if (std::isfinite(want) && std::abs(want) > std::numeric_limits<float>::max()) want = inf;
      ASSERT_TRUE(Near(y[i], want, c.rtol, c.atol))
          << "x = " << x[i] << " op " << static_cast<int>(c.op);
    }
  }
}

TEST_P(VectorKernelsTest, PiecewiseActivations) {
  const std::vector<float> x{-3, -1, -0.5f, 0, 0.5f, 1, 3, 7};
  const int64_t n = x.size();
  std::vector<float> y(n);
  k().unary_f32(UnaryOp::kRelu, x.data(), y.data(), n, 0, 0);
  EXPECT_EQ(y, (std::vector<float>{0, 0, 0, 0, 0.5f, 1, 3, 7}));
  k().unary_f32(UnaryOp::kClip, x.data(), y.data(), n, 0, 6);
  EXPECT_EQ(y, (std::vector<float>{0, 0, 0, 0, 0.5f, 1, 3, 6}));
  k().unary_f32(UnaryOp::kLeakyRelu, x.data(), y.data(), n, 0.1f, 0);
  EXPECT_EQ(y[0], -3 * 0.1f);
  EXPECT_EQ(y[6], 3);
  k().unary_f32(UnaryOp::kHardSigmoid, x.data(), y.data(), n, 0.2f, 0.5f);
  EXPECT_EQ(y, (std::vector<float>{0, -1 * 0.2f + 0.5f, -0.5f * 0.2f + 0.5f, 0.5f,
                                   0.5f * 0.2f + 0.5f, 1 * 0.2f + 0.5f, 1, 1}));
  k().unary_f32(UnaryOp::kHardSwish, x.data(), y.data(), n, 0, 0);
  for (int64_t i = 0; i < n; ++i) {
    EXPECT_TRUE(Near(y[i], x[i] * std::clamp(x[i] / 6.0 + 0.5, 0.0, 1.0), 1e-6, 1e-7));
  }
  k().unary_f32(UnaryOp::kAbs, x.data(), y.data(), n, 0, 0);
  EXPECT_EQ(y[0], 3);
  k().unary_f32(UnaryOp::kNeg, x.data(), y.data(), n, 0, 0);
  EXPECT_EQ(y[7], -7);
  k().unary_f32(UnaryOp::kSqrt, x.data() + 3, y.data(), 5, 0, 0);
  EXPECT_EQ(y[4], std::sqrt(7.0f));
  k().unary_f32(UnaryOp::kReciprocal, x.data() + 4, y.data(), 4, 0, 0);
  EXPECT_EQ(y[0], 2);
}

TEST_P(VectorKernelsTest, ScaleShift) {
  const std::vector<float> x = testing::RandomFloats(101, -2, 2, 6);
  std::vector<float> y(x.size());
  k().scale_shift_f32(x.data(), 0.25f, -1, y.data(), x.size());
  for (size_t i = 0; i < x.size(); ++i) EXPECT_EQ(y[i], x[i] * 0.25f - 1);
}

// The GEMM that finishes rows as it stores them has the bits of the GEMM followed by the separate
// passes (bias add, scale_shift_f32, each activation), over shapes with a partial row block, a
// partial strip, two slices of K and a strided C; NaN and -0 through the activations.
TEST_P(VectorKernelsTest, GemmWithRowEpilogueIsTheGemmThenTheSeparatePasses) {
  // The baseline has no such kernel (its GEMM is Eigen's; the convolution then runs the passes);
  // every vector ISA has.
  ASSERT_EQ(k().gemm_epilogue_f32 == nullptr, GetParam() == Isa::kBaseline);
  if (GetParam() == Isa::kBaseline) return;
  struct Shape {
    int64_t M, N, K;
  };
  for (const Shape& sh :
       {Shape{13, 75, 37}, Shape{6, 64, 600}, Shape{20, 130, 1}, Shape{7, 49, 300}}) {
    const int64_t ldc = sh.N + 3;
    std::vector<float> a = testing::RandomFloats(sh.M * sh.K, -1, 1, 1);
    const std::vector<float> b = testing::RandomFloats(sh.K * sh.N, -1, 1, 2),
                             bias = testing::RandomFloats(sh.M, -1, 1, 3),
                             scale = testing::RandomFloats(sh.M, 0.5f, 2, 4),
                             shift = testing::RandomFloats(sh.M, -1, 1, 5);
    a[0] = std::numeric_limits<float>::quiet_NaN();      // row 0 of C is NaN
    for (int64_t p = 0; p < sh.K; ++p) a[sh.K + p] = 0;  // row 1 of C is zeros (-0 after -bias)
    for (auto act : {RowEpilogue::Activation::kNone, RowEpilogue::Activation::kRelu,
                     RowEpilogue::Activation::kClip, RowEpilogue::Activation::kLeakyRelu,
                     RowEpilogue::Activation::kHardSigmoid, RowEpilogue::Activation::kHardSwish}) {
      for (bool affine : {false, true}) {
        SCOPED_TRACE(absl::StrCat(sh.M, "x", sh.N, "x", sh.K, " activation ", static_cast<int>(act),
                                  " affine ", affine));
        RowEpilogue e;
        e.bias = bias.data();
        if (affine) {
          e.scale = scale.data();
          e.shift = shift.data();
        }
        e.activation = act;
        e.lo = -0.5f;
        e.hi = 0.75f;
        e.alpha = 0.3f;
        e.beta = 0.4f;
        std::vector<float> want(sh.M * ldc, 7), got(sh.M * ldc, 7);
        k().gemm_ld_f32(false, false, sh.M, sh.N, sh.K, 1, a.data(), sh.K, b.data(), sh.N, 0,
                        want.data(), ldc);
        for (int64_t i = 0; i < sh.M; ++i) {
          float* row = want.data() + i * ldc;
          k().binary_f32(BinaryOp::kAdd, Operands::kVectorScalar, row, &bias[i], row, sh.N);
          if (affine) k().scale_shift_f32(row, scale[i], shift[i], row, sh.N);
          if (act == RowEpilogue::Activation::kRelu)
            k().unary_f32(UnaryOp::kRelu, row, row, sh.N, 0, 0);
          if (act == RowEpilogue::Activation::kClip)
            k().unary_f32(UnaryOp::kClip, row, row, sh.N, e.lo, e.hi);
          if (act == RowEpilogue::Activation::kLeakyRelu)
            k().unary_f32(UnaryOp::kLeakyRelu, row, row, sh.N, e.alpha, 0);
          if (act == RowEpilogue::Activation::kHardSigmoid)
            k().unary_f32(UnaryOp::kHardSigmoid, row, row, sh.N, e.alpha, e.beta);
          if (act == RowEpilogue::Activation::kHardSwish)
            k().unary_f32(UnaryOp::kHardSwish, row, row, sh.N, 0, 0);
        }
        k().gemm_epilogue_f32(sh.M, sh.N, sh.K, a.data(), sh.K, b.data(), sh.N, got.data(), ldc, e);
        ASSERT_EQ(std::memcmp(got.data(), want.data(), got.size() * sizeof(float)), 0);
      }
    }
  }
}

// A weight packed once (pack_gemm_b_f32) gives products with the bits of B read in place
// (gemm_ld_f32; with a row epilogue, gemm_epilogue_f32), over a partial row block and strip, more
// than one slice of K, a long K that is sliced over all of C (A of more than 512 KB), a strided C,
// and a tile of columns and rows of K from inside the packed matrix; N % 8 of 1 or 2 (dot columns
// in place) is declined. The baseline (Eigen) has no packed kernel.
TEST_P(VectorKernelsTest, PackedWeightGemmHasTheBitsOfBInPlace) {
  ASSERT_EQ(k().packed_gemm_f32 != nullptr, GetParam() != Isa::kBaseline);
  if (k().packed_gemm_f32 == nullptr) return;
  const int64_t S = k().gemm_b_strip;
  struct Shape {
    int64_t M, N, K;
  };
  for (const Shape& sh : {Shape{13, 75, 37}, Shape{6, 64, 600}, Shape{20, 23, 1},
                          Shape{100, 40, 1500}, Shape{7, 48, 300}}) {
    SCOPED_TRACE(absl::StrCat(sh.M, "x", sh.N, "x", sh.K));
    const int64_t ldc = sh.N + 3;
    const std::vector<float> a = testing::RandomFloats(sh.M * sh.K, -1, 1, 1),
                             b = testing::RandomFloats(sh.K * sh.N, -1, 1, 2),
                             bias = testing::RandomFloats(sh.M, -1, 1, 3);
    std::vector<float> packed((sh.N + S - 1) / S * S * sh.K + 16);
    float* const p =
        packed.data() + (16 - reinterpret_cast<uintptr_t>(packed.data()) % 64 / 4) % 16;
    ASSERT_TRUE(k().pack_gemm_b_f32(sh.K, sh.N, b.data(), sh.N, p));
    std::vector<float> want(sh.M * ldc, 7), got(sh.M * ldc, 7);
    k().gemm_ld_f32(false, false, sh.M, sh.N, sh.K, 1, a.data(), sh.K, b.data(), sh.N, 0,
                    want.data(), ldc);
    ASSERT_TRUE(
        k().packed_gemm_f32(sh.M, sh.N, sh.K, a.data(), sh.K, p, sh.K, got.data(), ldc, nullptr));
    EXPECT_EQ(std::memcmp(got.data(), want.data(), got.size() * sizeof(float)), 0);
    RowEpilogue e;
    e.bias = bias.data();
    e.activation = RowEpilogue::Activation::kRelu;
    k().gemm_epilogue_f32(sh.M, sh.N, sh.K, a.data(), sh.K, b.data(), sh.N, want.data(), ldc, e);
    ASSERT_TRUE(
        k().packed_gemm_f32(sh.M, sh.N, sh.K, a.data(), sh.K, p, sh.K, got.data(), ldc, &e));
    EXPECT_EQ(std::memcmp(got.data(), want.data(), got.size() * sizeof(float)), 0);
    // Columns from the second strip on, rows of K from 5 on.
    if (sh.N > S && sh.K > 5) {
      const int64_t n = sh.N - S, kk = sh.K - 5;
      k().gemm_ld_f32(false, false, sh.M, n, kk, 1, a.data() + 5, sh.K, b.data() + 5 * sh.N + S,
                      sh.N, 0, want.data(), ldc);
      ASSERT_TRUE(k().packed_gemm_f32(sh.M, n, kk, a.data() + 5, sh.K, p + S * sh.K + 5 * S, sh.K,
                                      got.data(), ldc, nullptr));
      EXPECT_EQ(std::memcmp(got.data(), want.data(), got.size() * sizeof(float)), 0);
    }
  }
  for (int64_t n : {S + 1, int64_t{18}}) {  // N % 8 of 1, 2 (AVX2); N % 16 of 1, 2 (AVX-512)
    std::vector<float> b(4 * n), c(2 * n), packed((n + S - 1) / S * S * 4);
    EXPECT_FALSE(k().pack_gemm_b_f32(4, n, b.data(), n, packed.data()));
    EXPECT_FALSE(k().packed_gemm_f32(2, n, 4, b.data(), 4, packed.data(), 4, c.data(), n, nullptr));
  }
}

// A window of kernel kh x kw, strides sh, sw and dilations dh, dw over an in_h x in_w plane with
// the given pads, and the output size that follows; out_h or out_w <= 0 when the kernel does not
// fit.
Window2d MakeWindow(int64_t in_h, int64_t in_w, int64_t kh, int64_t kw, int64_t sh, int64_t sw,
                    int64_t dh, int64_t dw, int64_t top, int64_t left, int64_t bottom,
                    int64_t right) {
  Window2d win{in_h, in_w, 0, 0, kh, kw, sh, sw, dh, dw, top, left, bottom, right};
  win.out_h = (in_h + top + bottom - ((kh - 1) * dh + 1)) / sh + 1;
  win.out_w = (in_w + left + right - ((kw - 1) * dw + 1)) / sw + 1;
  return win;
}

// The column matrix of a 2-D convolution, stored (im2col), as ConvColumns describes it.
std::vector<float> StoredColumns(const ConvColumns& cols) {
  const Window2d& win = cols.win;
  const int64_t cells = win.kernel_h * win.kernel_w, O = win.out_h * win.out_w;
  std::vector<float> m(cols.channels * cells * O);
  for (int64_t c = 0; c < cols.channels; ++c) {
    for (int64_t cell = 0; cell < cells; ++cell) {
      const int64_t kh = cell / win.kernel_w, kw = cell % win.kernel_w;
      for (int64_t o = 0; o < O; ++o) {
        const int64_t ih = o / win.out_w * win.stride_h - win.pad_top + kh * win.dilation_h;
        const int64_t iw = o % win.out_w * win.stride_w - win.pad_left + kw * win.dilation_w;
        const bool inside = ih >= 0 && ih < win.in_h && iw >= 0 && iw < win.in_w;
        m[(c * cells + cell) * O + o] = inside ? cols.x[(c * win.in_h + ih) * win.in_w + iw] : 0.0f;
      }
    }
  }
  return m;
}

TEST_P(VectorKernelsTest, ConvGemmIsTheGemmOnTheStoredColumnMatrix) {
  ASSERT_EQ(k().conv_gemm_f32 == nullptr, GetParam() == Isa::kBaseline);
  if (k().conv_gemm_f32 == nullptr) return;
  struct Shape {
    int64_t kh, kw, sh, sw, dh, dw;
  };
  // Strides 1 and 2 (read as runs of a row), 3 and unequal ones (gathered), dilations, 1x1 and
  // 7x7 kernels.
  const Shape shapes[] = {{3, 3, 1, 1, 1, 1}, {3, 3, 2, 2, 1, 1}, {1, 1, 2, 2, 1, 1},
                          {7, 7, 2, 2, 1, 1}, {3, 3, 1, 1, 2, 2}, {1, 5, 3, 3, 1, 1},
                          {3, 3, 2, 1, 1, 3}, {5, 3, 1, 2, 1, 1}};
  int cases = 0;
  for (int64_t width : {5, 7, 16, 29}) {
    for (const Shape& sh : shapes) {
      for (int64_t pad : {0, 1, 3}) {
        for (int64_t channels : {1, 3, 70}) {
          if (channels == 70 && width != 16 && width != 29) continue;  // K over one slice
          // Uneven pads too.
          const Window2d win = MakeWindow(std::min<int64_t>(width, 9), width, sh.kh, sh.kw, sh.sh,
                                          sh.sw, sh.dh, sh.dw, pad, pad == 3 ? 1 : pad, pad, pad);
          if (win.out_h <= 0 || win.out_w <= 0) continue;
          const std::vector<float> x =
              testing::RandomFloats(channels * win.in_h * win.in_w, -1, 1, 31);
          const ConvColumns cols{x.data(), channels, win};
          const std::vector<float> b = StoredColumns(cols);
          const int64_t O = win.out_h * win.out_w, K = channels * sh.kh * sh.kw;
          for (int64_t M : {1, 4, 13}) {
            const int64_t lda = K + 2, ldc = O + 3;
            const std::vector<float> a = testing::RandomFloats(M * lda, -1, 1, 32),
                                     bias = testing::RandomFloats(M, -1, 1, 33);
            RowEpilogue e;
            e.bias = bias.data();
            e.activation = RowEpilogue::Activation::kRelu;
            // The whole plane, and columns from inside it (a tile of a split product).
            for (auto [o0, o1] : {std::pair<int64_t, int64_t>{0, O}, {O / 3, O - O / 4}}) {
              for (bool finished : {false, true}) {
                SCOPED_TRACE(absl::StrCat("w", width, " k", sh.kh, "x", sh.kw, " s", sh.sh, ",",
                                          sh.sw, " d", sh.dh, ",", sh.dw, " p", pad, " c", channels,
                                          " M", M, " columns ", o0, "-", o1,
                                          finished ? " finished" : ""));
                std::vector<float> want(M * ldc, 7.0f), got(M * ldc, 7.0f);
                if (o1 > o0) {
                  if (finished) {
                    k().gemm_epilogue_f32(M, o1 - o0, K, a.data(), lda, b.data() + o0, O,
                                          want.data() + o0, ldc, e);
                  } else {
                    k().gemm_ld_f32(false, false, M, o1 - o0, K, 1, a.data(), lda, b.data() + o0, O,
                                    0, want.data() + o0, ldc);
                  }
                }
                k().conv_gemm_f32(M, a.data(), lda, cols, o0, o1, got.data(), ldc,
                                  finished ? &e : nullptr);
                ASSERT_EQ(std::memcmp(got.data(), want.data(), got.size() * sizeof(float)), 0);
                ++cases;
              }
            }
          }
        }
      }
    }
  }
  EXPECT_GT(cases, 500);
}

// A stem's direct convolution against the convolution in double over the stored column matrix, for
// 1 to 4 channels, kernels up to 7x7, strides 1 to 3 (unequal too), dilation, uneven pads,
// output rows narrower and wider than a group of vectors, channel counts with a remainder past the
// groups of four, row ranges, and epilogues with and without an affine step and activation.
TEST_P(VectorKernelsTest, FewChannelConvMatchesTheColumnMatrixProductInDouble) {
  ASSERT_EQ(k().conv_few_channels_f32 == nullptr, GetParam() == Isa::kBaseline);
  if (k().conv_few_channels_f32 == nullptr) return;
  struct Shape {
    int64_t kh, kw, sh, sw, dh, dw;
  };
  const Shape shapes[] = {{3, 3, 2, 2, 1, 1}, {7, 7, 2, 2, 1, 1}, {3, 3, 1, 1, 1, 1},
                          {1, 1, 1, 1, 1, 1}, {3, 3, 1, 1, 2, 2}, {1, 5, 3, 3, 1, 1},
                          {3, 3, 2, 1, 1, 3}, {5, 3, 1, 2, 1, 1}};
  int cases = 0;
  for (int64_t width : {5, 17, 40, 150}) {
    for (const Shape& sh : shapes) {
      for (int64_t pad : {0, 1, 3}) {
        for (int64_t channels : {1, 3, 4}) {
          const Window2d win =
              MakeWindow(width == 150 ? 8 : std::min<int64_t>(width, 11), width, sh.kh, sh.kw,
                         sh.sh, sh.sw, sh.dh, sh.dw, pad, pad == 3 ? 1 : pad, pad, pad);
          if (win.out_h <= 0 || win.out_w <= 0) continue;
          const std::vector<float> x =
              testing::RandomFloats(channels * win.in_h * win.in_w, -1, 1, 41);
          const std::vector<float> b = StoredColumns({x.data(), channels, win});
          const int64_t O = win.out_h * win.out_w, K = channels * sh.kh * sh.kw;
          for (int64_t M : {3, 9}) {
            const std::vector<float> w = testing::RandomFloats(M * K, -1, 1, 42),
                                     bias = testing::RandomFloats(M, -1, 1, 43),
                                     scale = testing::RandomFloats(M, 0.5f, 2, 44),
                                     shift = testing::RandomFloats(M, -1, 1, 45);
            for (int form = 0; form < 3; ++form) {
              RowEpilogue e;
              e.bias = bias.data();
              if (form >= 1) {
                e.scale = scale.data();
                e.shift = shift.data();
              }
              if (form == 1) e.activation = RowEpilogue::Activation::kRelu;
              if (form == 2) {
                e.activation = RowEpilogue::Activation::kClip;
                e.lo = -0.5f;
                e.hi = 1.5f;
              }
              SCOPED_TRACE(absl::StrCat("w", width, " k", sh.kh, "x", sh.kw, " s", sh.sh, ",",
                                        sh.sw, " d", sh.dh, ",", sh.dw, " p", pad, " c", channels,
                                        " M", M, " form ", form));
              std::vector<float> whole(M * O, 7.0f), split(M * O, 7.0f);
              k().conv_few_channels_f32(x.data(), channels, win, w.data(), M, e, 0, win.out_h,
                                        whole.data());
              for (int64_t m = 0; m < M; ++m) {
                for (int64_t o = 0; o < O; ++o) {
                  double sum = 0;
                  for (int64_t t = 0; t < K; ++t)
                    sum += static_cast<double>(w[m * K + t]) * b[t * O + o];
                  sum += bias[m];
                  if (form >= 1) sum = sum * scale[m] + shift[m];
                  if (form == 1) sum = sum > 0 ? sum : 0;
                  if (form == 2) sum = std::min(std::max(sum, -0.5), 1.5);
                  ASSERT_TRUE(Near(whole[m * O + o], sum, 1e-5, 1e-5)) << m << "," << o;
                }
              }
              // Two calls, rows [0, h) and [h, out_h): the same bits.
              const int64_t h = win.out_h / 2;
              k().conv_few_channels_f32(x.data(), channels, win, w.data(), M, e, 0, h,
                                        split.data());
              k().conv_few_channels_f32(x.data(), channels, win, w.data(), M, e, h, win.out_h,
                                        split.data());
              ASSERT_EQ(std::memcmp(split.data(), whole.data(), whole.size() * sizeof(float)), 0);
              ++cases;
            }
          }
        }
      }
    }
  }
  EXPECT_GT(cases, 400);
}

// Winograd's F(2x2, 3x3) against the convolution in double over the stored column matrix, within
// a few float roundings of the sum of its terms' magnitudes: planes of odd and even sizes (tiles
// cut by the plane's edge), narrower than a vector of tiles and wider than a block, pads 0 to 2 and
// uneven, channel counts off the vectors and chunks, tile ranges starting mid-row, epilogues. Then
// the same tiles in two calls of output channels: the same bits.
TEST_P(VectorKernelsTest, WinogradConvMatchesTheColumnMatrixProductInDouble) {
  ASSERT_EQ(k().winograd3x3_f32 == nullptr, GetParam() == Isa::kBaseline);
  if (k().winograd3x3_f32 == nullptr) return;
  struct Plane {
    int64_t h, w, top, left, bottom, right;
  };
  const Plane planes[] = {{7, 7, 1, 1, 1, 1},  {14, 14, 1, 1, 1, 1}, {5, 40, 0, 0, 0, 0},
                          {9, 23, 2, 2, 2, 2}, {3, 150, 1, 0, 2, 1}, {30, 3, 0, 1, 1, 0},
                          {1, 1, 1, 1, 1, 1},  {4, 17, 1, 2, 0, 1}};
  int cases = 0;
  for (const Plane& p : planes) {
    const Window2d win = MakeWindow(p.h, p.w, 3, 3, 1, 1, 1, 1, p.top, p.left, p.bottom, p.right);
    const int64_t tiles = (win.out_h + 1) / 2 * ((win.out_w + 1) / 2), O = win.out_h * win.out_w;
    for (int64_t C : {1, 37}) {
      for (int64_t M : {3, 70}) {
        const int64_t K = C * 9;
        const std::vector<float> x = testing::RandomFloats(C * win.in_h * win.in_w, -1, 1, 51),
                                 w = testing::RandomFloats(M * K, -1, 1, 52),
                                 bias = testing::RandomFloats(M, -1, 1, 53),
                                 scale = testing::RandomFloats(M, 0.5f, 2, 54),
                                 shift = testing::RandomFloats(M, -1, 1, 55);
        const std::vector<float> b = StoredColumns({x.data(), C, win});
        std::vector<float> u(WinogradWeightsSize(M, C));
        PackWinogradWeights(w.data(), M, C, u.data());
        for (int form = 0; form < 3; ++form) {
          RowEpilogue e;
          e.bias = bias.data();
          if (form == 1) e.activation = RowEpilogue::Activation::kRelu;
          if (form == 2) {
            e.scale = scale.data();
            e.shift = shift.data();
            e.activation = RowEpilogue::Activation::kClip;
            e.lo = -0.5f;
            e.hi = 1.5f;
          }
          for (int64_t block : {kWinogradTiles, int64_t{10}}) {
            SCOPED_TRACE(absl::StrCat(p.h, "x", p.w, " pads ", p.top, ",", p.left, ",", p.bottom,
                                      ",", p.right, " C", C, " M", M, " form ", form, " block ",
                                      block));
            std::vector<float> y(M * O, 7.0f), halves(M * O, 7.0f);
            for (int64_t t0 = 0; t0 < tiles; t0 += block) {
              const int64_t t1 = std::min(tiles, t0 + block);
              k().winograd3x3_f32(x.data(), C, win, u.data(), M, form == 0 ? nullptr : &e, t0, t1,
                                  0, M, y.data());
              k().winograd3x3_f32(x.data(), C, win, u.data(), M, form == 0 ? nullptr : &e, t0, t1,
                                  0, M / 2, halves.data());
              k().winograd3x3_f32(x.data(), C, win, u.data(), M, form == 0 ? nullptr : &e, t0, t1,
                                  M / 2, M, halves.data());
            }
            for (int64_t m = 0; m < M; ++m) {
              for (int64_t o = 0; o < O; ++o) {
                double sum = 0;
                for (int64_t t = 0; t < K; ++t)
                  sum += static_cast<double>(w[m * K + t]) * b[t * O + o];
                // The rounding error's scale: the tile's whole 4 x 4 input (terms that cancel
                // exactly in the transforms still round) times each channel's largest tap.
                const int64_t oh = o / win.out_w, ow = o % win.out_w;
                const int64_t ih0 = oh / 2 * 2 - win.pad_top, iw0 = ow / 2 * 2 - win.pad_left;
                double magnitude = 0;
                for (int64_t c = 0; c < C; ++c) {
                  double tap = 0, inputs = 0;
                  for (int64_t t = 0; t < 9; ++t)
                    tap = std::max<double>(tap, std::abs(w[m * K + c * 9 + t]));
                  for (int64_t ih = std::max<int64_t>(ih0, 0); ih < std::min(ih0 + 4, win.in_h);
                       ++ih) {
                    for (int64_t iw = std::max<int64_t>(iw0, 0); iw < std::min(iw0 + 4, win.in_w);
                         ++iw)
                      inputs += std::abs(x[(c * win.in_h + ih) * win.in_w + iw]);
                  }
                  magnitude += tap * inputs;
                }
                if (form != 0) sum += bias[m];
                if (form == 1) sum = sum > 0 ? sum : 0;
                if (form == 2) sum = std::min(std::max(sum * scale[m] + shift[m], -0.5), 1.5);
                const double slack = 1e-6 * magnitude * (form == 2 ? scale[m] : 1.0f);
                ASSERT_TRUE(Near(y[m * O + o], sum, 1e-6, slack + 1e-7)) << m << "," << o;
              }
            }
            ASSERT_EQ(std::memcmp(halves.data(), y.data(), y.size() * sizeof(float)), 0);
            ++cases;
          }
        }
      }
    }
  }
  EXPECT_EQ(cases, 8 * 2 * 2 * 3 * 2);
}

TEST_P(VectorKernelsTest, QuantizationRangeIncludesZeroAndSkipsNan) {
  for (int64_t n : {0, 1, 15, 16, 17, 100}) {
    std::vector<float> x = testing::RandomFloats(n, 0.5f, 3, 8);
    if (n > 3) x[3] = std::numeric_limits<float>::quiet_NaN();
    float lo = 1, hi = -1;
    k().quantization_range_f32(x.data(), n, &lo, &hi);
    float want_hi = 0;
    for (float v : x) want_hi = v > want_hi ? v : want_hi;
    EXPECT_EQ(lo, 0.0f) << n;  // all positive: the range still reaches down to 0
    EXPECT_EQ(hi, want_hi) << n;
    for (float& v : x) v = -v;
    k().quantization_range_f32(x.data(), n, &lo, &hi);
    EXPECT_EQ(lo, -want_hi) << n;
    EXPECT_EQ(hi, 0.0f) << n;
    EXPECT_FALSE(std::signbit(hi)) << n;  // -0 never replaces the starting +0
  }
}

TEST_P(VectorKernelsTest, QuantizeRoundsHalfToEvenAndSaturates) {
  const float inf = std::numeric_limits<float>::infinity(),
              nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> x = {0.5f, 1.5f, 2.5f, -0.5f, -1.5f, 126.5f, 127.5f,  1e9f, -1e9f,
                          inf,  -inf, nan,  5e6f,  -5e6f, 300.0f, -300.0f, 0.0f, -0.0f};
  const std::vector<float> more = testing::RandomFloats(203, -200, 200, 9);
  x.insert(x.end(), more.begin(), more.end());
  for (float scale : {1.0f, 0.37f, 3.0f}) {
    for (float zero_point : {0.0f, 128.0f, 255.0f}) {
      std::vector<uint8_t> y(x.size());
      k().quantize_u8_f32(x.data(), x.size(), scale, zero_point, y.data());
      for (size_t i = 0; i < x.size(); ++i) {
        float v = std::nearbyint(x[i] / scale) + zero_point;
        v = v >= 255.0f ? 255.0f : (v > 0.0f ? v : 0.0f);
        ASSERT_EQ(y[i], static_cast<uint8_t>(v)) << x[i] << " / " << scale << " + " << zero_point;
      }
    }
  }
}

TEST_P(VectorKernelsTest, Int8GemmIsExact) {
  // AVX-512 (with VNNI, or AVX2's kernel without) and AVX2 have one; on the baseline the entry is
  // null and callers take their portable paths.
  const bool expected = GetParam() != Isa::kBaseline;
  ASSERT_EQ(k().gemm_8bit_s32 != nullptr, expected);
  if (!expected) return;
  struct Shape {
    int64_t M, N, K;
  };
  uint64_t state = 12345;
  auto next = [&] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<uint32_t>(state >> 33);
  };
  // Whole tiles and cut ones; depth not a multiple of 4, across several packed blocks, and empty;
  // every signedness, with scalar and per-row / per-column zero points.
  int variant = 0;
  for (const Shape s : {Shape{12, 32, 4}, Shape{1, 1, 1}, Shape{13, 33, 5}, Shape{25, 70, 1100},
                        Shape{64, 600, 27}, Shape{7, 513, 515}, Shape{5, 40, 0}, Shape{24, 64, 514},
                        Shape{11, 17, 130}, Shape{16, 100, 147}}) {
    for (int signs = 0; signs < 4; ++signs, ++variant) {
      const bool a_signed = signs & 1, b_signed = signs & 2, per_index = variant % 3 != 0;
      std::vector<uint8_t> a(s.M * s.K), b(s.K * s.N);
      for (auto& v : a) v = static_cast<uint8_t>(next());
      for (auto& v : b) v = static_cast<uint8_t>(next());
      auto value = [](uint8_t byte, bool is_signed) {
        return is_signed ? int32_t{static_cast<int8_t>(byte)} : int32_t{byte};
      };
      auto zero = [&](bool is_signed) {
        return is_signed ? static_cast<int32_t>(next() % 256) - 128
                         : static_cast<int32_t>(next() % 256);
      };
      std::vector<int32_t> za(per_index ? s.M : 1), zb(per_index ? s.N : 1);
      for (auto& z : za) z = zero(a_signed);
      for (auto& z : zb) z = zero(b_signed);
      // The extremes in the first row and column: (min - max zero point) products all along.
      for (int64_t kk = 0; kk < s.K; ++kk) {
        a[kk] = a_signed ? 0x80 : 0;
        b[kk * s.N] = b_signed ? 0x7f : 0xff;
      }
      za[0] = a_signed ? 127 : 255;
      zb[0] = b_signed ? -128 : 0;
      // Every fifth: A's zero points those of a quantizer's weights (128 for uint8, 0 for int8),
      // where B's column sums drop out of the result (the AVX-512 kernel skips them).
      if (variant % 5 == 3) {
        for (auto& z : za) z = a_signed ? 0 : 128;
      }
      std::vector<int32_t> c(s.M * s.N, 7);
      k().gemm_8bit_s32(s.M, s.N, s.K, Int8Operand{a.data(), a_signed, za.data(), per_index},
                        Int8Operand{b.data(), b_signed, zb.data(), per_index}, s.N, c.data(), s.N);
      // The same product in two calls on column ranges of B and C (their rows N apart), as the
      // threads split it: the same values.
      std::vector<int32_t> halves(s.M * s.N, 7);
      const int64_t cut = s.N / 2;
      for (const auto [j0, j1] : {std::pair<int64_t, int64_t>{0, cut}, {cut, s.N}}) {
        if (j1 == j0) continue;
        k().gemm_8bit_s32(
            s.M, j1 - j0, s.K, Int8Operand{a.data(), a_signed, za.data(), per_index},
            Int8Operand{b.data() + j0, b_signed, zb.data() + (per_index ? j0 : 0), per_index}, s.N,
            halves.data() + j0, s.N);
      }
      ASSERT_EQ(halves, c) << s.M << "x" << s.N << "x" << s.K << " signs " << signs;
      for (int64_t i = 0; i < s.M; ++i) {
        for (int64_t j = 0; j < s.N; ++j) {
          int64_t want = 0;
          for (int64_t kk = 0; kk < s.K; ++kk) {
            want += int64_t{value(a[i * s.K + kk], a_signed) - za[per_index ? i : 0]} *
                    (value(b[kk * s.N + j], b_signed) - zb[per_index ? j : 0]);
          }
          ASSERT_EQ(c[i * s.N + j], static_cast<int32_t>(static_cast<uint32_t>(want)))
              << s.M << "x" << s.N << "x" << s.K << " signs " << signs << " at " << i << "," << j;
        }
      }
    }
  }
}

TEST_P(VectorKernelsTest, SoftmaxAndLogSoftmaxRows) {
  const int64_t rows = 3, n = 77;
  const std::vector<float> x = testing::RandomFloats(rows * n, -20, 20, 7);
  std::vector<float> y(rows * n), ly(rows * n);
  k().softmax_rows_f32(x.data(), y.data(), rows, n, false);
  k().softmax_rows_f32(x.data(), ly.data(), rows, n, true);
  for (int64_t r = 0; r < rows; ++r) {
    double m = -1e30, sum = 0;
    for (int64_t i = 0; i < n; ++i) m = std::max<double>(m, x[r * n + i]);
    for (int64_t i = 0; i < n; ++i) sum += std::exp(x[r * n + i] - m);
    for (int64_t i = 0; i < n; ++i) {
      ASSERT_TRUE(Near(y[r * n + i], std::exp(x[r * n + i] - m) / sum, 1e-5, 1e-9));
      ASSERT_TRUE(Near(ly[r * n + i], x[r * n + i] - m - std::log(sum), 1e-5, 1e-5));
    }
  }
}

TEST_P(VectorKernelsTest, LayerNormRows) {
  const int64_t rows = 4, n = 768;
  const std::vector<float> x = testing::RandomFloats(rows * n, 100, 101, 8),
                           scale = testing::RandomFloats(n, 0.5f, 2, 9),
                           bias = testing::RandomFloats(n, -1, 1, 10);
  std::vector<float> y(rows * n), mean(rows), inv(rows);
  k().layer_norm_rows_f32(x.data(), scale.data(), bias.data(), y.data(), rows, n, 1e-5f,
                          mean.data(), inv.data());
  for (int64_t r = 0; r < rows; ++r) {
    double mu = 0, var = 0;
    for (int64_t i = 0; i < n; ++i) mu += x[r * n + i];
    mu /= n;
    for (int64_t i = 0; i < n; ++i) var += (x[r * n + i] - mu) * (x[r * n + i] - mu);
    var /= n;
    const double is = 1 / std::sqrt(var + 1e-5);
    EXPECT_TRUE(Near(mean[r], mu, 1e-7, 0));
    EXPECT_TRUE(Near(inv[r], is, 1e-6, 0));
    for (int64_t i = 0; i < n; ++i) {
      // x - mean loses the digits of x's magnitude (100) in float: about 1e-5 absolute before
      // scaling.
      ASSERT_TRUE(Near(y[r * n + i], (x[r * n + i] - mu) * is * scale[i] + bias[i], 1e-4, 1e-3));
    }
  }
}

// Scalar reference of one channel's window op over every geometry in a small sweep.
void ReferenceWindow(const std::vector<float>& x, const std::vector<float>& w, float bias,
                     const Window2d& win, int mode, bool count_pad, std::vector<float>& y) {
  y.assign(win.out_h * win.out_w, 0);
  for (int64_t oh = 0; oh < win.out_h; ++oh) {
    for (int64_t ow = 0; ow < win.out_w; ++ow) {
      double acc = mode == 1 ? -INFINITY : 0;
      int64_t count = 0;
      for (int64_t kh = 0; kh < win.kernel_h; ++kh) {
        for (int64_t kw = 0; kw < win.kernel_w; ++kw) {
          const int64_t ih = oh * win.stride_h - win.pad_top + kh * win.dilation_h;
          const int64_t iw = ow * win.stride_w - win.pad_left + kw * win.dilation_w;
          const bool inside = ih >= 0 && ih < win.in_h && iw >= 0 && iw < win.in_w;
          const bool in_padded = ih < win.in_h + win.pad_bottom && iw < win.in_w + win.pad_right;
          if (inside) {
            const double v = x[ih * win.in_w + iw];
            if (mode == 0)
              acc += v * w[kh * win.kernel_w + kw];
            else if (mode == 1)
              acc = std::max(acc, v);
            else
              acc += v;
            ++count;
          } else if (count_pad && in_padded) {
            ++count;
          }
        }
      }
      if (mode == 0) acc += bias;
      if (mode == 2) acc = count ? acc / count : 0;
      y[oh * win.out_w + ow] = static_cast<float>(acc);
    }
  }
}

TEST_P(VectorKernelsTest, GatherStridedMatchesLoop) {
  // Every length around the vector widths, each source exactly as long as it reads (the sanitizers
  // catch a read past it).
  for (int64_t stride : {1, 2, 3}) {
    for (int64_t n = 1; n <= 70; ++n) {
      const std::vector<float> src = testing::RandomFloats((n - 1) * stride + 1, -1, 1, 13);
      std::vector<float> got(n + 1, 7.0f);
      k().gather_strided_f32(src.data(), stride, n, got.data());
      for (int64_t i = 0; i < n; ++i)
        ASSERT_EQ(got[i], src[i * stride]) << "stride " << stride << " n " << n << " at " << i;
      ASSERT_EQ(got[n], 7.0f) << "wrote past n: stride " << stride << " n " << n;
      std::vector<uint8_t> bytes((n - 1) * stride + 1), got_bytes(n + 1, 7);
      for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>(i * 37 + n);
      k().gather_strided_u8(bytes.data(), stride, n, got_bytes.data());
      for (int64_t i = 0; i < n; ++i) {
        ASSERT_EQ(got_bytes[i], bytes[i * stride])
            << "bytes, stride " << stride << " n " << n << " at " << i;
      }
      ASSERT_EQ(got_bytes[n], 7) << "wrote past n: bytes, stride " << stride << " n " << n;
    }
  }
}

TEST_P(VectorKernelsTest, WindowKernelsOverGeometries) {
  // Widths whose rows hold no whole vector, some, and some and a part (the stride-2 depthwise rows
  // run in vectors of 8 or 16 outputs, the last one masked on AVX-512).
  for (int64_t width : {13, 40, 75}) {
    for (int64_t kernel : {1, 3, 5}) {
      for (int64_t stride : {1, 2}) {
        for (int64_t dilation : {1, 2}) {
          for (int64_t pad : {0, 1, 2, 3}) {
            Window2d win{};
            win.in_h = 9;
            win.in_w = width;
            win.kernel_h = kernel;
            win.kernel_w = kernel;
            win.stride_h = win.stride_w = stride;
            win.dilation_h = win.dilation_w = dilation;
            win.pad_top = win.pad_left = pad;
            // Uneven, as ceil_mode and SAME make it (pad 3: the top and left ones alone).
            win.pad_bottom = win.pad_right = pad == 3 ? 0 : pad + (stride - 1);
            const int64_t ek = (kernel - 1) * dilation + 1;
            win.out_h = (win.in_h + win.pad_top + win.pad_bottom - ek) / stride + 1;
            win.out_w = (win.in_w + win.pad_left + win.pad_right - ek) / stride + 1;
            if (win.out_h <= 0 || win.out_w <= 0) continue;
            const std::vector<float> x = testing::RandomFloats(win.in_h * win.in_w, -1, 1, 11),
                                     w = testing::RandomFloats(kernel * kernel, -1, 1, 12);
            std::vector<float> got(win.out_h * win.out_w), want;
            const std::string where = "w" + std::to_string(width) + " k" + std::to_string(kernel) +
                                      " s" + std::to_string(stride) + " d" +
                                      std::to_string(dilation) + " p" + std::to_string(pad);
            k().depthwise_conv2d_f32(x.data(), w.data(), 0.5f, win, got.data());
            ReferenceWindow(x, w, 0.5f, win, 0, false, want);
            for (size_t i = 0; i < got.size(); ++i)
              ASSERT_TRUE(Near(got[i], want[i], 1e-5, 1e-6)) << where;
            if (pad < kernel) {  // pooling windows always hold an input cell
              k().max_pool2d_f32(x.data(), win, got.data());
              ReferenceWindow(x, w, 0, win, 1, false, want);
              for (size_t i = 0; i < got.size(); ++i) ASSERT_EQ(got[i], want[i]) << where;
            }
            for (bool count_pad : {false, true}) {
              k().average_pool2d_f32(x.data(), win, count_pad, got.data());
              ReferenceWindow(x, w, 0, win, 2, count_pad, want);
              for (size_t i = 0; i < got.size(); ++i)
                ASSERT_TRUE(Near(got[i], want[i], 1e-5, 1e-6)) << where;
            }
          }
        }
      }
    }
  }
}

TEST_P(VectorKernelsTest, BlockedDepthwiseMatchesTheReferencePerChannel) {
  if (k().depthwise_conv2d_block_f32 == nullptr) {
    EXPECT_EQ(k().depthwise_block_channels, 0);
    return;
  }
  const int64_t lanes = k().depthwise_block_channels;
  ASSERT_TRUE(lanes == 8 || lanes == 16);
  struct Shape {
    int64_t kh, kw, sh, sw, dh, dw;
  };
  // Square kernels at strides 1 and 2 (the compiled-in forms), dilations, and the general form
  // (non-square, stride 3, unequal strides).
  const Shape shapes[] = {{3, 3, 1, 1, 1, 1}, {3, 3, 2, 2, 1, 1}, {5, 5, 1, 1, 1, 1},
                          {5, 5, 2, 2, 1, 1}, {3, 3, 1, 1, 2, 2}, {3, 1, 1, 1, 1, 1},
                          {1, 5, 3, 3, 1, 1}, {3, 3, 2, 1, 1, 3}, {1, 1, 1, 1, 1, 1}};
  int cases = 0;
  for (int64_t width : {5, 7, 14, 17, 40}) {
    for (const Shape& sh : shapes) {
      for (int64_t pad : {0, 1, 2}) {
        for (int64_t channels : {int64_t{1}, int64_t{5}, lanes}) {
          // 6 rows of 40 keep the sweep quick; uneven pads too.
          const Window2d win =
              MakeWindow(width == 40 ? 6 : width, width, sh.kh, sh.kw, sh.sh, sh.sw, sh.dh, sh.dw,
                         pad, pad == 2 ? 0 : pad, pad, pad + 1);
          if (win.out_h <= 0 || win.out_w <= 0) continue;
          // Planes further apart than their size, with guard values between the output planes.
          const int64_t in_plane = win.in_h * win.in_w + 3, out_plane = win.out_h * win.out_w + 5;
          const int64_t K = sh.kh * sh.kw;
          const std::vector<float> x = testing::RandomFloats(channels * in_plane, -1, 1, 21),
                                   w = testing::RandomFloats(channels * K, -1, 1, 22),
                                   bias = testing::RandomFloats(channels, -1, 1, 23),
                                   scale = testing::RandomFloats(channels, 0.5, 2, 24),
                                   shift = testing::RandomFloats(channels, -1, 1, 25);
          // The bias alone, then with a folded BatchNormalization and Clip (a ReLU6 in between:
          // some outputs clipped at each end).
          for (bool finished : {false, true}) {
            RowEpilogue e;
            e.bias = bias.data();
            if (finished) {
              e.scale = scale.data();
              e.shift = shift.data();
              e.activation = RowEpilogue::Activation::kClip;
              e.lo = -0.5f;
              e.hi = 0.6f;
            }
            const std::string where = "w" + std::to_string(width) + " k" + std::to_string(sh.kh) +
                                      "x" + std::to_string(sh.kw) + " s" + std::to_string(sh.sh) +
                                      "," + std::to_string(sh.sw) + " d" + std::to_string(sh.dh) +
                                      "," + std::to_string(sh.dw) + " p" + std::to_string(pad) +
                                      " c" + std::to_string(channels);
            // The whole plane in one band, and in bands of 1 and 3 rows.
            for (int64_t band : {win.out_h, int64_t{1}, int64_t{3}}) {
              std::vector<float> got(channels * out_plane, 7.0f);
              for (int64_t oh0 = 0; oh0 < win.out_h; oh0 += band) {
                k().depthwise_conv2d_block_f32(x.data(), in_plane, w.data(), e, channels, win, oh0,
                                               std::min(win.out_h, oh0 + band), got.data(),
                                               out_plane, nullptr);
              }
              for (int64_t c = 0; c < channels; ++c) {
                const std::vector<float> xc(x.begin() + c * in_plane,
                                            x.begin() + c * in_plane + win.in_h * win.in_w);
                const std::vector<float> wc(w.begin() + c * K, w.begin() + (c + 1) * K);
                std::vector<float> want;
                ReferenceWindow(xc, wc, bias[c], win, 0, false, want);
                if (finished) {
                  for (float& v : want) v = std::clamp(v * scale[c] + shift[c], e.lo, e.hi);
                }
                for (int64_t i = 0; i < win.out_h * win.out_w; ++i) {
                  ASSERT_TRUE(Near(got[c * out_plane + i], want[i], 1e-5, 1e-6))
                      << where << " band " << band << " channel " << c << " at " << i;
                }
                for (int64_t i = win.out_h * win.out_w; i < out_plane; ++i)
                  ASSERT_EQ(got[c * out_plane + i], 7.0f) << where << ": wrote between planes";
              }
            }
          }
          ++cases;
        }
      }
    }
  }
  EXPECT_GT(cases, 300);
}

// With a 1x1 convolution as its source, the kernel reads what that convolution would have stored:
// the same outputs, bit for bit, as from the expansion computed first (each value summed in k order
// from zero with one rounding per step, then bias, scale/shift, Clip, as the GEMM finishes rows).
TEST_P(VectorKernelsTest, BlockedDepthwiseFromAPointwiseSourceMatchesItsOutputComputedFirst) {
  if (k().depthwise_conv2d_block_f32 == nullptr) return;
  const int64_t lanes = k().depthwise_block_channels;
  int cases = 0;
  for (int64_t width : {7, 13, 56}) {
    for (int64_t stride : {1, 2}) {
      for (int64_t channels_in : {int64_t{1}, int64_t{3}, int64_t{24}}) {
        for (int64_t channels : {int64_t{5}, lanes}) {
          const int64_t height = width == 56 ? 9 : width;
          const Window2d win = MakeWindow(height, width, 3, 3, stride, stride, 1, 1, 1, 1, 1, 1);
          const int64_t in_plane = height * width, out_plane = win.out_h * win.out_w;
          const std::vector<float> x = testing::RandomFloats(channels_in * in_plane, -1, 1, 31),
                                   w1 = testing::RandomFloats(channels * channels_in, -1, 1, 32),
                                   b1 = testing::RandomFloats(channels, -1, 1, 33),
                                   s1 = testing::RandomFloats(channels, 0.5, 2, 34),
                                   t1 = testing::RandomFloats(channels, -1, 1, 35),
                                   w2 = testing::RandomFloats(channels * 9, -1, 1, 36),
                                   b2 = testing::RandomFloats(channels, -1, 1, 37);
          RowEpilogue e1;
          e1.bias = b1.data();
          e1.scale = s1.data();
          e1.shift = t1.data();
          e1.activation = RowEpilogue::Activation::kClip;
          e1.lo = -0.7f;
          e1.hi = 0.8f;
          // The expansion as the separate convolution's GEMM computes it.
          std::vector<float> expanded(channels * in_plane);
          for (int64_t c = 0; c < channels; ++c) {
            for (int64_t p = 0; p < in_plane; ++p) {
              float acc = 0;
              for (int64_t q = 0; q < channels_in; ++q)
                acc = std::fma(w1[c * channels_in + q], x[q * in_plane + p], acc);
              const float v = std::fma(acc + b1[c], s1[c], t1[c]);
              expanded[c * in_plane + p] = v < e1.lo ? e1.lo : (v > e1.hi ? e1.hi : v);
            }
          }
          RowEpilogue e2;
          e2.bias = b2.data();
          e2.activation = RowEpilogue::Activation::kRelu;
          const PointwiseSource source{
              .x = x.data(), .channels_in = channels_in, .weights = w1.data(), .e = e1};
          const std::string where = "w" + std::to_string(width) + " s" + std::to_string(stride) +
                                    " in" + std::to_string(channels_in) + " c" +
                                    std::to_string(channels);
          for (int64_t band : {win.out_h, int64_t{2}}) {
            std::vector<float> want(channels * out_plane), got(channels * out_plane);
            for (int64_t oh0 = 0; oh0 < win.out_h; oh0 += band) {
              const int64_t oh1 = std::min(win.out_h, oh0 + band);
              k().depthwise_conv2d_block_f32(expanded.data(), in_plane, w2.data(), e2, channels,
                                             win, oh0, oh1, want.data(), out_plane, nullptr);
              k().depthwise_conv2d_block_f32(nullptr, in_plane, w2.data(), e2, channels, win, oh0,
                                             oh1, got.data(), out_plane, &source);
            }
            for (size_t i = 0; i < got.size(); ++i)
              ASSERT_EQ(got[i], want[i]) << where << " band " << band << " at " << i;
          }
          ++cases;
        }
      }
    }
  }
  EXPECT_EQ(cases, 3 * 2 * 3 * 2);
}

INSTANTIATE_TEST_SUITE_P(EveryIsa, VectorKernelsTest, ::testing::ValuesIn(SupportedIsas()),
                         [](const ::testing::TestParamInfo<Isa>& info) {
                           return std::string(IsaName(info.param));
                         });

TEST(IsaTest, ParsesNamesAndRefusesWhatTheCpuLacks) {
  EXPECT_EQ(*ParseIsa("AVX2"), Isa::kAvx2);
  EXPECT_EQ(*ParseIsa("baseline"), Isa::kBaseline);
  EXPECT_FALSE(ParseIsa("neon").ok());
  EXPECT_TRUE(SetActiveIsa(Isa::kBaseline).ok());
  EXPECT_EQ(ActiveIsa(), Isa::kBaseline);
  EXPECT_EQ(Vec().isa, Isa::kBaseline);
  EXPECT_TRUE(SetActiveIsa(DetectedIsa()).ok());
  EXPECT_EQ(Vec().isa, DetectedIsa());
}

}  // namespace
}  // namespace onnx_opt::interpreter
