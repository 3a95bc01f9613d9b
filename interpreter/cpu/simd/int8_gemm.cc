// C (int32) = (A - za) x (B - zb) for 8-bit A and B on AVX-512 VNNI. vpdpbusd adds, to each int32
// lane, the four products of four unsigned bytes and four signed bytes, so A is packed as signed
// bytes S = A - sA and B as unsigned bytes U = B + sB (sA = 128 for uint8 A, sB = 128 for int8 B,
// else 0: a flip of the top bit). With alpha_i = sA - za_i and beta_j = sB + zb_j,
//   (A - za)(B - zb) = S U - beta_j * rowsum(S)_i + alpha_i * colsum(U)_j - K * alpha_i * beta_j,
// and the last three terms are added once per element at the end. Products of 8-bit values and
// their sums of four fit int32 exactly and every sum wraps like an int32 accumulator, so the result
// is the exact value modulo 2^32 in any order: the same as every other integer path.
//
// The scheme is the GotoBLAS/BLIS one: C is computed in kMr x kNr register tiles; A is packed once
// per call into panels of kMr rows holding, for each group of four k, the rows' four bytes side by
// side (one broadcast int32 each); B is packed per kKc x kNc block into panels of kNr columns
// holding, for each group of four k, every column's four bytes side by side (two 64-byte loads).
// Missing rows, columns and depth are packed as zeros; a tile at the edge of C computes only its
// rows and stores its columns under masks (Tile).
#include <cstring>

#include "interpreter/cpu/scratch.h"
#include "interpreter/cpu/simd/intrinsics.h"
#include "interpreter/cpu/simd/simd.h"

