// MatMulNBits' product for a few rows of A (decode steps) read straight from its packed 4-bit
// weight. The weight is stored one output column per row ([N, k_blocks, block_size / 2] bytes), so
// each element of C is a dot product of A's row with one contiguous row of W: W streams front to
// back, once, as a quarter of the bytes of a float weight, and is never written out as floats.
//
// Each weight is dequantized in registers as the full-dequantize path computes it, (q - z) * s (q -
// z is exact in float, so the weight rounds once, to the same float), and multiplied into partial
// sums in the vector lanes (two sets of them with AVX2 and AVX-512; a block of at least 16 values
// fills whole vectors), which are added together at the end. That order is not a float GEMM's chain
// over k, so the bits differ from the full-dequantize path by a few float roundings of the sum (the
// tests bound it relative to sum |a * w|).
#include "interpreter/cpu/simd/simd.h"

#if defined(__SSE2__)
#include <immintrin.h>
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
// 16 weights from 8 bytes: the nibbles masked apart, interleaved back into order, widened.
inline __m512 Dequantize16(const uint8_t* p, __m512 z, __m512 s) {
  const __m128i low4 = _mm_set1_epi8(0x0F);
  const __m128i v = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p));
  const __m128i lo = _mm_and_si128(v, low4), hi = _mm_and_si128(_mm_srli_epi16(v, 4), low4);
  const __m512 q = _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(_mm_unpacklo_epi8(lo, hi)));
  return _mm512_mul_ps(_mm512_sub_ps(q, z), s);
}

// Two sets of partial sums, so that consecutive vectors' multiply-adds do not wait on each other
// (one chain of FMAs, 4 cycles each, would be slower than memory).
template <int M>
void Row(const float* A, int64_t lda, const Blocked4BitRows& W, int64_t n, float* C, int64_t ldc) {
  const int64_t blob = W.block_size / 2;
  const uint8_t* q = W.data + n * W.k_blocks * blob;
  const float* s = W.scales + n * W.k_blocks;
  __m512 acc0[M], acc1[M];
  for (int m = 0; m < M; ++m) acc0[m] = acc1[m] = _mm512_setzero_ps();
  for (int64_t b = 0; b < W.k_blocks; ++b) {
    const __m512 zv = _mm512_set1_ps(ZeroPoint(W, n, b)), sv = _mm512_set1_ps(s[b]);
    const uint8_t* p = q + b * blob;
    const float* a = A + b * W.block_size;
    int64_t i = 0;
    for (; i + 16 <= blob; i += 16) {
      const __m512 w0 = Dequantize16(p + i, zv, sv), w1 = Dequantize16(p + i + 8, zv, sv);
      for (int m = 0; m < M; ++m) {
        acc0[m] = _mm512_fmadd_ps(_mm512_loadu_ps(a + m * lda + 2 * i), w0, acc0[m]);
        acc1[m] = _mm512_fmadd_ps(_mm512_loadu_ps(a + m * lda + 2 * i + 16), w1, acc1[m]);
      }
    }
    if (i < blob) {  // blocks of 16: one vector, the sets taking blocks in turn
      const __m512 w = Dequantize16(p + i, zv, sv);
      for (int m = 0; m < M; ++m) {
        const __m512 t = _mm512_fmadd_ps(_mm512_loadu_ps(a + m * lda + 2 * i), w, acc0[m]);
        acc0[m] = acc1[m];
        acc1[m] = t;
      }
    }
  }
  for (int m = 0; m < M; ++m) C[m * ldc] = _mm512_reduce_add_ps(_mm512_add_ps(acc0[m], acc1[m]));
}
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

// Asks for bytes [p, p + n) to be brought into L2.
inline void PrefetchL2(const void* p, int64_t n) {
  const char* c = static_cast<const char*>(p);
  for (int64_t i = 0; i < n; i += 64) __builtin_prefetch(c + i, 0, 2);
}

// Rows of W (and their scales) are fetched into L2 at least this many bytes ahead: left to the
// hardware prefetchers, half the time went to waiting on the weights' loads.
constexpr int64_t kPrefetchBytes = 4096;

template <int M>
void Rows(int64_t N, const float* A, int64_t lda, const Blocked4BitRows& W, int64_t row0, float* C,
          int64_t ldc) {
  const int64_t row_bytes = W.k_blocks * W.block_size / 2;
  const int64_t ahead = 1 + kPrefetchBytes / row_bytes;
  for (int64_t j = 0; j < N; ++j) {
    if (j + ahead < N) {
      PrefetchL2(W.data + (row0 + j + ahead) * row_bytes, row_bytes);
      PrefetchL2(W.scales + (row0 + j + ahead) * W.k_blocks, W.k_blocks * int64_t{sizeof(float)});
    }
    Row<M>(A, lda, W, row0 + j, C + j, ldc);
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
