// C (int32) = (A - za) x (B - zb) for 8-bit A and B on AVX2, which has no 8-bit dot product that
// cannot saturate (vpmaddubsw clips its sums of two products to int16): A less its zero points and
// B are widened to int16 and vpmaddwd adds, to each int32 lane, the products of two int16 pairs.
// With |A - za| <= 255 and |B| <= 255, a pair's sum is below 2^18, and
//   (A - za)(B - zb) = (A - za) B - zb_j * rowsum(A - za)_i,
// the last term added once per element at the end. Every sum wraps like an int32 accumulator, so
// the result is exact modulo 2^32 in any order: the bits of every other path.
//
// The blocking is int8_gemm.cc's (AVX-512 VNNI) with pairs of k for its groups of four: A packed
// once per call in panels of kMr rows holding, for each pair of k, the rows' two int16 side by side
// (one broadcast int32 each); B packed per kKc x kNc block in panels of kNr columns holding, for
// each pair of k, every column's two int16 side by side (two 32-byte loads). Missing rows, columns
// and depth are packed as zeros; edge tiles go through a small buffer.
#include <cstring>

#include "interpreter/cpu/scratch.h"
#include "interpreter/cpu/simd/intrinsics.h"
#include "interpreter/cpu/simd/simd.h"

namespace onnx_opt::interpreter::ONNX_OPT_SIMD_NS {

#if defined(__AVX2__) && !defined(__AVX512F__)
namespace {

constexpr int kMr =
    4;  // 4 x 2 accumulators, 2 B vectors, a broadcast and a product: 12 of 16 registers
constexpr int kNr = 16;       // two vectors of 8 int32
constexpr int64_t kKc = 256;  // depth of a packed block (even)
constexpr int64_t kNc = 512;  // columns of a packed B block: kKc x kNc int16 = 256 KB, in L2

int64_t RoundUp2(int64_t k) { return (k + 1) / 2 * 2; }

int32_t ValueAt(const uint8_t* p, bool is_signed) {
  return is_signed ? int32_t{static_cast<int8_t>(*p)} : int32_t{*p};
}

// The tile's sums over `pairs` pairs of k, stored to (or added to) c, ldc apart.
void MicroKernel(int64_t pairs, const int16_t* a, const int16_t* b, int32_t* c, int64_t ldc,
                 bool accumulate) {
  __m256i acc[kMr][2];
#pragma GCC unroll 8
  for (int r = 0; r < kMr; ++r) acc[r][0] = acc[r][1] = _mm256_setzero_si256();
  for (int64_t k = 0; k < pairs; ++k) {
    const __m256i b0 = _mm256_load_si256(reinterpret_cast<const __m256i*>(b));
    const __m256i b1 = _mm256_load_si256(reinterpret_cast<const __m256i*>(b + 16));
#pragma GCC unroll 8
    for (int r = 0; r < kMr; ++r) {
      int32_t two;
      std::memcpy(&two, a + 2 * r, sizeof(two));
      const __m256i ar = _mm256_set1_epi32(two);
      acc[r][0] = _mm256_add_epi32(acc[r][0], _mm256_madd_epi16(b0, ar));
      acc[r][1] = _mm256_add_epi32(acc[r][1], _mm256_madd_epi16(b1, ar));
    }
    a += 2 * kMr;
    b += 2 * kNr;
  }
#pragma GCC unroll 8
  for (int r = 0; r < kMr; ++r) {
    int32_t* row = c + r * ldc;
    for (int v = 0; v < 2; ++v) {
      __m256i x = acc[r][v];
      auto* p = reinterpret_cast<__m256i*>(row + 8 * v);
      if (accumulate) x = _mm256_add_epi32(x, _mm256_loadu_si256(p));
      _mm256_storeu_si256(p, x);
    }
  }
}

// A tile cut by the edge of C: computed whole into a buffer, then stored or added element by
// element.
void EdgeKernel(int64_t pairs, const int16_t* a, const int16_t* b, int32_t* c, int64_t ldc,
                int64_t rows, int64_t cols, bool accumulate) {
  alignas(32) int32_t tile[kMr * kNr];
  MicroKernel(pairs, a, b, tile, kNr, false);
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t j = 0; j < cols; ++j) {
      const uint32_t s = static_cast<uint32_t>(tile[r * kNr + j]);
      int32_t& out = c[r * ldc + j];
      out = static_cast<int32_t>(accumulate ? static_cast<uint32_t>(out) + s : s);
    }
  }
}

thread_local Scratch a_scratch, b_scratch, sum_scratch;

constexpr int64_t kLanes = 8;

