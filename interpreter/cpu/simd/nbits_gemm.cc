// MatMulNBits' product for a few rows of A (decode steps) read straight from its packed 4-bit
// weight. The weight is stored one output column per row ([N, k_blocks, block_size / 2] bytes), so
// each element of C is a dot product of A's row with one contiguous row of W: W streams front to
// back, once, as a quarter of the bytes of a float weight, and is never written out as floats.
//
// Each weight is dequantized in registers as the full-dequantize path computes it, (q - z) * s (q -
// z is exact in float, so the weight rounds once, to the same float; AVX-512 looks it up in a
// 16-entry table of a block's weights), and multiplied into partial
// sums in the vector lanes (two sets of them with AVX2 and AVX-512; a block of at least 16 values
// fills whole vectors), which are added together at the end. That order is not a float GEMM's chain
// over k, so the bits differ from the full-dequantize path by a few float roundings of the sum (the
// tests bound it relative to sum |a * w|).
#include "interpreter/cpu/simd/simd.h"

#if defined(__SSE2__)
#include "interpreter/cpu/simd/intrinsics.h"
#include "interpreter/cpu/simd/prefetch.h"
#endif

namespace onnx_opt::interpreter::ONNX_OPT_SIMD_NS {
namespace {

// Block b's zero point in row n.
inline float ZeroPoint(const Blocked4BitRows& W, int64_t n, int64_t b) {
  if (W.zero_points == nullptr) return 8.0f;
  const uint8_t byte = W.zero_points[n * ((W.k_blocks + 1) / 2) + b / 2];
  return static_cast<float>(b % 2 == 0 ? byte & 15 : byte >> 4);
}

#if defined(__AVX512F__)
// The 16 weights a block's 4-bit values stand for, (i - z) * s for i = 0..15, as the
// full-dequantize path rounds each: a vpermps of this table by a value (it reads only an index's
// low 4 bits) is the weight, with no conversion, subtraction or multiplication per vector.
inline __m512 BlockTable(const Blocked4BitRows& W, int64_t n, int64_t b) {
  const __m512 values = _mm512_setr_ps(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  return _mm512_mul_ps(_mm512_sub_ps(values, _mm512_set1_ps(ZeroPoint(W, n, b))),
                       _mm512_set1_ps(W.scales[n * W.k_blocks + b]));
}

// Each byte's low nibble next to its high one shifted down: in order, a weight in each byte's low
// four bits (the bits above are left, vpermps ignores them).
inline __m128i Nibbles(__m128i v, __m128i (*unpack)(__m128i, __m128i)) {
  return unpack(v, _mm_srli_epi16(v, 4));
}

inline __m512 Lookup(__m128i bytes, __m512 table) {
  return _mm512_permutexvar_ps(_mm512_cvtepu8_epi32(bytes), table);
}

// kCols consecutive rows of W (output columns n..) at once, so that each vector of A loaded feeds
// kCols multiply-adds. Two sets of partial sums per column, so that consecutive vectors'
// multiply-adds do not wait on each other (one chain of FMAs, 4 cycles each, would be slower than
// memory); each column's order of operations is the same whatever kCols.
template <int M, int kCols>
void Columns(const float* A, int64_t lda, const Blocked4BitRows& W, int64_t n, float* C,
             int64_t ldc) {
  const int64_t blob = W.block_size / 2;
  __m512 acc0[kCols][M], acc1[kCols][M];
  for (int c = 0; c < kCols; ++c) {
    for (int m = 0; m < M; ++m) acc0[c][m] = acc1[c][m] = _mm512_setzero_ps();
  }
  for (int64_t b = 0; b < W.k_blocks; ++b) {
    __m512 table[kCols];
    const uint8_t* p[kCols];
    for (int c = 0; c < kCols; ++c) {
      table[c] = BlockTable(W, n + c, b);
      p[c] = W.data + ((n + c) * W.k_blocks + b) * blob;
    }
    const float* a = A + b * W.block_size;
    int64_t i = 0;
    for (; i + 16 <= blob; i += 16) {  // 32 weights of each column
      __m512 w0[kCols], w1[kCols];
      for (int c = 0; c < kCols; ++c) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p[c] + i));
        w0[c] = Lookup(Nibbles(v, _mm_unpacklo_epi8), table[c]);
        w1[c] = Lookup(Nibbles(v, _mm_unpackhi_epi8), table[c]);
      }
      for (int m = 0; m < M; ++m) {
        const __m512 a0 = _mm512_loadu_ps(a + m * lda + 2 * i);
        const __m512 a1 = _mm512_loadu_ps(a + m * lda + 2 * i + 16);
        for (int c = 0; c < kCols; ++c) {
          acc0[c][m] = _mm512_fmadd_ps(a0, w0[c], acc0[c][m]);
          acc1[c][m] = _mm512_fmadd_ps(a1, w1[c], acc1[c][m]);
        }
      }
    }
    if (i < blob) {  // blocks of 16: one vector, the sets taking blocks in turn
      __m512 w[kCols];
      for (int c = 0; c < kCols; ++c) {
        const __m128i v = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p[c] + i));
        w[c] = Lookup(Nibbles(v, _mm_unpacklo_epi8), table[c]);
      }
      for (int m = 0; m < M; ++m) {
        const __m512 a0 = _mm512_loadu_ps(a + m * lda + 2 * i);
        for (int c = 0; c < kCols; ++c) {
          const __m512 t = _mm512_fmadd_ps(a0, w[c], acc0[c][m]);
          acc0[c][m] = acc1[c][m];
          acc1[c][m] = t;
        }
      }
    }
  }
  for (int c = 0; c < kCols; ++c) {
    for (int m = 0; m < M; ++m)
      C[m * ldc + c] = _mm512_reduce_add_ps(_mm512_add_ps(acc0[c][m], acc1[c][m]));
  }
}