namespace onnx_opt::interpreter::ONNX_OPT_SIMD_NS {

#if defined(__AVX512F__)
namespace {

constexpr int kMr = 12;       // 12 x 2 accumulators + 2 B vectors + 1 broadcast of the 32 registers
constexpr int kNr = 32;       // two vectors of 16 int32
constexpr int64_t kKc = 512;  // depth of a packed block (a multiple of 4)
constexpr int64_t kNc = 512;  // columns of a packed B block: kKc x kNc bytes = 256 KB, in L2

int64_t RoundUp4(int64_t k) { return (k + 3) / 4 * 4; }

// Rows [0, kRows) of a tile's sums over `groups` groups of four k, stored to (or added to) c, ldc
// apart, columns under masks m0 and m1 (of the tile's two vectors). A tile of fewer rows computes
// only those: edge tiles computed whole into a buffer and copied out element by element took 12%
// of a quantized CNN whose layers have 16 to 64 output channels (16 = 12 + 4, 64 = 5 x 12 + 4).
template <int kRows>
__attribute__((target("avx512vnni"))) void Tile(int64_t groups, const int8_t* a, const uint8_t* b,
                                                int32_t* c, int64_t ldc, __mmask16 m0, __mmask16 m1,
                                                bool accumulate) {
  __m512i acc[kRows][2];
#pragma GCC unroll 16
  for (int r = 0; r < kRows; ++r) acc[r][0] = acc[r][1] = _mm512_setzero_si512();
  for (int64_t k = 0; k < groups; ++k) {
    const __m512i b0 = _mm512_loadu_si512(b), b1 = _mm512_loadu_si512(b + 64);
#pragma GCC unroll 16
    for (int r = 0; r < kRows; ++r) {
      int32_t four;
      std::memcpy(&four, a + 4 * r, sizeof(four));
      const __m512i ar = _mm512_set1_epi32(four);
      acc[r][0] = _mm512_dpbusd_epi32(acc[r][0], b0, ar);
      acc[r][1] = _mm512_dpbusd_epi32(acc[r][1], b1, ar);
    }
    a += 4 * kMr;
    b += 4 * kNr;
  }
  const __mmask16 masks[2] = {m0, m1};
#pragma GCC unroll 16
  for (int r = 0; r < kRows; ++r) {
    int32_t* row = c + r * ldc;
    for (int v = 0; v < 2; ++v) {
      __m512i x = acc[r][v];
      if (accumulate) x = _mm512_add_epi32(x, _mm512_maskz_loadu_epi32(masks[v], row + 16 * v));
      _mm512_mask_storeu_epi32(row + 16 * v, masks[v], x);
    }
  }
}

// Tile<rows> for rows in [1, kMr] and the first `cols` (<= kNr) columns.
void TileOf(int64_t rows, int64_t cols, int64_t groups, const int8_t* a, const uint8_t* b,
            int32_t* c, int64_t ldc, bool accumulate) {
  const __mmask16 m0 = FirstLanes16(cols), m1 = FirstLanes16(cols - 16);
  switch (rows) {
#define ONNX_OPT_TILE_CASE(n) \
  case n:                     \
    return Tile<n>(groups, a, b, c, ldc, m0, m1, accumulate);
    ONNX_OPT_TILE_CASE(1)
    ONNX_OPT_TILE_CASE(2)
    ONNX_OPT_TILE_CASE(3)
    ONNX_OPT_TILE_CASE(4)
    ONNX_OPT_TILE_CASE(5)
    ONNX_OPT_TILE_CASE(6)
    ONNX_OPT_TILE_CASE(7)
    ONNX_OPT_TILE_CASE(8)
    ONNX_OPT_TILE_CASE(9)
    ONNX_OPT_TILE_CASE(10)
    ONNX_OPT_TILE_CASE(11)
#undef ONNX_OPT_TILE_CASE
    default:
      return Tile<kMr>(groups, a, b, c, ldc, m0, m1, accumulate);
  }
}

thread_local Scratch a_scratch, b_scratch, sum_scratch;

// alpha_i = sA - za_i (see the top of the file).
uint32_t Alpha(const Int8Operand& A, int64_t i) {
  return (A.is_signed ? 0u : 128u) - static_cast<uint32_t>(A.zero_points[A.per_index ? i : 0]);
}

// A (M x K bytes, rows lda apart) as signed bytes (top bit flipped when A is unsigned) in panels of
// kMr rows, depth padded to a multiple of 4: panel p holds, per group of four k, kMr runs of four
// bytes. row_sums[i] receives the sum of row i's signed bytes. A convolution's weights are packed
// on every call: byte by byte, with a test per byte, that cost a quantized CNN 8% of its time.
void PackA(const uint8_t* A, int64_t lda, uint8_t flip, int64_t M, int64_t K, int8_t* packed,
           uint32_t* row_sums) {
  const int64_t k4 = RoundUp4(K), whole = K / 4 * 4;
  // The signed sum as the unsigned one of the bytes with their top bit flipped once more (s + 128),
  // 64 at a time, less 128 per byte.
  const __m512i flip_signed = _mm512_set1_epi8(static_cast<char>(flip ^ 0x80));
  for (int64_t i = 0; i < M; ++i) {
    const uint8_t* row = A + i * lda;
    __m512i wide = _mm512_setzero_si512();
    int64_t k = 0;
    for (; k + 64 <= K; k += 64) {
      const __m512i v = _mm512_xor_si512(_mm512_loadu_si512(row + k), flip_signed);
      wide = _mm512_add_epi64(wide, _mm512_sad_epu8(v, _mm512_setzero_si512()));
    }
    uint32_t sum =
        static_cast<uint32_t>(_mm512_reduce_add_epi64(wide)) - 128u * static_cast<uint32_t>(k);
    for (; k < K; ++k) sum += static_cast<uint32_t>(int32_t{static_cast<int8_t>(row[k] ^ flip)});
    row_sums[i] = sum;
  }
  const uint32_t flip4 = 0x01010101u * flip;
  for (int64_t i0 = 0; i0 < M; i0 += kMr) {
    int8_t* panel = packed + i0 * k4;
    const int64_t rows = M - i0 < kMr ? M - i0 : kMr;
    for (int64_t k = 0; k < k4; k += 4) {
      int8_t* dst = panel + k * kMr;
      for (int64_t r = 0; r < kMr; ++r) {
        uint32_t four = 0;
        if (r < rows && k < whole) {
          std::memcpy(&four, A + (i0 + r) * lda + k, sizeof(four));
          four ^= flip4;
        } else if (r < rows) {
          for (int64_t t = 0; k + t < K; ++t)
            four |= static_cast<uint32_t>(A[(i0 + r) * lda + k + t] ^ flip) << (8 * t);
        }
        std::memcpy(dst + r * 4, &four, sizeof(four));
      }
    }
  }
}

// Four rows of 16 bytes, top bits xor-ed with `flip`, as 16 columns of four bytes (64 bytes).
inline void Interleave16(const uint8_t* r0, const uint8_t* r1, const uint8_t* r2, const uint8_t* r3,
                         __m128i flip, uint8_t* dst) {
  const __m128i a = _mm_xor_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(r0)), flip);
  const __m128i b = _mm_xor_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(r1)), flip);
  const __m128i c = _mm_xor_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(r2)), flip);
  const __m128i d = _mm_xor_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(r3)), flip);
  const __m128i ab_lo = _mm_unpacklo_epi8(a, b), ab_hi = _mm_unpackhi_epi8(a, b);
  const __m128i cd_lo = _mm_unpacklo_epi8(c, d), cd_hi = _mm_unpackhi_epi8(c, d);
  __m128i* out = reinterpret_cast<__m128i*>(dst);
  _mm_storeu_si128(out + 0, _mm_unpacklo_epi16(ab_lo, cd_lo));
  _mm_storeu_si128(out + 1, _mm_unpackhi_epi16(ab_lo, cd_lo));
  _mm_storeu_si128(out + 2, _mm_unpacklo_epi16(ab_hi, cd_hi));
  _mm_storeu_si128(out + 3, _mm_unpackhi_epi16(ab_hi, cd_hi));
}