// A (M x K bytes, rows lda apart) less its zero points (A - za, int16 in [-255, 255]) in panels of
// kMr rows, depth padded to even: panel p holds, per pair of k, kMr runs of two values. row_sums[i]
// receives the sum of row i's. With za taken out here, B's column sums drop out of the result
// (see the top of the file). Eight k of four rows at a time, transposed as pairs: packed value by
// value, with a test each, a convolution's weights (packed on every call) cost a quantized CNN 8%.
void PackA(const Int8Operand& A, int64_t lda, int64_t M, int64_t K, int16_t* packed,
           uint32_t* row_sums) {
  const int64_t k2 = RoundUp2(K), whole = K / 8 * 8;
  auto zero_point = [&](int64_t i) { return A.zero_points[A.per_index ? i : 0]; };
  for (int64_t i = 0; i < M; ++i) {
    uint32_t sum = 0;
    for (int64_t k = 0; k < K; ++k)
      sum += static_cast<uint32_t>(ValueAt(A.data + i * lda + k, A.is_signed));
    row_sums[i] = sum - static_cast<uint32_t>(K) * static_cast<uint32_t>(zero_point(i));
  }
  for (int64_t i0 = 0; i0 < M; i0 += kMr) {
    int16_t* panel = packed + i0 * k2;
    const int64_t rows = M - i0 < kMr ? M - i0 : kMr;
    __m128i za[kMr];
    for (int64_t r = 0; r < kMr; ++r)
      za[r] = _mm_set1_epi16(static_cast<int16_t>(r < rows ? zero_point(i0 + r) : 0));
    for (int64_t k = 0; k < whole; k += 8) {
      __m128i x[kMr];  // four pairs of k of each row, as 32-bit elements
      for (int64_t r = 0; r < kMr; ++r) {
        if (r >= rows) {
          x[r] = _mm_setzero_si128();
          continue;
        }
        const __m128i bytes =
            _mm_loadl_epi64(reinterpret_cast<const __m128i*>(A.data + (i0 + r) * lda + k));
        x[r] =
            _mm_sub_epi16(A.is_signed ? _mm_cvtepi8_epi16(bytes) : _mm_cvtepu8_epi16(bytes), za[r]);
      }
      const __m128i a = _mm_unpacklo_epi32(x[0], x[1]), b = _mm_unpackhi_epi32(x[0], x[1]);
      const __m128i c = _mm_unpacklo_epi32(x[2], x[3]), d = _mm_unpackhi_epi32(x[2], x[3]);
      auto* dst = reinterpret_cast<__m128i*>(panel + k * kMr);
      _mm_storeu_si128(dst + 0, _mm_unpacklo_epi64(a, c));
      _mm_storeu_si128(dst + 1, _mm_unpackhi_epi64(a, c));
      _mm_storeu_si128(dst + 2, _mm_unpacklo_epi64(b, d));
      _mm_storeu_si128(dst + 3, _mm_unpackhi_epi64(b, d));
    }
    for (int64_t k = whole; k < k2; k += 2) {
      int16_t* dst = panel + k * kMr;
      for (int64_t r = 0; r < kMr; ++r) {
        for (int64_t t = 0; t < 2; ++t) {
          const bool inside = r < rows && k + t < K;
          dst[r * 2 + t] =
              inside ? static_cast<int16_t>(ValueAt(A.data + (i0 + r) * lda + k + t, A.is_signed) -
                                            zero_point(i0 + r))
                     : 0;
        }
      }
    }
  }
}

// 16 bytes as 16 int16, sign- or zero-extended.
inline __m256i Widen16(const uint8_t* p, bool is_signed) {
  const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  return is_signed ? _mm256_cvtepi8_epi16(bytes) : _mm256_cvtepu8_epi16(bytes);
}

// Rows k0..k0+kc and columns j0..j0+nc of B (rows ldb apart) as int16 in panels of kNr columns:
// per pair of k, each column's two values side by side. Depth beyond K is packed as zeros.
void PackB(const Int8Operand& B, int64_t ldb, int64_t K, int64_t k0, int64_t kc, int64_t j0,
           int64_t nc, int16_t* packed) {
  alignas(16) static const uint8_t kZeros[kNr] = {};
  const int64_t kc2 = RoundUp2(kc);
  for (int64_t q = 0; q < nc; q += kNr) {
    const int64_t cols = nc - q < kNr ? nc - q : kNr;
    int16_t* panel = packed + q * kc2;
    for (int64_t k = 0; k < kc2; k += 2) {
      int16_t* dst = panel + k * kNr;
      const uint8_t* r0 = B.data + (k0 + k) * ldb + j0 + q;
      const uint8_t* r1 = k0 + k + 1 < K ? r0 + ldb : kZeros;
      if (cols == kNr) {
        // unpack works within 128-bit halves: lo holds columns 0-3 and 8-11, hi 4-7 and 12-15.
        const __m256i w0 = Widen16(r0, B.is_signed), w1 = Widen16(r1, B.is_signed);
        const __m256i lo = _mm256_unpacklo_epi16(w0, w1), hi = _mm256_unpackhi_epi16(w0, w1);
        auto* out = reinterpret_cast<__m256i*>(dst);
        _mm256_store_si256(out, _mm256_permute2x128_si256(lo, hi, 0x20));
        _mm256_store_si256(out + 1, _mm256_permute2x128_si256(lo, hi, 0x31));
      } else {
        for (int64_t j = 0; j < kNr; ++j) {
          dst[2 * j] = j < cols ? static_cast<int16_t>(ValueAt(r0 + j, B.is_signed)) : 0;
          dst[2 * j + 1] = j < cols ? static_cast<int16_t>(ValueAt(r1 + j, B.is_signed)) : 0;
        }
      }
    }
  }
}

}  // namespace