// Columns of W two at a time where the partial sums fit in registers (M <= 4), one at a time else.
constexpr int ColumnsAtOnce(int M) { return M <= 4 ? 2 : 1; }
#elif defined(__AVX2__) && defined(__FMA__)
template <int M>
void Row(const float* A, int64_t lda, const Blocked4BitRows& W, int64_t n, float* C, int64_t ldc) {
  const int64_t blob = W.block_size / 2;
  const uint8_t* q = W.data + n * W.k_blocks * blob;
  const float* s = W.scales + n * W.k_blocks;
  const __m128i low4 = _mm_set1_epi8(0x0F);
  __m256 acc[M], acc1[M];  // two sets of partial sums, as above
  for (int m = 0; m < M; ++m) acc[m] = acc1[m] = _mm256_setzero_ps();
  for (int64_t b = 0; b < W.k_blocks; ++b) {
    const __m256 zv = _mm256_set1_ps(ZeroPoint(W, n, b)), sv = _mm256_set1_ps(s[b]);
    const uint8_t* p = q + b * blob;
    const float* a = A + b * W.block_size;
    for (int64_t i = 0; i < blob; i += 8) {
      // 16 weights from 8 bytes, in order, then widened 8 at a time.
      const __m128i v = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p + i));
      const __m128i lo = _mm_and_si128(v, low4), hi = _mm_and_si128(_mm_srli_epi16(v, 4), low4);
      const __m128i bytes = _mm_unpacklo_epi8(lo, hi);
      const __m256 w0 =
          _mm256_mul_ps(_mm256_sub_ps(_mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(bytes)), zv), sv);
      const __m256 w1 = _mm256_mul_ps(
          _mm256_sub_ps(_mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_srli_si128(bytes, 8))), zv),
          sv);
      for (int m = 0; m < M; ++m) {
        const float* am = a + m * lda + 2 * i;
        acc[m] = _mm256_fmadd_ps(_mm256_loadu_ps(am), w0, acc[m]);
        acc1[m] = _mm256_fmadd_ps(_mm256_loadu_ps(am + 8), w1, acc1[m]);
      }
    }
  }
  for (int m = 0; m < M; ++m) {
    const __m256 sum = _mm256_add_ps(acc[m], acc1[m]);
    const __m128 h = _mm_add_ps(_mm256_castps256_ps128(sum), _mm256_extractf128_ps(sum, 1));
    float lanes[4];
    _mm_storeu_ps(lanes, h);
    C[m * ldc] = (lanes[0] + lanes[2]) + (lanes[1] + lanes[3]);
  }
}
#else
// Plain C++ in 8 lanes, which the compiler keeps in vector registers.
constexpr int kLanes = 8;