// Rows k0..k0+kc and columns j0..j0+nc of B (rows ldb apart) as unsigned bytes (top bit flipped
// when B is signed) in panels of kNr columns: per group of four k, each column's four bytes side by
// side. Depth beyond K is packed as zeros.
void PackB(const uint8_t* B, int64_t ldb, uint8_t flip, int64_t K, int64_t k0, int64_t kc,
           int64_t j0, int64_t nc, uint8_t* packed) {
  alignas(16) static const uint8_t kZeros[kNr] = {};
  const __m128i flip16 = _mm_set1_epi8(static_cast<char>(flip));
  const __m128i none = _mm_setzero_si128();
  const int64_t kc4 = RoundUp4(kc);
  for (int64_t q = 0; q < nc; q += kNr) {
    const int64_t cols = nc - q < kNr ? nc - q : kNr;
    uint8_t* panel = packed + q * kc4;
    for (int64_t k = 0; k < kc4; k += 4) {
      uint8_t* dst = panel + k * kNr;
      const uint8_t* rows[4];
      for (int t = 0; t < 4; ++t)
        rows[t] = k0 + k + t < K ? B + (k0 + k + t) * ldb + j0 + q : kZeros;
      if (cols == kNr && k0 + k + 3 < K) {
        Interleave16(rows[0], rows[1], rows[2], rows[3], flip16, dst);
        Interleave16(rows[0] + 16, rows[1] + 16, rows[2] + 16, rows[3] + 16, flip16, dst + 64);
      } else if (cols == kNr) {
        // The last group, partly beyond K: those rows stay zero (unflipped).
        alignas(16) uint8_t flipped[4][kNr];
        for (int t = 0; t < 4; ++t) {
          const bool inside = k0 + k + t < K;
          for (int64_t j = 0; j < kNr; ++j) flipped[t][j] = inside ? rows[t][j] ^ flip : 0;
        }
        Interleave16(flipped[0], flipped[1], flipped[2], flipped[3], none, dst);
        Interleave16(flipped[0] + 16, flipped[1] + 16, flipped[2] + 16, flipped[3] + 16, none,
                     dst + 64);
      } else {
        for (int64_t j = 0; j < kNr; ++j) {
          for (int t = 0; t < 4; ++t) {
            const bool inside = j < cols && k0 + k + t < K;
            dst[j * 4 + t] = inside ? rows[t][j] ^ flip : 0;
          }
        }
      }
    }
  }
}

}  // namespace

