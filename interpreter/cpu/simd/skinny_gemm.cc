// C = A * B for a few rows of A (decode steps: M <= kSkinnyMaxRows) and a large B, float (K x N, or
// N x K for Gemm's transB) or 8-bit integers dequantized on the fly. Such a product does 2M flops
// per weight it reads, so its speed is the speed at which B streams from memory. The blocked GEMMs
// walk B in narrow strips (one or a few cache lines per row, rows a page apart), which defeats the
// hardware prefetchers and touches a new page per cache line; here B is read in row segments of
// kColumns floats (whole pages) while the M x kColumns block of C stays in L1, summed over all of K
// before it is stored.
//
// Each element of C is one chain of multiply-adds in the order k = 0, 1, ..., K - 1, whatever the
// block or the columns a caller asks for, so splitting N across threads does not change the bits,
// and the quantized product equals the float product over DequantizeLinear's weights bit for bit.
// The loops are plain C++ that the compiler vectorizes over columns for this file's ISA.
#include "interpreter/cpu/simd/simd.h"

namespace onnx_opt::interpreter::ONNX_OPT_SIMD_NS {
namespace {

// Columns per block: a row segment of B is 4 KB (one page) and a block of C at most 32 KB.
constexpr int64_t kColumns = 1024;
// Rows of B per pass over a block of C: each element of C is loaded and stored once per group.
constexpr int64_t kGroup = 4;
// Row segments are fetched into L2 this many rows ahead. A segment is short (1-4 KB, rows a page or
// more apart), too short for the hardware prefetchers to ramp up on before it ends: without this
// the loads wait on memory latency (int8 rows of 1 KB ran at a sixth of the bandwidth).
constexpr int64_t kPrefetchRows = 2 * kGroup;

// Asks for bytes [p, p + n) to be brought into L2.
inline void PrefetchL2(const void* p, int64_t n) {
  const char* c = static_cast<const char*>(p);
  for (int64_t i = 0; i < n; i += 64) __builtin_prefetch(c + i, 0, 2);
}

#if defined(__FMA__)
inline float MulAdd(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
#else
inline float MulAdd(float a, float b, float c) {
  return a * b + c;
}  // no FMA instruction (baseline)
#endif

// acc[m][j] += a[m][k] * b_k[j] for the `rows` (1..kGroup) rows of B given, in row order.
template <int M>
inline void AddRows(const float* const* b, int rows, const float (&a)[M][kGroup],
                    float (*acc)[kColumns], int64_t n) {
  if (rows == kGroup) {
    const float *b0 = b[0], *b1 = b[1], *b2 = b[2], *b3 = b[3];
    for (int m = 0; m < M; ++m) {
      const float a0 = a[m][0], a1 = a[m][1], a2 = a[m][2], a3 = a[m][3];
      float* __restrict c = acc[m];
      for (int64_t j = 0; j < n; ++j)
        c[j] = MulAdd(a3, b3[j], MulAdd(a2, b2[j], MulAdd(a1, b1[j], MulAdd(a0, b0[j], c[j]))));
    }
    return;
  }
  for (int r = 0; r < rows; ++r) {
    const float* br = b[r];
    for (int m = 0; m < M; ++m) {
      const float ar = a[m][r];
      float* __restrict c = acc[m];
      for (int64_t j = 0; j < n; ++j) c[j] = MulAdd(ar, br[j], c[j]);
    }
  }
}

// One block of C: columns [0, n) (n <= kColumns) of C's M rows over all of K. `rows(k, count, out)`
// sets out[0..count) to the float rows k.. of B's block (in place, or dequantized into scratch).
// `accumulate`: C's values are the sums' starting points (C += A * B) instead of zero.
template <int M, typename Rows>
void Block(int64_t K, const float* A, int64_t lda, Rows& rows, float* C, int64_t ldc, int64_t n,
           bool accumulate) {
  alignas(64) float acc[M][kColumns];
  for (int m = 0; m < M; ++m) {
    for (int64_t j = 0; j < n; ++j) acc[m][j] = accumulate ? C[m * ldc + j] : 0.0f;
  }
  for (int64_t k = 0; k < K; k += kGroup) {
    const int count = static_cast<int>(K - k < kGroup ? K - k : kGroup);
    const float* b[kGroup];
    rows(k, count, b);
    float a[M][kGroup];
    for (int m = 0; m < M; ++m) {
      for (int r = 0; r < kGroup; ++r) a[m][r] = r < count ? A[m * lda + k + r] : 0.0f;
    }
    AddRows<M>(b, count, a, acc, n);
  }
  for (int m = 0; m < M; ++m) {
    for (int64_t j = 0; j < n; ++j) C[m * ldc + j] = acc[m][j];
  }
}

template <typename Rows>
void BlockOfRows(int64_t M, int64_t K, const float* A, int64_t lda, Rows& rows, float* C,
                 int64_t ldc, int64_t n, bool accumulate = false) {
  switch (M) {
    case 1:
      return Block<1>(K, A, lda, rows, C, ldc, n, accumulate);
    case 2:
      return Block<2>(K, A, lda, rows, C, ldc, n, accumulate);
    case 3:
      return Block<3>(K, A, lda, rows, C, ldc, n, accumulate);
    case 4:
      return Block<4>(K, A, lda, rows, C, ldc, n, accumulate);
    case 5:
      return Block<5>(K, A, lda, rows, C, ldc, n, accumulate);
    case 6:
      return Block<6>(K, A, lda, rows, C, ldc, n, accumulate);
    case 7:
      return Block<7>(K, A, lda, rows, C, ldc, n, accumulate);
    default:
      return Block<8>(K, A, lda, rows, C, ldc, n, accumulate);
  }
}

// B stored N x K (Gemm's transB: a Linear layer's weight): each element of C is a dot product of
// two contiguous rows, B read front to back. Summed in kDotLanes lanes (in order of k within a
// lane), then across the lanes, then the last K % kDotLanes products.
#if defined(__AVX512F__)
constexpr int kDotLanes = 16;
#else
constexpr int kDotLanes = 8;
#endif

template <int M>
void DotRows(int64_t N, int64_t K, const float* A, int64_t lda, const float* B, int64_t ldb,
             float* C, int64_t ldc, bool accumulate) {
  for (int64_t j = 0; j < N; ++j) {
    const float* b = B + j * ldb;
    float acc[M][kDotLanes] = {};
    int64_t k = 0;
    for (; k + kDotLanes <= K; k += kDotLanes) {
      for (int m = 0; m < M; ++m) {
        for (int l = 0; l < kDotLanes; ++l)
          acc[m][l] = MulAdd(A[m * lda + k + l], b[k + l], acc[m][l]);
      }
    }
    for (int m = 0; m < M; ++m) {
      float sum = 0.0f;
      for (int l = 0; l < kDotLanes; ++l) sum += acc[m][l];
      for (int64_t t = k; t < K; ++t) sum = MulAdd(A[m * lda + t], b[t], sum);
      C[m * ldc + j] = accumulate ? C[m * ldc + j] + sum : sum;
    }
  }
}

void DotRowsOf(int64_t M, int64_t N, int64_t K, const float* A, int64_t lda, const float* B,
               int64_t ldb, float* C, int64_t ldc, bool accumulate) {
  switch (M) {
    case 1:
      return DotRows<1>(N, K, A, lda, B, ldb, C, ldc, accumulate);
    case 2:
      return DotRows<2>(N, K, A, lda, B, ldb, C, ldc, accumulate);
    case 3:
      return DotRows<3>(N, K, A, lda, B, ldb, C, ldc, accumulate);
    case 4:
      return DotRows<4>(N, K, A, lda, B, ldb, C, ldc, accumulate);
    case 5:
      return DotRows<5>(N, K, A, lda, B, ldb, C, ldc, accumulate);
    case 6:
      return DotRows<6>(N, K, A, lda, B, ldb, C, ldc, accumulate);
    case 7:
      return DotRows<7>(N, K, A, lda, B, ldb, C, ldc, accumulate);
    default:
      return DotRows<8>(N, K, A, lda, B, ldb, C, ldc, accumulate);
  }
}

// Rows of a float B, read in place.
struct FloatRows {
  const float* B;
  int64_t ldb;
  int64_t K, n;
  void operator()(int64_t k, int count, const float** out) const {
    for (int r = 0; r < count; ++r) {
      out[r] = B + (k + r) * ldb;
      if (k + r + kPrefetchRows < K)
        PrefetchL2(out[r] + kPrefetchRows * ldb, n * int64_t{sizeof(float)});
    }
  }
};

// Rows of a quantized B dequantized into scratch as DequantizeLinear computes them: (q - z) * s,
// with q - z exact in float (both are small integers), so the product rounds once.
template <typename Q>
struct QuantizedRows {
  const QuantizedMatrix& q;
  int64_t K, col0, n;
  alignas(64) float scratch[kGroup][kColumns];
  alignas(64) float scale[kColumns];
  alignas(64) float zero[kColumns];
  int64_t loaded_block = -1;  // the row of scales in `scale` and `zero`

  void LoadBlock(int64_t block) {
    const float* s = q.scales + block * q.cols + col0;
    for (int64_t j = 0; j < n; ++j) scale[j] = s[j];
    if (q.zero_points == nullptr) {
      for (int64_t j = 0; j < n; ++j) zero[j] = 0.0f;
    } else {
      const Q* z = reinterpret_cast<const Q*>(q.zero_points) + block * q.cols + col0;
      for (int64_t j = 0; j < n; ++j) zero[j] = static_cast<float>(z[j]);
    }
    loaded_block = block;
  }

  void operator()(int64_t k, int count, const float** out) {
    for (int r = 0; r < count; ++r) {
      const int64_t block = (k + r) / q.block_rows;
      if (block != loaded_block) LoadBlock(block);
      const Q* row = reinterpret_cast<const Q*>(q.data) + (k + r) * q.ld + col0;
      if (k + r + kPrefetchRows < K) PrefetchL2(row + kPrefetchRows * q.ld, n);
      float* w = scratch[r];
      for (int64_t j = 0; j < n; ++j) w[j] = (static_cast<float>(row[j]) - zero[j]) * scale[j];
      out[r] = w;
    }
  }
};

template <typename Q>
void QuantizedGemm(int64_t M, int64_t N, int64_t K, const float* A, int64_t lda,
                   const QuantizedMatrix& B, int64_t col0, float* C, int64_t ldc) {
  for (int64_t j = 0; j < N; j += kColumns) {
    QuantizedRows<Q> rows{B, K, col0 + j, N - j < kColumns ? N - j : kColumns};
    BlockOfRows(M, K, A, lda, rows, C + j, ldc, rows.n);
  }
}

}  // namespace

void SkinnyGemmF32(bool trans_b, bool accumulate, int64_t M, int64_t N, int64_t K, const float* A,
                   int64_t lda, const float* B, int64_t ldb, float* C, int64_t ldc) {
  if (trans_b) return DotRowsOf(M, N, K, A, lda, B, ldb, C, ldc, accumulate);
  for (int64_t j = 0; j < N; j += kColumns) {
    FloatRows rows{B + j, ldb, K, N - j < kColumns ? N - j : kColumns};
    BlockOfRows(M, K, A, lda, rows, C + j, ldc, rows.n, accumulate);
  }
}

void SkinnyGemmQuantizedF32(int64_t M, int64_t N, int64_t K, const float* A, int64_t lda,
                            const QuantizedMatrix& B, int64_t col0, float* C, int64_t ldc) {
  if (B.is_signed) return QuantizedGemm<int8_t>(M, N, K, A, lda, B, col0, C, ldc);
  QuantizedGemm<uint8_t>(M, N, K, A, lda, B, col0, C, ldc);
}

}  // namespace onnx_opt::interpreter::ONNX_OPT_SIMD_NS
