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
// and the quantized product equals the float product over DequantizeLinear's weights bit for bit;
// but for 4-bit weights on AVX-512 (PackedGemm), which sums up to 32 rows before scaling them: its
// bits still do not depend on the columns asked for.
// The loops are plain C++ that the compiler vectorizes over columns for this file's ISA.
#include <type_traits>
#include <vector>

#include "interpreter/cpu/simd/simd.h"

#if defined(__SSE2__)
#include "interpreter/cpu/simd/intrinsics.h"
#include "interpreter/cpu/simd/prefetch.h"
#endif

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

#if defined(__FMA__)
inline float MulAdd(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
#else
inline float MulAdd(float a, float b, float c) {
  return a * b + c;
}  // no FMA instruction (baseline)
#endif

// Columns per step of AddRows: the rows' next cache lines are asked for between steps, so the
// requests go out spread over the work instead of in a burst that fills the line-fill buffers and
// stalls the core with nothing to compute (a burst per group of rows held 4-row products to 55-80%
// of the read bandwidth where 1-row ones reached 100%).
constexpr int64_t kStep = 64;

// acc[m][j] += a[m][k] * b_k[j] for the `rows` (1..kGroup) rows of B given, in row order, while
// prefetching the same columns of the rows `ahead` (null: none).
template <int M>
inline void AddRows(const float* const* b, int rows, const float (&a)[M][kGroup],
                    float (*acc)[kColumns], int64_t n, const float* const* ahead = nullptr) {
  if (rows == kGroup) {
    const float *b0 = b[0], *b1 = b[1], *b2 = b[2], *b3 = b[3];
    for (int64_t j0 = 0; j0 < n; j0 += kStep) {
      const int64_t len = n - j0 < kStep ? n - j0 : kStep;
      if (ahead != nullptr) {
        for (int r = 0; r < kGroup; ++r) {
          if (ahead[r] != nullptr) PrefetchL2(ahead[r] + j0, len * int64_t{sizeof(float)});
        }
      }
      for (int m = 0; m < M; ++m) {
        const float a0 = a[m][0], a1 = a[m][1], a2 = a[m][2], a3 = a[m][3];
        float* __restrict c = acc[m] + j0;
        const float *c0 = b0 + j0, *c1 = b1 + j0, *c2 = b2 + j0, *c3 = b3 + j0;
        for (int64_t j = 0; j < len; ++j)
          c[j] = MulAdd(a3, c3[j], MulAdd(a2, c2[j], MulAdd(a1, c1[j], MulAdd(a0, c0[j], c[j]))));
      }
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

// One block of C: columns [0, n) (n <= kColumns) of C's M rows over all of K. `rows(k, count, out,
// ahead)` sets out[0..count) to the float rows k.. of B's block, and ahead[0..count) to the rows
// kPrefetchRows further on to prefetch (null past the end).
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
    const float* ahead[kGroup];
    rows(k, count, b, ahead);
    float a[M][kGroup];
    for (int m = 0; m < M; ++m) {
      for (int r = 0; r < kGroup; ++r) a[m][r] = r < count ? A[m * lda + k + r] : 0.0f;
    }
    AddRows<M>(b, count, a, acc, n, ahead);
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

// B stored N x K (Gemm's transB: a Linear layer's weight, an LSTM's R): each element of C is a dot
// product of two contiguous rows, B read front to back, summed in kDotLanes lanes (in order of k
// within a lane; on AVX-512 the last K % kDotLanes products too, masked, elsewhere added one by one
// after the lanes), then across the lanes by one fixed tree (SumLanes). A few columns are computed
// together (kDotColumns): their sums are independent chains (a single one waits the FMA's latency
// on every step) and share the loads of A, which otherwise doubled the loads of a one-row product
// (an LSTM step's H_{t-1} * R^T, 1 x 512 x 128, where R comes from L2 and loads are the limit).
// Every column takes the same steps in the same order whichever columns it is computed with, so a
// split of N does not change the bits. The vector ISAs use intrinsics: the compiler's own loop over
// the lanes came out as scalar FMAs for one row of A, and its sum across the lanes as a chain of 16
// dependent adds.
#if defined(__AVX512F__)
constexpr int kDotLanes = 16;
#else
constexpr int kDotLanes = 8;
#endif

// How far ahead of the dot products B is asked for, in floats: B's rows are read front to back, a
// stream that the loads alone kept at ~6 GB/s on one thread where the row-segment kernel,
// prefetching, reaches ~13 (4096 x 4096). Past the end of a row this runs into the next one's start
// (rows are usually contiguous); past the end of B it asks for lines nobody reads, which is
// harmless. One request per 64 floats of each row.
constexpr int64_t kDotAhead = 1024;

// Columns per group: four independent sums for one row of A, two columns for two rows, and one
// column (the rows' own sums) beyond, within the 16 (AVX2) or 32 registers.
#if defined(__AVX512F__) || (defined(__AVX2__) && defined(__FMA__))
template <int M>
constexpr int kDotColumns = M == 1 ? 4 : (M == 2 ? 2 : 1);

#if defined(__AVX512F__)
using DotVector = __m512;
inline DotVector DotZero() { return _mm512_setzero_ps(); }
inline DotVector DotLoad(const float* p) { return _mm512_loadu_ps(p); }
inline DotVector DotFma(DotVector a, DotVector b, DotVector c) { return _mm512_fmadd_ps(a, b, c); }
// The 16 lanes halved to 8 (low + high), then to 4.
inline __m128 HalveTo4(DotVector v) {
  const __m256 high = _mm512_castps512_ps256(_mm512_shuffle_f32x4(v, v, _MM_SHUFFLE(3, 2, 3, 2)));
  const __m256 h = _mm256_add_ps(_mm512_castps512_ps256(v), high);
  return _mm_add_ps(_mm256_castps256_ps128(h), _mm256_extractf128_ps(h, 1));
}
#else
using DotVector = __m256;
inline DotVector DotZero() { return _mm256_setzero_ps(); }
inline DotVector DotLoad(const float* p) { return _mm256_loadu_ps(p); }
inline DotVector DotFma(DotVector a, DotVector b, DotVector c) { return _mm256_fmadd_ps(a, b, c); }
inline __m128 HalveTo4(DotVector v) {
  return _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
}
#endif

// The sum of the lanes: halved to 4, then lanes 0 + 2 and 1 + 3, then those two.
inline float SumLanes(DotVector v) {
  __m128 x = HalveTo4(v);
  x = _mm_add_ps(x, _mm_movehl_ps(x, x));
  x = _mm_add_ss(x, _mm_movehdup_ps(x));
  return _mm_cvtss_f32(x);
}

// SumLanes of four vectors at once, in lanes 0..3: the same additions, done side by side.
inline __m128 SumLanes4(DotVector v0, DotVector v1, DotVector v2, DotVector v3) {
#if defined(__AVX512F__)
  auto halve = [](__m512 v) {
    return _mm256_add_ps(_mm512_castps512_ps256(v), _mm512_castps512_ps256(_mm512_shuffle_f32x4(
                                                        v, v, _MM_SHUFFLE(3, 2, 3, 2))));
  };
  const __m256 h0 = halve(v0), h1 = halve(v1), h2 = halve(v2), h3 = halve(v3);
#else
  const __m256 h0 = v0, h1 = v1, h2 = v2, h3 = v3;
#endif
  // [x0 | x1] with x_i = low half + high half of h_i, and [x2 | x3].
  const __m256 w01 =
      _mm256_add_ps(_mm256_permute2f128_ps(h0, h1, 0x20), _mm256_permute2f128_ps(h0, h1, 0x31));
  const __m256 w23 =
      _mm256_add_ps(_mm256_permute2f128_ps(h2, h3, 0x20), _mm256_permute2f128_ps(h2, h3, 0x31));
  // Lanes 0 + 2 and 1 + 3 of each: [x0's, x2's | x1's, x3's] pairs.
  const __m256 r = _mm256_add_ps(_mm256_shuffle_ps(w01, w23, _MM_SHUFFLE(1, 0, 1, 0)),
                                 _mm256_shuffle_ps(w01, w23, _MM_SHUFFLE(3, 2, 3, 2)));
  // Then the two: [s0, s2, s0, s2 | s1, s3, s1, s3].
  const __m256 f = _mm256_add_ps(_mm256_shuffle_ps(r, r, _MM_SHUFFLE(2, 0, 2, 0)),
                                 _mm256_shuffle_ps(r, r, _MM_SHUFFLE(3, 1, 3, 1)));
  return _mm_unpacklo_ps(_mm256_castps256_ps128(f), _mm256_extractf128_ps(f, 1));
}

// Columns 0..G-1 of C (rows b, b + ldb, ... of B): C[m][g] (+)= A's row m . B's row g.
template <int M, int G>
void DotColumns(int64_t K, const float* A, int64_t lda, const float* b, int64_t ldb, float* C,
                int64_t ldc, bool accumulate) {
  DotVector acc[G][M];
  for (int g = 0; g < G; ++g) {
    for (int m = 0; m < M; ++m) acc[g][m] = DotZero();
  }
  auto step = [&](int64_t k) {
    DotVector bv[G];
    for (int g = 0; g < G; ++g) bv[g] = DotLoad(b + g * ldb + k);
    for (int m = 0; m < M; ++m) {
      const DotVector av = DotLoad(A + m * lda + k);
      for (int g = 0; g < G; ++g) acc[g][m] = DotFma(av, bv[g], acc[g][m]);
    }
  };
  int64_t k = 0;
  for (; k + 64 <= K; k += 64) {
    for (int g = 0; g < G; ++g) __builtin_prefetch(b + g * ldb + k + kDotAhead, 0, 2);
#pragma GCC unroll 8
    for (int64_t s = 0; s < 64; s += kDotLanes) step(k + s);
  }
  for (; k + kDotLanes <= K; k += kDotLanes) step(k);
#if defined(__AVX512F__)
  if (k < K) {
    const __mmask16 tail = FirstLanes16(K - k);
    for (int m = 0; m < M; ++m) {
      const __m512 av = _mm512_maskz_loadu_ps(tail, A + m * lda + k);
      for (int g = 0; g < G; ++g)
        acc[g][m] = _mm512_fmadd_ps(av, _mm512_maskz_loadu_ps(tail, b + g * ldb + k), acc[g][m]);
    }
    k = K;
  }
#endif
  float sums[G][M];
  if constexpr (G * M == 4) {
    alignas(16) float four[4];
    // Column g of row m is vector g + G * m.
    _mm_store_ps(four,
                 SumLanes4(acc[0][0], acc[1 % G][1 / G], acc[2 % G][2 / G], acc[3 % G][3 / G]));
    for (int i = 0; i < 4; ++i) sums[i % G][i / G] = four[i];
  } else {
    for (int g = 0; g < G; ++g) {
      for (int m = 0; m < M; ++m) sums[g][m] = SumLanes(acc[g][m]);
    }
  }
  for (int g = 0; g < G; ++g) {
    for (int m = 0; m < M; ++m) {
      float sum = sums[g][m];
      for (int64_t t = k; t < K; ++t) sum = MulAdd(A[m * lda + t], b[g * ldb + t], sum);
      float& out = C[m * ldc + g];
      out = accumulate ? out + sum : sum;
    }
  }
}

template <int M>
void DotRows(int64_t N, int64_t K, const float* A, int64_t lda, const float* B, int64_t ldb,
             float* C, int64_t ldc, bool accumulate) {
  constexpr int G = kDotColumns<M>;
  int64_t j = 0;
  for (; j + G <= N; j += G) DotColumns<M, G>(K, A, lda, B + j * ldb, ldb, C + j, ldc, accumulate);
  for (; j < N; ++j) DotColumns<M, 1>(K, A, lda, B + j * ldb, ldb, C + j, ldc, accumulate);
}
#else
template <int M>
void DotRows(int64_t N, int64_t K, const float* A, int64_t lda, const float* B, int64_t ldb,
             float* C, int64_t ldc, bool accumulate) {
  for (int64_t j = 0; j < N; ++j) {
    const float* b = B + j * ldb;
    float acc[M][kDotLanes] = {};
    int64_t k = 0;
    for (; k + kDotLanes <= K; k += kDotLanes) {
      __builtin_prefetch(b + k + kDotAhead, 0, 2);
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
#endif

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
  void operator()(int64_t k, int count, const float** out, const float** ahead) const {
    for (int r = 0; r < count; ++r) {
      out[r] = B + (k + r) * ldb;
      ahead[r] = k + r + kPrefetchRows < K ? out[r] + kPrefetchRows * ldb : nullptr;
    }
  }
};

// 4-bit rows are widened straight from their nibbles on AVX-512 (PackedGemm) and unpacked to bytes
// first otherwise (QuantizedColumns::Row): on AVX2 widening in registers measured 4.5 against
// 3.7 ms unpacking first at 4096 x 4096, M=4, one thread (its 8 lanes pay the shifts per 8
// weights).
//
// Where column j of a strip of n columns sits in PackedGemm's sums, scales and zero points, which
// take 4-bit rows in their bytes' order: in each whole 32 columns the 16 even ones first, then the
// 16 odd ones; the columns after the last whole 32 in place.
inline int64_t EvenOddPosition(int64_t j, int64_t n) {
  if (j >= n / 32 * 32) return j;
  const int64_t c = j & 31;
  return (j & ~int64_t{31}) + ((c & 1) != 0 ? 16 + c / 2 : c / 2);
}

// to[EvenOddPosition(j, n)] = from[j] for j < n; `to` 64-byte aligned. (Only PackedGemm, AVX-512,
// calls it.)
[[maybe_unused]] inline void CopyEvenOdd(const float* from, int64_t n, float* to) {
  int64_t j = 0;
#if defined(__AVX512F__)
  const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  const __m512i odd = _mm512_add_epi32(even, _mm512_set1_epi32(1));
  for (; j + 32 <= n; j += 32) {
    const __m512 lo = _mm512_loadu_ps(from + j), hi = _mm512_loadu_ps(from + j + 16);
    _mm512_store_ps(to + j, _mm512_permutex2var_ps(lo, even, hi));
    _mm512_store_ps(to + j + 16, _mm512_permutex2var_ps(lo, odd, hi));
  }
#endif
  for (; j < n; ++j) to[EvenOddPosition(j, n)] = from[j];
}

// Columns [col0, col0 + n) of a quantized B as the fused loop reads them: the current block's
// scales and zero points as floats, and rows of 4-bit weights unpacked to a byte each (where
// PackedGemm does not take them). Rows are prefetched kPrefetchRows ahead, as FloatRows does.
template <typename Q>
struct QuantizedColumns {
  const QuantizedMatrix& q;
  int64_t K, col0, n;
  alignas(64) float scale[kColumns];
  alignas(64) float zero[kColumns];
  alignas(64) Q unpacked[kGroup][kColumns];
  int64_t loaded_block = -1;

  void LoadBlock(int64_t block) {
    if (block == loaded_block) return;
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

  // While rows k.. (a group) of a block are used, asks for a share of the next block's scales
  // and zero points, spread over the block's groups: read only when the block starts, a row of
  // them (4 KB of scales) otherwise waits on memory at every block's first group, nothing else
  // in flight to hide it.
  void PrefetchNextBlock(int64_t k) const {
    const int64_t rows = q.block_rows, next = k / rows + 1;
    if (next * rows >= K) return;
    const int64_t groups = rows < kGroup ? 1 : rows / kGroup, g = (k % rows) / kGroup;
    if (g >= groups) return;
    const int64_t share = (n + groups - 1) / groups, from = g * share;
    if (from >= n) return;
    const int64_t count = n - from < share ? n - from : share;
    PrefetchL2(q.scales + next * q.cols + col0 + from, count * 4);
    if (q.zero_points != nullptr) PrefetchL2(q.zero_points + next * q.cols + col0 + from, count);
  }

  // Row k's stored bytes of these columns.
  const uint8_t* Stored(int64_t k) const {
    return q.data + k * q.ld + (q.bits == 4 ? col0 / 2 : col0);
  }
  // Row k + kPrefetchRows's bytes, to prefetch while row k is used; null past the end.
  const uint8_t* Ahead(int64_t k) const {
    return k + kPrefetchRows < K ? Stored(k + kPrefetchRows) : nullptr;
  }

  // Row k's n weights; `r` (< kGroup) names the buffer a 4-bit row is unpacked into. With
  // `prefetch`, row k + kPrefetchRows is asked for at once (where no loop spreads the requests).
  const Q* Row(int64_t k, int r, bool prefetch) {
    const uint8_t* row = Stored(k);
    if (prefetch) {
      if (const uint8_t* p = Ahead(k)) PrefetchL2(p, q.bits == 4 ? (n + 1) / 2 : n);
    }
    if (q.bits != 4) return reinterpret_cast<const Q*>(row);
    // Two weights a byte, the low nibble first; signed ones sign-extended from bit 3.
    Q* out = unpacked[r];
    int64_t i = 0;
#if defined(__SSE2__)
    // 16 bytes at a time: the nibbles masked apart and interleaved back into order.
    const __m128i low4 = _mm_set1_epi8(0x0F), sign = _mm_set1_epi8(0x08);
    for (; i + 16 <= n / 2; i += 16) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(row + i));
      const __m128i lo = _mm_and_si128(v, low4), hi = _mm_and_si128(_mm_srli_epi16(v, 4), low4);
      __m128i first = _mm_unpacklo_epi8(lo, hi), second = _mm_unpackhi_epi8(lo, hi);
      if constexpr (std::is_signed_v<Q>) {  // (v ^ 8) - 8 sign-extends a 4-bit value
        first = _mm_sub_epi8(_mm_xor_si128(first, sign), sign);
        second = _mm_sub_epi8(_mm_xor_si128(second, sign), sign);
      }
      _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 2 * i), first);
      _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 2 * i + 16), second);
    }
#endif
    for (; i < n / 2; ++i) {
      const uint8_t b = row[i];
      if constexpr (std::is_signed_v<Q>) {
        out[2 * i] = static_cast<Q>(static_cast<int8_t>(b << 4) >> 4);
        out[2 * i + 1] = static_cast<Q>(static_cast<int8_t>(b) >> 4);
      } else {
        out[2 * i] = static_cast<Q>(b & 15);
        out[2 * i + 1] = static_cast<Q>(b >> 4);
      }
    }
    if (n % 2 != 0) {
      const uint8_t b = row[n / 2] & 15;
      out[n - 1] = std::is_signed_v<Q> ? static_cast<Q>(static_cast<int8_t>(b << 4) >> 4)
                                       : static_cast<Q>(b);
    }
    return out;
  }
};

// Columns [j, n) of a group of kGroup rows q[0..3] of one block (scales s, zero points z when
// kZero) multiplied into acc: w = (q - z) * s, acc = a3 * w3 + (a2 * w2 + (a1 * w1 + (a0 * w0 +
// acc))), each step rounded (FMA), whatever the vector width, so the bits are the float path's.
// Returns where it stopped: the vector loops leave the last columns to the scalar one. Without
// zero points q - 0 is q exactly, so the subtraction is skipped.
template <int M, bool kZero, typename Q>
int64_t FusedGroup(const Q* const (&q)[kGroup], const float* __restrict s,
                   const float* __restrict z, const float (&a)[M][kGroup], float (*acc)[kColumns],
                   int64_t j, int64_t n) {
#if defined(__AVX512F__)
  // Widening an int8 to int32 is one instruction here, where the compiler's own loop takes two
  // (through int16): the loop is bound by these vector ports, not by memory.
  auto dequantize = [&](const Q* p, int64_t at, __m512 sv, __m512 zv) {
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + at));
    __m512 f =
        _mm512_cvtepi32_ps(std::is_signed_v<Q> ? _mm512_cvtepi8_epi32(b) : _mm512_cvtepu8_epi32(b));
    if constexpr (kZero) f = _mm512_sub_ps(f, zv);
    return _mm512_mul_ps(f, sv);
  };
  for (; j + 16 <= n; j += 16) {
    const __m512 sv = _mm512_load_ps(s + j);
    const __m512 zv = kZero ? _mm512_load_ps(z + j) : _mm512_setzero_ps();
    const __m512 w0 = dequantize(q[0], j, sv, zv), w1 = dequantize(q[1], j, sv, zv),
                 w2 = dequantize(q[2], j, sv, zv), w3 = dequantize(q[3], j, sv, zv);
    for (int m = 0; m < M; ++m) {
      __m512 c = _mm512_load_ps(acc[m] + j);
      c = _mm512_fmadd_ps(_mm512_set1_ps(a[m][0]), w0, c);
      c = _mm512_fmadd_ps(_mm512_set1_ps(a[m][1]), w1, c);
      c = _mm512_fmadd_ps(_mm512_set1_ps(a[m][2]), w2, c);
      c = _mm512_fmadd_ps(_mm512_set1_ps(a[m][3]), w3, c);
      _mm512_store_ps(acc[m] + j, c);
    }
  }
