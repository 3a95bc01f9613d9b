// One LSTM step in one pass (VectorKernels::lstm_step_f32): for a block of 16 hidden units, the
// four gates' sums over k (R packed by PackLstmWeights, so the block's weights are one contiguous
// stream of 4 x 16 floats per k, each multiplied by a broadcast of h_prev[k]), then the cell, while
// the 64 sums are still in registers. The product alone read R row by row as dot products
// (horizontal sums for every element) into a gates buffer that four more passes (activations,
// products, sums) read and wrote again.
#include "interpreter/cpu/simd/math.h"
#include "interpreter/cpu/simd/simd.h"

#if defined(__AVX2__) && defined(__FMA__)
#include "interpreter/cpu/simd/intrinsics.h"
#endif

namespace onnx_opt::interpreter::ONNX_OPT_SIMD_NS {
namespace {

constexpr int64_t kUnits = kLstmUnitBlock;
constexpr int64_t kGateSums = 4 * kUnits;  // one block's sums: i, o, f, c x 16 units

// The cell of one entry for n units of a block (u0 the block's first unit): `sums` are the block's
// products in gate order, xw and c the entry's whole rows. kN > 0 fixes n at compile time (a whole
// block). The units go through local arrays: with the rows' pointers (which may alias, as far as
// the compiler knows) the loop stayed scalar.
template <int64_t kN>
inline void FinishCells(const float* sums, const float* xw, int64_t H, int64_t u0, int64_t n,
                        float* c, float* h_out) {
  if constexpr (kN > 0) n = kN;
  alignas(64) float pre[4][kUnits] = {};  // lanes past n: zeros, computed and dropped
  alignas(64) float cell[kUnits] = {};
  for (int64_t g = 0; g < 4; ++g) {
    for (int64_t u = 0; u < n; ++u) pre[g][u] = xw[g * H + u0 + u] + sums[g * kUnits + u];
  }
  for (int64_t u = 0; u < n; ++u) cell[u] = c[u0 + u];
  alignas(64) float h[kUnits];
  for (int64_t u = 0; u < kUnits; ++u) {
    const float i = SigmoidF(pre[0][u]);
    const float o = SigmoidF(pre[1][u]);
    const float f = SigmoidF(pre[2][u]);
    const float g = TanhF(pre[3][u]);
    const float cn = f * cell[u] + i * g;
    cell[u] = cn;
    h[u] = o * TanhF(cn);
  }
  for (int64_t u = 0; u < n; ++u) c[u0 + u] = cell[u];
  for (int64_t u = 0; u < n; ++u) h_out[u0 + u] = h[u];
}

#if defined(__AVX512F__) || (defined(__AVX2__) && defined(__FMA__))
#if defined(__AVX512F__)
using V = __m512;
constexpr int64_t kLanes = 16;
inline V Zero() { return _mm512_setzero_ps(); }
inline V Load(const float* p) { return _mm512_loadu_ps(p); }
inline V Broadcast(const float* p) { return _mm512_set1_ps(*p); }
inline V Fma(V a, V b, V c) { return _mm512_fmadd_ps(a, b, c); }
inline void Store(float* p, V v) { _mm512_storeu_ps(p, v); }
// Entries computed together: 4 x 4 sums, their broadcasts and a weight within 32 registers.
constexpr int kMaxRows = 4;
#else
using V = __m256;
constexpr int64_t kLanes = 8;
inline V Zero() { return _mm256_setzero_ps(); }
inline V Load(const float* p) { return _mm256_loadu_ps(p); }
inline V Broadcast(const float* p) { return _mm256_broadcast_ss(p); }
inline V Fma(V a, V b, V c) { return _mm256_fmadd_ps(a, b, c); }
inline void Store(float* p, V v) { _mm256_storeu_ps(p, v); }
constexpr int kMaxRows = 1;  // 8 sums an entry: two entries would not fit in 16 registers
#endif
constexpr int64_t kVectors = kGateSums / kLanes;

// sums[r] = h_prev[r] * (the block's columns of R^T), k in order, one FMA per k and lane.
template <int kRows>
void BlockSums(int64_t H, const float* panel, const float* const* h_prev,
               float (*sums)[kGateSums]) {
  V acc[kRows][kVectors];
  for (int r = 0; r < kRows; ++r) {
    for (int64_t v = 0; v < kVectors; ++v) acc[r][v] = Zero();
  }
  for (int64_t k = 0; k < H; ++k) {
    const float* w = panel + k * kGateSums;
    V a[kRows];
    for (int r = 0; r < kRows; ++r) a[r] = Broadcast(h_prev[r] + k);
    for (int64_t v = 0; v < kVectors; ++v) {
      const V wv = Load(w + v * kLanes);
      for (int r = 0; r < kRows; ++r) acc[r][v] = Fma(a[r], wv, acc[r][v]);
    }
  }
  for (int r = 0; r < kRows; ++r) {
    for (int64_t v = 0; v < kVectors; ++v) Store(sums[r] + v * kLanes, acc[r][v]);
  }
}

template <int kRows>
void Rows(int64_t H, const float* panel, const LstmStepRows& rows, int64_t r0, int64_t u0,
          int64_t n) {
  alignas(64) float sums[kRows][kGateSums];
  BlockSums<kRows>(H, panel, rows.h_prev + r0, sums);
  for (int r = 0; r < kRows; ++r) {
    if (n == kUnits) {
      FinishCells<kUnits>(sums[r], rows.xw[r0 + r], H, u0, n, rows.c[r0 + r], rows.h_out[r0 + r]);
    } else {
      FinishCells<0>(sums[r], rows.xw[r0 + r], H, u0, n, rows.c[r0 + r], rows.h_out[r0 + r]);
    }
  }
}
#else
constexpr int kMaxRows = 1;

template <int kRows>
void Rows(int64_t H, const float* panel, const LstmStepRows& rows, int64_t r0, int64_t u0,
          int64_t n) {
  static_assert(kRows == 1);
  float sums[kGateSums] = {};
  const float* h = rows.h_prev[r0];
  for (int64_t k = 0; k < H; ++k) {
    for (int64_t s = 0; s < kGateSums; ++s) sums[s] += h[k] * panel[k * kGateSums + s];
  }
  FinishCells<0>(sums, rows.xw[r0], H, u0, n, rows.c[r0], rows.h_out[r0]);
}
#endif

}  // namespace

void LstmStepF32(int64_t H, const float* packed_r, const LstmStepRows& rows, int64_t block0,
                 int64_t block1) {
  for (int64_t b = block0; b < block1; ++b) {
    const int64_t u0 = b * kUnits;
    const int64_t n = H - u0 < kUnits ? H - u0 : kUnits;
    const float* panel = packed_r + b * H * kGateSums;
    int64_t r = 0;
    if constexpr (kMaxRows >= 4) {
      for (; r + 4 <= rows.count; r += 4) Rows<4 <= kMaxRows ? 4 : 1>(H, panel, rows, r, u0, n);
    }
    if constexpr (kMaxRows >= 2) {
      for (; r + 2 <= rows.count; r += 2) Rows<2 <= kMaxRows ? 2 : 1>(H, panel, rows, r, u0, n);
    }
    for (; r < rows.count; ++r) Rows<1>(H, panel, rows, r, u0, n);
  }
}

}  // namespace onnx_opt::interpreter::ONNX_OPT_SIMD_NS
