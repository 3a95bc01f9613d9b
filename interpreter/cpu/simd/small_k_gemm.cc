// C = A * B for float GEMMs with a short inner dimension (K <= 64), as the 1x1 convolutions of mobile
// CNNs have (K = 16 to 64 channels over 50 to 12,544 pixels). Eigen packs both operands and zero-fills
// C before accumulating into it, which on such shapes costs as much as the arithmetic. Here B's rows
// are read in place (a K x 64 strip is at most 16 KB, so it stays in L1 while every row block of A
// passes over it), each 6 x 64 block of C is summed in 24 registers over the whole K and stored once.
// AVX-512 only (masked loads and stores cover the last columns); other ISAs keep Eigen.
#include "interpreter/cpu/simd/simd.h"

#if defined(__AVX512F__)
#include <immintrin.h>

namespace onnx_opt::interpreter::ONNX_OPT_SIMD_NS {
namespace {

constexpr int kLanes = 16;
constexpr int kVectors = 4;  // columns per block: 4 x 16

// Rows [0, rows) (rows <= 6) x columns [0, kVectors * 16) of C from rows of A and a strip of B, `masks`
// limiting the columns of the last strip. The 24 accumulators are named variables: as an array GCC
// keeps them in memory and stores them on every step of k. Missing rows repeat the last row of A and
// are not stored.
void Block(int rows, int64_t K, const float* A, int64_t lda, const float* B, int64_t ldb, float* C, int64_t ldc,
           const __mmask16 (&masks)[kVectors]) {
  const float* a[6];
  for (int r = 0; r < 6; ++r) a[r] = A + (r < rows ? r : rows - 1) * lda;
#define ONNX_OPT_ACC_ROW(r) __m512 c##r##0 = _mm512_setzero_ps(), c##r##1 = c##r##0, c##r##2 = c##r##0, c##r##3 = c##r##0;
  ONNX_OPT_ACC_ROW(0) ONNX_OPT_ACC_ROW(1) ONNX_OPT_ACC_ROW(2) ONNX_OPT_ACC_ROW(3) ONNX_OPT_ACC_ROW(4) ONNX_OPT_ACC_ROW(5)
#undef ONNX_OPT_ACC_ROW
  for (int64_t k = 0; k < K; ++k) {
    const float* bk = B + k * ldb;
    const __m512 b0 = _mm512_maskz_loadu_ps(masks[0], bk), b1 = _mm512_maskz_loadu_ps(masks[1], bk + 16),
                 b2 = _mm512_maskz_loadu_ps(masks[2], bk + 32), b3 = _mm512_maskz_loadu_ps(masks[3], bk + 48);
#define ONNX_OPT_FMA_ROW(r)                        \
  {                                                \
    const __m512 ar = _mm512_set1_ps(a[r][k]);     \
    c##r##0 = _mm512_fmadd_ps(ar, b0, c##r##0);    \
    c##r##1 = _mm512_fmadd_ps(ar, b1, c##r##1);    \
    c##r##2 = _mm512_fmadd_ps(ar, b2, c##r##2);    \
    c##r##3 = _mm512_fmadd_ps(ar, b3, c##r##3);    \
  }
    ONNX_OPT_FMA_ROW(0) ONNX_OPT_FMA_ROW(1) ONNX_OPT_FMA_ROW(2) ONNX_OPT_FMA_ROW(3) ONNX_OPT_FMA_ROW(4)
    ONNX_OPT_FMA_ROW(5)
#undef ONNX_OPT_FMA_ROW
  }
#define ONNX_OPT_STORE_ROW(r)                                             \
  if (r < rows) {                                                         \
    float* cr = C + r * ldc;                                              \
    _mm512_mask_storeu_ps(cr, masks[0], c##r##0);                         \
    _mm512_mask_storeu_ps(cr + 16, masks[1], c##r##1);                    \
    _mm512_mask_storeu_ps(cr + 32, masks[2], c##r##2);                    \
    _mm512_mask_storeu_ps(cr + 48, masks[3], c##r##3);                    \
  }
  ONNX_OPT_STORE_ROW(0) ONNX_OPT_STORE_ROW(1) ONNX_OPT_STORE_ROW(2) ONNX_OPT_STORE_ROW(3) ONNX_OPT_STORE_ROW(4)
  ONNX_OPT_STORE_ROW(5)
#undef ONNX_OPT_STORE_ROW
}

}  // namespace

bool SmallKGemmF32(int64_t M, int64_t N, int64_t K, const float* A, int64_t lda, const float* B, int64_t ldb,
                   float* C, int64_t ldc) {
  if (K > kSmallGemmMaxK || K == 0) return false;
  constexpr int kRows = 6;
  for (int64_t j = 0; j < N; j += kVectors * kLanes) {
    __mmask16 masks[kVectors];
    for (int v = 0; v < kVectors; ++v) {
      const int64_t left = N - j - v * kLanes;
      masks[v] = left >= kLanes ? __mmask16(0xFFFF) : (left <= 0 ? __mmask16(0) : __mmask16((1u << left) - 1));
    }
    for (int64_t i = 0; i < M; i += kRows) {
      const int rows = static_cast<int>(M - i < kRows ? M - i : kRows);
      Block(rows, K, A + i * lda, lda, B + j, ldb, C + i * ldc + j, ldc, masks);
    }
  }
  return true;
}

}  // namespace onnx_opt::interpreter::ONNX_OPT_SIMD_NS

#endif  // defined(__AVX512F__)