#elif defined(__AVX2__) && defined(__FMA__)
  auto dequantize = [&](const Q* p, int64_t at, __m256 sv, __m256 zv) {
    const __m128i b = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p + at));
    __m256 f =
        _mm256_cvtepi32_ps(std::is_signed_v<Q> ? _mm256_cvtepi8_epi32(b) : _mm256_cvtepu8_epi32(b));
    if constexpr (kZero) f = _mm256_sub_ps(f, zv);
    return _mm256_mul_ps(f, sv);
  };
  for (; j + 8 <= n; j += 8) {
    const __m256 sv = _mm256_load_ps(s + j);
    const __m256 zv = kZero ? _mm256_load_ps(z + j) : _mm256_setzero_ps();
    const __m256 w0 = dequantize(q[0], j, sv, zv), w1 = dequantize(q[1], j, sv, zv),
                 w2 = dequantize(q[2], j, sv, zv), w3 = dequantize(q[3], j, sv, zv);
    for (int m = 0; m < M; ++m) {
      __m256 c = _mm256_load_ps(acc[m] + j);
      c = _mm256_fmadd_ps(_mm256_set1_ps(a[m][0]), w0, c);
      c = _mm256_fmadd_ps(_mm256_set1_ps(a[m][1]), w1, c);
      c = _mm256_fmadd_ps(_mm256_set1_ps(a[m][2]), w2, c);
      c = _mm256_fmadd_ps(_mm256_set1_ps(a[m][3]), w3, c);
      _mm256_store_ps(acc[m] + j, c);
    }
  }