void Gemm8BitS32(int64_t M, int64_t N, int64_t K, const Int8Operand& A, const Int8Operand& B,
                 int64_t ldb, int32_t* C, int64_t ldc) {
  if (M == 0 || N == 0) return;
  const int64_t k2 = RoundUp2(K);
  const int64_t panels = (M + kMr - 1) / kMr;
  auto* packed_a = static_cast<int16_t*>(
      a_scratch.Get(panels * kMr * k2 * static_cast<int64_t>(sizeof(int16_t)) + 1));
  auto* packed_b = static_cast<int16_t*>(
      b_scratch.Get(kKc * ((kNc + kNr - 1) / kNr * kNr) * static_cast<int64_t>(sizeof(int16_t))));
  auto* row_sums =
      static_cast<uint32_t*>(sum_scratch.Get(M * static_cast<int64_t>(sizeof(uint32_t)) + 1));
  PackA(A, K, M, K, packed_a, row_sums);
  for (int64_t j0 = 0; j0 < N; j0 += kNc) {
    const int64_t nc = N - j0 < kNc ? N - j0 : kNc;
    if (K == 0) {
      for (int64_t i = 0; i < M; ++i) {
        for (int64_t j = 0; j < nc; ++j) C[i * ldc + j0 + j] = 0;
      }
    }
    for (int64_t k0 = 0; k0 < K; k0 += kKc) {
      const int64_t kc = K - k0 < kKc ? K - k0 : kKc;
      const int64_t pairs = RoundUp2(kc) / 2;
      PackB(B, ldb, K, k0, kc, j0, nc, packed_b);
      const bool accumulate = k0 > 0;
      for (int64_t i0 = 0; i0 < M; i0 += kMr) {
        const int16_t* a = packed_a + i0 * k2 + k0 * kMr;
        const int64_t rows = M - i0 < kMr ? M - i0 : kMr;
        for (int64_t q = 0; q < nc; q += kNr) {
          const int64_t cols = nc - q < kNr ? nc - q : kNr;
          const int16_t* b = packed_b + q * RoundUp2(kc);
          int32_t* c = C + i0 * ldc + j0 + q;
          if (rows == kMr && cols == kNr) {
            MicroKernel(pairs, a, b, c, ldc, accumulate);
          } else {
            EdgeKernel(pairs, a, b, c, ldc, rows, cols, accumulate);
          }
        }
      }
    }
    // The zero-point term of this block of columns (see the top of the file): -zb_j * rowsum_i.
    for (int64_t i = 0; i < M; ++i) {
      const __m256i sum = _mm256_set1_epi32(static_cast<int32_t>(row_sums[i]));
      int32_t* row = C + i * ldc + j0;
      // Whole vectors with plain loads and stores (a maskstore is microcoded on AMD cores).
      int64_t j = 0;
      for (; j + kLanes <= nc; j += kLanes) {
        const __m256i zb =
            B.per_index
                ? _mm256_loadu_si256(reinterpret_cast<const __m256i*>(B.zero_points + j0 + j))
                : _mm256_set1_epi32(B.zero_points[0]);
        __m256i* const out = reinterpret_cast<__m256i*>(row + j);
        _mm256_storeu_si256(out,
                            _mm256_sub_epi32(_mm256_loadu_si256(out), _mm256_mullo_epi32(zb, sum)));
      }
      if (j < nc) {
        const __m256i m = FirstLanes8(nc - j);
        const __m256i zb = B.per_index ? _mm256_maskload_epi32(B.zero_points + j0 + j, m)
                                       : _mm256_set1_epi32(B.zero_points[0]);
        const __m256i terms = _mm256_mullo_epi32(zb, sum);
        _mm256_maskstore_epi32(row + j, m,
                               _mm256_sub_epi32(_mm256_maskload_epi32(row + j, m), terms));
      }
    }
  }
}

#endif  // defined(__AVX2__) && !defined(__AVX512F__)

}  // namespace onnx_opt::interpreter::ONNX_OPT_SIMD_NS
