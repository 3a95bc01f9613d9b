// Direct convolution of an input with few channels (a CNN's stem: 3 of them), vectorized along the
// output row: each tap of the kernel is one multiply-add of a weight, broadcast, with a vector of
// consecutive input pixels. Strided taps become contiguous by splitting each input row the output
// row reads into its stride's phases (phase p holds columns p, p + stride, ...), once per output
// row; a tap then reads phase (kw * dilation) % stride from offset (kw * dilation) / stride. The
// outputs come out in their planes, four channels by four vectors of positions at a time, finished
// as they are stored. With a handful of channels an im2col GEMM spends as long building its column
// matrix (7x7 x 3 rows for ResNet-50's stem) as multiplying it.
//
// Each output sums its taps in (channel, kernel row, kernel column) order from zero, one FMA each,
// then takes the bias and the rest of the epilogue, as the GEMM over the column matrix sums most
// columns (unpacked_gemm*.cc; its last few columns are dot products, summed in another order). An
// output does not depend on which rows or channels a call computes.
#include <algorithm>
#include <cstring>
#include <memory>

#include "interpreter/cpu/scratch.h"
#include "interpreter/cpu/simd/simd.h"

#if defined(__AVX2__) && defined(__FMA__)
#include "interpreter/cpu/simd/epilogue.h"
#include "interpreter/cpu/simd/intrinsics.h"