template <int M>
void Row(const float* A, int64_t lda, const Blocked4BitRows& W, int64_t n, float* C, int64_t ldc) {
  const int64_t blob = W.block_size / 2;
  const uint8_t* q = W.data + n * W.k_blocks * blob;
  const float* s = W.scales + n * W.k_blocks;
  float acc[M][kLanes] = {};
  for (int64_t b = 0; b < W.k_blocks; ++b) {
    const float z = ZeroPoint(W, n, b), scale = s[b];
    const uint8_t* p = q + b * blob;
    const float* a = A + b * W.block_size;
    for (int64_t i = 0; i < blob; i += kLanes / 2) {
      float w[kLanes];
      for (int l = 0; l < kLanes / 2; ++l) {
        w[2 * l] = (static_cast<float>(p[i + l] & 15) - z) * scale;
        w[2 * l + 1] = (static_cast<float>(p[i + l] >> 4) - z) * scale;
      }
      for (int m = 0; m < M; ++m) {
        for (int l = 0; l < kLanes; ++l) acc[m][l] += a[m * lda + 2 * i + l] * w[l];
      }
    }
  }
  for (int m = 0; m < M; ++m) {
    float sum = 0.0f;
    for (int l = 0; l < kLanes; ++l) sum += acc[m][l];
    C[m * ldc] = sum;
  }
}
#endif

#if !defined(__AVX512F__)
// One row of W at a time (Row above).
template <int M, int kCols>
void Columns(const float* A, int64_t lda, const Blocked4BitRows& W, int64_t n, float* C,
             int64_t ldc) {
  for (int c = 0; c < kCols; ++c) Row<M>(A, lda, W, n + c, C + c, ldc);
}

constexpr int ColumnsAtOnce(int) { return 1; }
#endif

// Rows of W (and their scales) are fetched into L2 at least this many bytes ahead: left to the
// hardware prefetchers, half the time went to waiting on the weights' loads.
constexpr int64_t kPrefetchBytes = 4096;

template <int M>
void Rows(int64_t N, const float* A, int64_t lda, const Blocked4BitRows& W, int64_t row0, float* C,
          int64_t ldc) {
  const int64_t row_bytes = W.k_blocks * W.block_size / 2;
  const int64_t ahead = 1 + kPrefetchBytes / row_bytes;
  constexpr int kCols = ColumnsAtOnce(M);
  int64_t j = 0;
  auto prefetch = [&](int64_t from, int64_t count) {
    for (int64_t r = from; r < from + count && r < N; ++r) {
      PrefetchL2(W.data + (row0 + r) * row_bytes, row_bytes);
      PrefetchL2(W.scales + (row0 + r) * W.k_blocks, W.k_blocks * int64_t{sizeof(float)});
    }
  };
  for (; j + kCols <= N; j += kCols) {
    prefetch(j + ahead, kCols);
    Columns<M, kCols>(A, lda, W, row0 + j, C + j, ldc);
  }
  for (; j < N; ++j) {
    prefetch(j + ahead, 1);
    Columns<M, 1>(A, lda, W, row0 + j, C + j, ldc);
  }
}

}  // namespace

void SkinnyGemm4BitRowsF32(int64_t M, int64_t N, const float* A, int64_t lda,
                           const Blocked4BitRows& W, int64_t row0, float* C, int64_t ldc) {
  switch (M) {
    case 1:
      return Rows<1>(N, A, lda, W, row0, C, ldc);
    case 2:
      return Rows<2>(N, A, lda, W, row0, C, ldc);
    case 3:
      return Rows<3>(N, A, lda, W, row0, C, ldc);
    case 4:
      return Rows<4>(N, A, lda, W, row0, C, ldc);
    case 5:
      return Rows<5>(N, A, lda, W, row0, C, ldc);
    case 6:
      return Rows<6>(N, A, lda, W, row0, C, ldc);
    case 7:
      return Rows<7>(N, A, lda, W, row0, C, ldc);
    default:
      return Rows<8>(N, A, lda, W, row0, C, ldc);
  }
}

}  // namespace onnx_opt::interpreter::ONNX_OPT_SIMD_NS