#endif
  auto weight = [](const Q* p, int64_t at) -> float { return static_cast<float>(p[at]); };
  for (; j < n; ++j) {
    const float zj = kZero ? z[j] : 0.0f;
    const float w0 = (weight(q[0], j) - zj) * s[j];
    const float w1 = (weight(q[1], j) - zj) * s[j];
    const float w2 = (weight(q[2], j) - zj) * s[j];
    const float w3 = (weight(q[3], j) - zj) * s[j];
    for (int m = 0; m < M; ++m) {
      acc[m][j] = MulAdd(a[m][3], w3,
                         MulAdd(a[m][2], w2, MulAdd(a[m][1], w1, MulAdd(a[m][0], w0, acc[m][j]))));
    }
  }
  return j;
}

#if defined(__AVX512F__)
// The AVX-512 path for 4-bit rows read as stored (PackedGemm): B is walked a chunk of at
// most kChunkRows rows (all in one block of scales) at a time, across strips of up to kWideColumns
// columns (4 KB of each row, one page: long enough for the L2 streamer to ramp up on, which the
// software prefetches alone, at 10 lines in flight, could not replace), a sub-strip of kColumns at
// a time.
constexpr int64_t kChunkRows = 32;
constexpr int64_t kWideColumns = 8192;
// Bytes between the rows of a sub-strip's copy: a row segment plus a cache line, so that the rows'
// lines fall in different L1 sets (rows of B are often 2 or 4 KB apart, which puts all of a
// chunk's lines in one set of L1's 12 ways).
constexpr int64_t kCopyStride = kColumns / 2 + 64;