namespace onnx_opt::interpreter::ONNX_OPT_SIMD_NS {
namespace {

#if defined(__AVX512F__)
using V = __m512;
constexpr int64_t kLanes = 16;
constexpr int kChannels = 4;  // output channels a group: 16 sums and 4 pixel vectors in registers
constexpr int kPositionVectors = 4;
inline V Zero() { return _mm512_setzero_ps(); }
inline V Load(const float* p) { return _mm512_loadu_ps(p); }
inline V Broadcast(const float* p) { return _mm512_set1_ps(*p); }
inline V Fma(V a, V b, V c) { return _mm512_fmadd_ps(a, b, c); }
inline void StoreFirst(float* p, V v, int64_t n) {  // lanes [0, n)
  _mm512_mask_storeu_ps(p, FirstLanes16(n), v);
}
#else
using V = __m256;
constexpr int64_t kLanes = 8;
constexpr int kChannels = 4;  // 8 sums, 2 pixel vectors and a weight within 16 registers
constexpr int kPositionVectors = 2;
inline V Zero() { return _mm256_setzero_ps(); }
inline V Load(const float* p) { return _mm256_loadu_ps(p); }
inline V Broadcast(const float* p) { return _mm256_broadcast_ss(p); }
inline V Fma(V a, V b, V c) { return _mm256_fmadd_ps(a, b, c); }
// Lanes [0, n): a maskstore only for a tail (AMD cores microcode it: for every store it cost this
// kernel 0.28 -> 0.44 ms on Zen 4).
inline void StoreFirst(float* p, V v, int64_t n) {
  if (n >= kLanes) return _mm256_storeu_ps(p, v);
  _mm256_maskstore_ps(p, FirstLanes8(n), v);
}
#endif
constexpr int64_t kGroupPositions = kPositionVectors * kLanes;

// Bias and epilogue of channel m on a vector of its sums, as the GEMM finishes a row.
inline V Finish(V v, const RowEpilogue& e, int64_t m) {
  const bool scaled = e.scale != nullptr;
#if defined(__AVX512F__)
  if (e.bias != nullptr) v = _mm512_add_ps(v, _mm512_set1_ps(e.bias[m]));
  return FinishVector(v, scaled, scaled ? _mm512_set1_ps(e.scale[m]) : Zero(),
                      scaled ? _mm512_set1_ps(e.shift[m]) : Zero(), e);
#else
  if (e.bias != nullptr) v = _mm256_add_ps(v, _mm256_set1_ps(e.bias[m]));
  return FinishVector(v, scaled, scaled ? _mm256_set1_ps(e.scale[m]) : Zero(),
                      scaled ? _mm256_set1_ps(e.shift[m]) : Zero(), e);
#endif
}

// Channels [m, m + kC) x positions [j, j + n) (n <= kGroupPositions) of one output row. `taps[t]`
// points at tap t's input pixel for output position 0 (phases laid out so that position j reads
// taps[t] + j); w holds each channel's K weights in tap order.
template <int kC, int kPV>
void Group(const float* const* taps, int64_t K, const float* w, const RowEpilogue& e, int64_t m,
           int64_t j, int64_t n, float* y, int64_t plane) {
  // Every loop over the sums fully unrolled, so that GCC keeps them in registers (otherwise it
  // kept the array in memory and stored it on every tap: AVX2 ran the 7x7 stem at half speed).
  V acc[kC][kPV];
#pragma GCC unroll 4
  for (int c = 0; c < kC; ++c) {
#pragma GCC unroll 4
    for (int v = 0; v < kPV; ++v) acc[c][v] = Zero();
  }
  // The outputs' lines asked for, for writing, while the taps are summed: the planes are larger
  // than the caches and each store would otherwise wait for its line.
  for (int c = 0; c < kC; ++c) {
    for (int v = 0; v < kPV; ++v) __builtin_prefetch(y + (m + c) * plane + j + v * kLanes, 1, 3);
  }
  const float* wm = w + m * K;
  for (int64_t t = 0; t < K; ++t) {
    const float* src = taps[t] + j;
    V x[kPV];
#pragma GCC unroll 4
    for (int v = 0; v < kPV; ++v) x[v] = Load(src + v * kLanes);
#pragma GCC unroll 4
    for (int c = 0; c < kC; ++c) {
      const V wv = Broadcast(wm + c * K + t);
#pragma GCC unroll 4
      for (int v = 0; v < kPV; ++v) acc[c][v] = Fma(wv, x[v], acc[c][v]);
    }
  }
#pragma GCC unroll 4
  for (int c = 0; c < kC; ++c) {
    float* row = y + (m + c) * plane + j;
#pragma GCC unroll 4
    for (int v = 0; v < kPV; ++v) {
      const int64_t left = n - v * kLanes;
      if (left > 0) StoreFirst(row + v * kLanes, Finish(acc[c][v], e, m + c), left);
    }
  }
}

template <int kC>
void Channels(const float* const* taps, int64_t K, const float* w, const RowEpilogue& e, int64_t m,
              int64_t out_w, float* y, int64_t plane) {
  for (int64_t j = 0; j < out_w; j += kGroupPositions) {
    const int64_t n = std::min(kGroupPositions, out_w - j);
    switch ((n + kLanes - 1) / kLanes) {  // the vectors the positions need
      case 1:
        Group<kC, 1>(taps, K, w, e, m, j, n, y, plane);
        break;
      case 2:
        Group<kC, 2>(taps, K, w, e, m, j, n, y, plane);
        break;
#if defined(__AVX512F__)
      case 3:
        Group<kC, 3>(taps, K, w, e, m, j, n, y, plane);
        break;
      case 4:
        Group<kC, 4>(taps, K, w, e, m, j, n, y, plane);
        break;
#endif
    }
  }
}

}  // namespace

void ConvFewChannelsF32(const float* x, int64_t channels, const Window2d& win, const float* w,
                        int64_t M, const RowEpilogue& e, int64_t oh0, int64_t oh1, float* y) {
  const int64_t KH = win.kernel_h, KW = win.kernel_w, K = channels * KH * KW;
  const int64_t S = win.stride_w, OW = win.out_w, plane = win.out_h * OW;
  const int64_t W = win.in_w, H = win.in_h;
  // A phase row: what the output row reads of one phase (its positions and the kernel's reach
  // past them), then a group's worth of zeros, so that whole vectors can be read past the end.
  const int64_t phase_len = OW + ((KW - 1) * win.dilation_w) / S + kGroupPositions;
  const int64_t rows = channels * KH;  // input rows an output row reads
  thread_local Scratch phase_scratch, tap_scratch;
  std::unique_ptr<float[]> own_phases;
  std::unique_ptr<const float*[]> own_taps;
  float* const phases = phase_scratch.ArrayOrOwn<float>(rows * S * phase_len, own_phases);
  const float** const taps = tap_scratch.ArrayOrOwn<const float*>(K, own_taps);
  // Tap (c, kh, kw) reads phase (kw * dilation) % S of row (c, kh) from (kw * dilation) / S.
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t kw = 0; kw < KW; ++kw) {
      const int64_t off = kw * win.dilation_w;
      taps[r * KW + kw] = phases + (r * S + off % S) * phase_len + off / S;
    }
  }
  // What an output row reads of a phase: its positions and the kernel's reach past them. The
  // group's worth of floats after it is only read into lanes that are never stored: zeroed once.
  const int64_t reach = phase_len - kGroupPositions;
  std::memset(phases, 0, static_cast<size_t>(rows * S * phase_len) * sizeof(float));
  for (int64_t oh = oh0; oh < oh1; ++oh) {
    // Phase p of row (c, kh): input columns q * S + p - pad_left for q = 0, 1, ..., zero outside.
    for (int64_t c = 0; c < channels; ++c) {
      for (int64_t kh = 0; kh < KH; ++kh) {
        const int64_t ih = oh * win.stride_h - win.pad_top + kh * win.dilation_h;
        for (int64_t p = 0; p < S; ++p) {
          float* ph = phases + ((c * KH + kh) * S + p) * phase_len;
          // q with 0 <= q * S + p - pad_left < W: [q0, q1).
          const int64_t first = win.pad_left - p;
          const int64_t q0 = std::min(reach, first <= 0 ? 0 : (first + S - 1) / S);
          const int64_t last = W - 1 + first;  // q * S <= last
          const int64_t q1 = std::max(q0, std::min(reach, last < 0 ? 0 : last / S + 1));
          if (ih < 0 || ih >= H) {
            std::memset(ph, 0, static_cast<size_t>(reach) * sizeof(float));
            continue;
          }
          std::memset(ph, 0, static_cast<size_t>(q0) * sizeof(float));
          const float* in = x + (c * H + ih) * W + q0 * S - first;
          if (S == 1) {
            std::memcpy(ph + q0, in, static_cast<size_t>(q1 - q0) * sizeof(float));
          } else {
            GatherStridedF32(in, S, q1 - q0, ph + q0);
          }
          std::memset(ph + q1, 0, static_cast<size_t>(reach - q1) * sizeof(float));
        }
      }
    }
    float* out = y + oh * OW;
    int64_t m = 0;
    for (; m + kChannels <= M; m += kChannels)
      Channels<kChannels>(taps, K, w, e, m, OW, out, plane);
    for (; m < M; ++m) Channels<1>(taps, K, w, e, m, OW, out, plane);
  }
}

}  // namespace onnx_opt::interpreter::ONNX_OPT_SIMD_NS
#endif