void Gemm8BitS32(int64_t M, int64_t N, int64_t K, const Int8Operand& A, const Int8Operand& B,
                 int64_t ldb, int32_t* C, int64_t ldc) {
  if (M == 0 || N == 0) return;
  const uint8_t flip_a = A.is_signed ? 0 : 0x80, flip_b = B.is_signed ? 0x80 : 0;
  const int64_t k4 = RoundUp4(K);
  const int64_t panels = (M + kMr - 1) / kMr;
  auto* packed_a = static_cast<int8_t*>(a_scratch.Get(panels * kMr * k4 + 1));
  auto* packed_b = static_cast<uint8_t*>(b_scratch.Get(kKc * ((kNc + kNr - 1) / kNr * kNr)));
  auto* sums = static_cast<uint32_t*>(
      sum_scratch.Get((M + 2 * kNc) * static_cast<int64_t>(sizeof(uint32_t))));
  uint32_t* row_sums = sums;
  uint32_t* col_sums = sums + M;     // of the current block of columns
  uint32_t* betas = col_sums + kNc;  // sB + zb_j, likewise
  PackA(A.data, K, flip_a, M, K, packed_a, row_sums);
  bool any_alpha = false;
  for (int64_t i = 0; i < M && !any_alpha; ++i) any_alpha = Alpha(A, i) != 0;
  for (int64_t j0 = 0; j0 < N; j0 += kNc) {
    const int64_t nc = N - j0 < kNc ? N - j0 : kNc;
    if (K == 0) {
      for (int64_t i = 0; i < M; ++i) {
        for (int64_t j = 0; j < nc; ++j) C[i * ldc + j0 + j] = 0;
      }
    }
    for (int64_t k0 = 0; k0 < K; k0 += kKc) {
      const int64_t kc = K - k0 < kKc ? K - k0 : kKc;
      const int64_t groups = RoundUp4(kc) / 4;
      PackB(B.data, ldb, flip_b, K, k0, kc, j0, nc, packed_b);
      const bool accumulate = k0 > 0;
      for (int64_t i0 = 0; i0 < M; i0 += kMr) {
        const int8_t* a = packed_a + i0 * k4 + k0 * kMr;
        const int64_t rows = M - i0 < kMr ? M - i0 : kMr;
        for (int64_t q = 0; q < nc; q += kNr) {
          const int64_t cols = nc - q < kNr ? nc - q : kNr;
          const uint8_t* b = packed_b + q * RoundUp4(kc);
          int32_t* c = C + i0 * ldc + j0 + q;
          TileOf(rows, cols, groups, a, b, c, ldc, accumulate);
        }
      }
    }
    // The zero-point terms of this block of columns (see the top of the file). B's column sums
    // count only where some alpha_i is not zero: a convolution's weights (A) of uint8 with zero
    // point 128 or int8 with 0, as quantizers write them, make every alpha zero.
    for (int64_t j = 0; j < nc; ++j) col_sums[j] = 0;
    if (any_alpha) {
      for (int64_t k = 0; k < K; ++k) {
        const uint8_t* row = B.data + k * ldb + j0;
        for (int64_t j = 0; j < nc; ++j) col_sums[j] += static_cast<uint8_t>(row[j] ^ flip_b);
      }
    }
    for (int64_t j = 0; j < nc; ++j) {
      betas[j] = (B.is_signed ? 128u : 0u) +
                 static_cast<uint32_t>(B.zero_points[B.per_index ? j0 + j : 0]);
    }
    for (int64_t i = 0; i < M; ++i) {
      const uint32_t alpha = Alpha(A, i);
      // terms_j = alpha * colsum_j - beta_j * (rowsum_i + K * alpha), modulo 2^32.
      const __m512i va = _mm512_set1_epi32(static_cast<int32_t>(alpha));
      const __m512i vr =
          _mm512_set1_epi32(static_cast<int32_t>(row_sums[i] + static_cast<uint32_t>(K) * alpha));
      int32_t* row = C + i * ldc + j0;
      for (int64_t j = 0; j < nc; j += 16) {
        const __mmask16 m = FirstLanes16(nc - j);
        const __m512i terms =
            _mm512_sub_epi32(_mm512_mullo_epi32(va, _mm512_maskz_loadu_epi32(m, col_sums + j)),
                             _mm512_mullo_epi32(vr, _mm512_maskz_loadu_epi32(m, betas + j)));
        _mm512_mask_storeu_epi32(row + j, m,
                                 _mm512_add_epi32(_mm512_maskz_loadu_epi32(m, row + j), terms));
      }
    }
  }
}

#endif  // __AVX512F__

}  // namespace onnx_opt::interpreter::ONNX_OPT_SIMD_NS