// Working memory of PackedGemm, 64-byte aligned: the wide strip's sums, its block's scales and zero
// points (EvenOddPosition order), and the copy of a sub-strip of the chunk.
class PackedWork {
 public:
  // `wide` rounded up to whole cache lines, so that every array starts on one.
  PackedWork(int64_t M, int64_t wide)
      : wide_((wide + 15) / 16 * 16), memory_((M + 2) * wide_ + kChunkRows * kCopyStride / 4 + 16) {
    const uintptr_t at = reinterpret_cast<uintptr_t>(memory_.data());
    base_ = reinterpret_cast<float*>((at + 63) & ~uintptr_t{63});
  }
  float* acc(int m) { return base_ + m * wide_; }
  float* scale(int64_t M) { return base_ + M * wide_; }
  float* zero(int64_t M) { return base_ + (M + 1) * wide_; }
  uint8_t* copy(int64_t M) { return reinterpret_cast<uint8_t*>(base_ + (M + 2) * wide_); }

 private:
  int64_t wide_;
  std::vector<float> memory_;
  float* base_;
};

// Columns [j0, j1) (j0 a multiple of 32) of chunk rows [k0, k1) of a wide strip, whose row segments
// start at `first` (ld bytes apart), added into acc (s, z: the block's scales and zero points; n
// the strip's width; EvenOddPosition order below the strip's last whole 32 columns). The rows are
// first copied to `copy` (kCopyStride apart), then for each 32 columns the chunk's products are
// summed in registers unscaled, sum = a * (q - z) + sum down the rows (q - z is exact in float),
// and scaled once: acc = sum * s + acc. That takes the per-weight multiply by the scale, and the
// loads and stores of acc per group of rows, off the two vector ports the multiply-adds need (at 4
// rows of A the loop is bound by those ports when B is in cache). The rounding differs from
// DequantizeLinear's weights multiplied in ((q - z) * s rounded, then each product) by a few float
// roundings of sum |a * w|; the bits depend only on the chunk's rows, never on the columns asked
// for. Meanwhile the same columns of the next chunk's `next` rows (from `ahead`) and of the next
// block's scales and zero points (`next_scales`, `next_zero`, if a block starts there) are asked
// for into L2, a line every few rows of the work, so the requests are spread out rather than sent
// in a burst.
template <int M, bool kZero, typename Q>
void PackedSubStrip(const uint8_t* first, int64_t ld, int64_t k0, int64_t k1, int64_t j0,
                    int64_t j1, int64_t n, const float* A, int64_t lda, const float* s,
                    const float* z, const uint8_t* ahead, int64_t next, const float* next_scales,
                    const uint8_t* next_zero, uint8_t* copy, float* const (&acc)[M]) {
  const int64_t whole = n / 32 * 32, bytes = (j1 - j0 + 1) / 2;
  for (int64_t k = k0; k < k1; ++k) {
    const uint8_t* from = first + (k - k0) * ld + j0 / 2;
    uint8_t* to = copy + (k - k0) * kCopyStride;
    int64_t i = 0;
    for (; i + 64 <= bytes; i += 64) _mm512_store_si512(to + i, _mm512_loadu_si512(from + i));
    for (; i < bytes; ++i) to[i] = from[i];
  }
  const __m512 values = std::is_signed_v<Q>
                            ? _mm512_setr_ps(0, 1, 2, 3, 4, 5, 6, 7, -8, -7, -6, -5, -4, -3, -2, -1)
                            : _mm512_setr_ps(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  const int64_t vector_end = j1 < whole ? j1 : whole;
  for (int64_t j = j0; j < vector_end; j += 32) {
    // Line j / 128 of the next chunk's rows r with r % 4 == (j / 32) % 4: all of their lines once
    // the four 32-column steps of a line are done; and the next block's scales of these columns.
    int64_t r = (j / 32) % 4;
    const uint8_t* line = ahead != nullptr ? ahead + j / 2 / 64 * 64 + r * ld : nullptr;
    if (next_scales != nullptr) {
      __builtin_prefetch(next_scales + j, 0, 2);
      __builtin_prefetch(next_scales + j + 16, 0, 2);
      if (next_zero != nullptr && j % 128 == 0) __builtin_prefetch(next_zero + j, 0, 2);
    }
    __m512 sum[M][2];
    for (int m = 0; m < M; ++m) sum[m][0] = sum[m][1] = _mm512_setzero_ps();
    const __m512 z0 = kZero ? _mm512_load_ps(z + j) : _mm512_setzero_ps();
    const __m512 z1 = kZero ? _mm512_load_ps(z + j + 16) : _mm512_setzero_ps();
    const uint8_t* row = copy + (j - j0) / 2;
    for (int64_t k = k0; k < k1; ++k, row += kCopyStride) {
      if ((k - k0) % 4 == 0 && line != nullptr && r < next) {
        __builtin_prefetch(line, 0, 2);
        line += 4 * ld;
        r += 4;
      }
      // Byte i of the 16 in lane i: its low nibble (column j + 2i, even) is the table's index as
      // it stands, its high one (column j + 2i + 1, odd) once shifted down.
      const __m512i d = _mm512_cvtepu8_epi32(_mm_load_si128(reinterpret_cast<const __m128i*>(row)));
      __m512 w0 = _mm512_permutexvar_ps(d, values);
      __m512 w1 = _mm512_permutexvar_ps(_mm512_srli_epi32(d, 4), values);
      if constexpr (kZero) {
        w0 = _mm512_sub_ps(w0, z0);
        w1 = _mm512_sub_ps(w1, z1);
      }
      for (int m = 0; m < M; ++m) {
        const __m512 am = _mm512_set1_ps(A[m * lda + k]);
        sum[m][0] = _mm512_fmadd_ps(am, w0, sum[m][0]);
        sum[m][1] = _mm512_fmadd_ps(am, w1, sum[m][1]);
      }
    }
    const __m512 s0 = _mm512_load_ps(s + j), s1 = _mm512_load_ps(s + j + 16);
    for (int m = 0; m < M; ++m) {
      _mm512_store_ps(acc[m] + j, _mm512_fmadd_ps(sum[m][0], s0, _mm512_load_ps(acc[m] + j)));
      _mm512_store_ps(acc[m] + j + 16,
                      _mm512_fmadd_ps(sum[m][1], s1, _mm512_load_ps(acc[m] + j + 16)));
    }
  }
  // The columns after the strip's last whole 32 (in place): the same operations a lane at a time.
  for (int64_t j = vector_end; j < j1; ++j) {
    float sum[M] = {};
    for (int64_t k = k0; k < k1; ++k) {
      const uint8_t b = copy[(k - k0) * kCopyStride + (j - j0) / 2];
      const int v = j % 2 == 0 ? (b & 15) : (b >> 4);
      float w = static_cast<float>(std::is_signed_v<Q> && v >= 8 ? v - 16 : v);
      if constexpr (kZero) w -= z[j];
      for (int m = 0; m < M; ++m) sum[m] = MulAdd(A[m * lda + k], w, sum[m]);
    }
    for (int m = 0; m < M; ++m) acc[m][j] = MulAdd(sum[m], s[j], acc[m][j]);
  }
}

// C = A * B for a 4-bit B read as stored (AVX-512): columns [col0, col0 + N) (col0 even),
// wide strip by wide strip, chunk by chunk, sub-strip by sub-strip (see kWideColumns and
// PackedSubStrip).
template <int M, typename Q>
void PackedGemm(int64_t N, int64_t K, const float* A, int64_t lda, const QuantizedMatrix& q,
                int64_t col0, float* C, int64_t ldc) {
  const int64_t wide = N < kWideColumns ? N : kWideColumns, block_rows = q.block_rows;
  PackedWork work(M, wide);
  float* acc[M];
  for (int m = 0; m < M; ++m) acc[m] = work.acc(m);
  float* const scale = work.scale(M);
  float* const zero = work.zero(M);
  // The chunk starting at k: to the end of its block, at most kChunkRows rows.
  auto chunk_end = [&](int64_t k) {
    const int64_t block_end = (k / block_rows + 1) * block_rows;
    const int64_t end = k + kChunkRows < block_end ? k + kChunkRows : block_end;
    return end < K ? end : K;
  };
  for (int64_t c0 = 0; c0 < N; c0 += wide) {
    const int64_t n = N - c0 < wide ? N - c0 : wide, first_col = col0 + c0;
    for (int m = 0; m < M; ++m) {
      for (int64_t j = 0; j < n; ++j) acc[m][j] = 0.0f;
    }
    for (int64_t k0 = 0; k0 < K;) {
      const int64_t k1 = chunk_end(k0), next = k1 < K ? chunk_end(k1) - k1 : 0;
      const int64_t block = k0 / block_rows;
      if (k0 % block_rows == 0) {
        CopyEvenOdd(q.scales + block * q.cols + first_col, n, scale);
        if (q.zero_points != nullptr) {
          const Q* zp = reinterpret_cast<const Q*>(q.zero_points) + block * q.cols + first_col;
          for (int64_t j = 0; j < n; ++j) zero[EvenOddPosition(j, n)] = static_cast<float>(zp[j]);
        }
      }
      // The next block's scales, asked for while its last chunk before it is worked on.
      const bool next_block = next > 0 && k1 % block_rows == 0;
      const float* next_scales =
          next_block ? q.scales + (k1 / block_rows) * q.cols + first_col : nullptr;
      const uint8_t* next_zero = next_block && q.zero_points != nullptr
                                     ? q.zero_points + (k1 / block_rows) * q.cols + first_col
                                     : nullptr;
      const uint8_t* first = q.data + k0 * q.ld + first_col / 2;
      const uint8_t* ahead = next > 0 ? q.data + k1 * q.ld + first_col / 2 : nullptr;
      for (int64_t j0 = 0; j0 < n; j0 += kColumns) {
        const int64_t j1 = n - j0 < kColumns ? n : j0 + kColumns;
        if (q.zero_points != nullptr) {
          PackedSubStrip<M, true, Q>(first, q.ld, k0, k1, j0, j1, n, A, lda, scale, zero, ahead,
                                     next, next_scales, next_zero, work.copy(M), acc);
        } else {
          PackedSubStrip<M, false, Q>(first, q.ld, k0, k1, j0, j1, n, A, lda, scale, zero, ahead,
                                      next, next_scales, next_zero, work.copy(M), acc);
        }
      }
      k0 = k1;
    }
    for (int m = 0; m < M; ++m) {
      for (int64_t j = 0; j < n; ++j) C[m * ldc + c0 + j] = acc[m][EvenOddPosition(j, n)];
    }
  }
}
#endif

// One block of C from a quantized B: columns [0, n) of C's M rows over all of K. Each group of
// kGroup rows of B in one block of scales is dequantized in registers as DequantizeLinear computes
// it, (q - z) * s (q - z is exact in float, so the weight rounds once), and multiplied in at once:
// the float weights are never stored. A group that straddles two blocks, and the last short one,
// go through scratch rows and AddRows. Either way each element of C is the float skinny GEMM's
// chain of multiply-adds over the same weights, so the bits are the same.
template <int M, typename Q>
void QuantizedBlock(int64_t K, const float* A, int64_t lda, QuantizedColumns<Q>& cols, float* C,
                    int64_t ldc) {
  const int64_t n = cols.n, block_rows = cols.q.block_rows;
  alignas(64) float acc[M][kColumns];
  for (int m = 0; m < M; ++m) {
    for (int64_t j = 0; j < n; ++j) acc[m][j] = 0.0f;
  }
  for (int64_t k = 0; k < K; k += kGroup) {
    const int count = static_cast<int>(K - k < kGroup ? K - k : kGroup);
    float a[M][kGroup];
    for (int m = 0; m < M; ++m) {
      for (int r = 0; r < kGroup; ++r) a[m][r] = r < count ? A[m * lda + k + r] : 0.0f;
    }
    const int64_t block = k / block_rows;
    cols.PrefetchNextBlock(k);
    if (count == kGroup && (k + kGroup - 1) / block_rows == block) {
      cols.LoadBlock(block);
      const Q* const q[kGroup] = {cols.Row(k, 0, false), cols.Row(k + 1, 1, false),
                                  cols.Row(k + 2, 2, false), cols.Row(k + 3, 3, false)};
      const uint8_t* const ahead[kGroup] = {cols.Ahead(k), cols.Ahead(k + 1), cols.Ahead(k + 2),
                                            cols.Ahead(k + 3)};
      // The rows ahead are asked for a step of columns at a time, between the steps' work (see
      // kStep); a step is 64 (4-bit) or 128 (8-bit) bytes of each row.
      const int shift = cols.q.bits == 4 ? 1 : 0;
      for (int64_t j0 = 0; j0 < n; j0 += 2 * kStep) {
        const int64_t j1 = n - j0 < 2 * kStep ? n : j0 + 2 * kStep;
        for (int r = 0; r < kGroup; ++r) {
          if (ahead[r] == nullptr) continue;
          for (int64_t b = j0 >> shift; b < (j1 + shift) >> shift; b += 64)
            __builtin_prefetch(ahead[r] + b, 0, 2);
        }
        cols.q.zero_points != nullptr
            ? FusedGroup<M, true>(q, cols.scale, cols.zero, a, acc, j0, j1)
            : FusedGroup<M, false>(q, cols.scale, cols.zero, a, acc, j0, j1);
      }
      continue;
    }
    alignas(64) float scratch[kGroup][kColumns];
    const float* b[kGroup];
    for (int r = 0; r < count; ++r) {
      cols.LoadBlock((k + r) / block_rows);
      const Q* row = cols.Row(k + r, r, true);
      for (int64_t j = 0; j < n; ++j)
        scratch[r][j] = (static_cast<float>(row[j]) - cols.zero[j]) * cols.scale[j];
      b[r] = scratch[r];
    }
    AddRows<M>(b, count, a, acc, n);
  }
  for (int m = 0; m < M; ++m) {
    for (int64_t j = 0; j < n; ++j) C[m * ldc + j] = acc[m][j];
  }
}

template <typename Q>
void QuantizedGemm(int64_t M, int64_t N, int64_t K, const float* A, int64_t lda,
                   const QuantizedMatrix& B, int64_t col0, float* C, int64_t ldc) {
#if defined(__AVX512F__)
  if (B.bits == 4) {
    switch (M) {
      case 1:
        return PackedGemm<1, Q>(N, K, A, lda, B, col0, C, ldc);
      case 2:
        return PackedGemm<2, Q>(N, K, A, lda, B, col0, C, ldc);
      case 3:
        return PackedGemm<3, Q>(N, K, A, lda, B, col0, C, ldc);
      case 4:
        return PackedGemm<4, Q>(N, K, A, lda, B, col0, C, ldc);
      case 5:
        return PackedGemm<5, Q>(N, K, A, lda, B, col0, C, ldc);
      case 6:
        return PackedGemm<6, Q>(N, K, A, lda, B, col0, C, ldc);
      case 7:
        return PackedGemm<7, Q>(N, K, A, lda, B, col0, C, ldc);
      default:
        return PackedGemm<8, Q>(N, K, A, lda, B, col0, C, ldc);
    }
  }
#endif
  for (int64_t j = 0; j < N; j += kColumns) {
    QuantizedColumns<Q> cols{B, K, col0 + j, N - j < kColumns ? N - j : kColumns};
    switch (M) {
      case 1:
        QuantizedBlock<1>(K, A, lda, cols, C + j, ldc);
        break;
      case 2:
        QuantizedBlock<2>(K, A, lda, cols, C + j, ldc);
        break;
      case 3:
        QuantizedBlock<3>(K, A, lda, cols, C + j, ldc);
        break;
      case 4:
        QuantizedBlock<4>(K, A, lda, cols, C + j, ldc);
        break;
      case 5:
        QuantizedBlock<5>(K, A, lda, cols, C + j, ldc);
        break;
      case 6:
        QuantizedBlock<6>(K, A, lda, cols, C + j, ldc);
        break;
      case 7:
        QuantizedBlock<7>(K, A, lda, cols, C + j, ldc);
        break;
      default:
        QuantizedBlock<8>(K, A, lda, cols, C + j, ldc);
        break;
    }
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
