// Per-channel 2-D window kernels: depthwise convolution and pooling. Each output row is built by
// sweeping whole input rows once per kernel cell over the range of outputs whose window cell falls
// inside the input (worked out up front), so the inner loop has no bounds checks and vectorizes.
#include <algorithm>
#include <vector>

#include "interpreter/cpu/scratch.h"
#include "interpreter/cpu/simd/simd.h"
#include "interpreter/cpu/window_cells.h"

#if defined(__SSE2__)
#include "interpreter/cpu/simd/intrinsics.h"
#endif
#include "interpreter/cpu/simd/stride_vectors.h"

namespace onnx_opt::interpreter::ONNX_OPT_SIMD_NS {
namespace {

// Outputs o in [*lo, *hi) read input position o * stride - pad + offset inside [0, size).
void ValidRange(int64_t size, int64_t out, int64_t stride, int64_t pad, int64_t offset, int64_t* lo,
                int64_t* hi) {
  WindowCellsIn(offset - pad, stride, out, 0, size, lo, hi);
}

// For each output row and each kernel cell inside the input, calls row(oh, input_row, kw, lo, hi,
// iw0) with outputs [lo, hi) of that row reading input columns ow * stride_w + iw0.
template <typename F>
void ForEachWindowRow(const Window2d& w, F row) {
  // Kernel columns that reach the input for some output column (the others read only padding).
  int64_t kw_lo, kw_hi;
  WindowCellsIn(-w.pad_left, w.dilation_w, w.kernel_w, -(w.out_w - 1) * w.stride_w, w.in_w, &kw_lo,
                &kw_hi);
  for (int64_t oh = 0; oh < w.out_h; ++oh) {
    int64_t kh_lo, kh_hi;
    WindowCellsIn(oh * w.stride_h - w.pad_top, w.dilation_h, w.kernel_h, 0, w.in_h, &kh_lo, &kh_hi);
    for (int64_t kh = kh_lo; kh < kh_hi; ++kh) {
      const int64_t ih = oh * w.stride_h - w.pad_top + kh * w.dilation_h;
      for (int64_t kw = kw_lo; kw < kw_hi; ++kw) {
        int64_t lo, hi;
        const int64_t offset = kw * w.dilation_w;
        ValidRange(w.in_w, w.out_w, w.stride_w, w.pad_left, offset, &lo, &hi);
        row(oh, ih, kh, kw, lo, hi, offset - w.pad_left);
      }
    }
  }
}

// Number of window cells along one axis for output o: inside [0, size) or, with padding counted,
// inside [-pad_begin, size + pad_end).
int64_t CellsInside(int64_t o, int64_t stride, int64_t pad_begin, int64_t kernel, int64_t dilation,
                    int64_t lo_bound, int64_t hi_bound) {
  int64_t k_lo, k_hi;
  WindowCellsIn(o * stride - pad_begin, dilation, kernel, lo_bound, hi_bound, &k_lo, &k_hi);
  return k_hi - k_lo;
}

}  // namespace

namespace {

// One output row of a depthwise convolution for the kernel rows that fall inside the input: each
// input row adds its KW taps to the output row in one pass. Columns whose taps are all inside the
// input (the interior) run without bounds checks, with KW and the column stride S known at compile
// time so the loop vectorizes; 0 means "given at run time".
template <int KW_, int S_>
void DepthwiseRow(const float* x, const float* w, const Window2d& win, int64_t oh, float* out) {
  const int64_t KW = KW_ ? KW_ : win.kernel_w, S = S_ ? S_ : win.stride_w, dw = win.dilation_w;
  const int64_t W = win.in_w, OW = win.out_w;
  // Interior: the first tap (offset -pad_left) and the last (offset (KW-1)*dw - pad_left) inside.
  int64_t lo, hi, unused;
  ValidRange(W, OW, S, win.pad_left, 0, &lo, &unused);
  ValidRange(W, OW, S, win.pad_left, (KW - 1) * dw, &unused, &hi);
  if (hi < lo) hi = lo;
  for (int64_t kh = 0; kh < win.kernel_h; ++kh) {
    const int64_t ih = oh * win.stride_h - win.pad_top + kh * win.dilation_h;
    if (ih < 0 || ih >= win.in_h) continue;
    const float* in = x + ih * W - win.pad_left;
    const float* wk = w + kh * KW;
    for (int64_t o = lo; o < hi; ++o) {
      const float* p = in + o * S;
      float acc = 0;
      for (int64_t k = 0; k < KW; ++k) acc += wk[k] * p[k * dw];
      out[o] += acc;
    }
    // Edge columns: taps outside the input read zero padding.
    auto edge = [&](int64_t o) {
      float acc = 0;
      for (int64_t k = 0; k < KW; ++k) {
        const int64_t iw = o * S - win.pad_left + k * dw;
        if (iw >= 0 && iw < W) acc += wk[k] * x[ih * W + iw];
      }
      out[o] += acc;
    };
    for (int64_t o = 0; o < lo; ++o) edge(o);
    for (int64_t o = hi; o < OW; ++o) edge(o);
  }
}

#if defined(__AVX2__)
// Outputs [o, o + lanes) of an interior row at stride 2 without dilation, summed in the scalar
// loop's order (bias, then the taps row by row). Reads rows[kh][2o .. 2o + 2 * lanes + K - 2],
// inside the row when o + lanes < hi (the last interior output reads up to 2(hi - 1) + K - 1).
template <int K>
void Stride2Outputs(const float* const* rows, const float* w, float bias, int64_t o, float* out) {
  StrideVector acc = StrideSet1(bias);
  for (int kh = 0; kh < K; ++kh) {
    const float* p = rows[kh] + 2 * o;
    for (int k = 0; k < K; k += 2) {
      StrideVector even, odd;
      EvenOdd(p + k, &even, &odd);
      acc = StrideFma(StrideSet1(w[kh * K + k]), even, acc);
      if (k + 1 < K) acc = StrideFma(StrideSet1(w[kh * K + k + 1]), odd, acc);
    }
  }
  StrideStore(out + o, acc);
}

#if defined(__AVX512F__)
// The same for the last n (1..16) outputs [o, o + n) of the interior, [o, hi): the loads masked to
// what those outputs read, rows[kh][2o .. 2(o + n - 1) + K - 1], so nothing past the row is
// touched (a row of 28 outputs is one whole vector and 12 of these, not 12 scalar outputs).
template <int K>
void Stride2OutputsMasked(const float* const* rows, const float* w, float bias, int64_t o,
                          int64_t n, float* out) {
  __m512 acc = _mm512_set1_ps(bias);
  for (int kh = 0; kh < K; ++kh) {
    const float* p = rows[kh] + 2 * o;
    for (int k = 0; k < K; k += 2) {
      // Floats j of p + k with j <= 2 (n - 1) + K - 1 - k are read.
      __m512 even, odd;
      EvenOddMasked(p + k, 2 * (n - 1) + K - k, &even, &odd);
      acc = _mm512_fmadd_ps(_mm512_set1_ps(w[kh * K + k]), even, acc);
      if (k + 1 < K) acc = _mm512_fmadd_ps(_mm512_set1_ps(w[kh * K + k + 1]), odd, acc);
    }
  }
  _mm512_mask_storeu_ps(out + o, FirstLanes16(n), acc);
}
#endif
#endif

// An output row whose K kernel rows all fall inside the input (K = KW_ = kernel_h, compile-time):
// all K x K taps are summed in one pass and the row is written once.
template <int K, int S>
void DepthwiseInnerRow(const float* x, const float* w, float bias, const Window2d& win, int64_t oh,
                       float* out) {
  const int64_t dw = win.dilation_w, W = win.in_w, OW = win.out_w;
  int64_t lo, hi, unused;
  ValidRange(W, OW, S, win.pad_left, 0, &lo, &unused);
  ValidRange(W, OW, S, win.pad_left, (K - 1) * dw, &unused, &hi);
  if (hi < lo) hi = lo;
  const float* rows[K];
  for (int kh = 0; kh < K; ++kh)
    rows[kh] = x + (oh * win.stride_h - win.pad_top + kh * win.dilation_h) * W - win.pad_left;
  int64_t o = lo;
#if defined(__AVX2__)
  if (S == 2 && dw == 1) {
    for (; o + kStrideLanes < hi; o += kStrideLanes) Stride2Outputs<K>(rows, w, bias, o, out);
#if defined(__AVX512F__)
    if (o < hi) {
      Stride2OutputsMasked<K>(rows, w, bias, o, hi - o, out);
      o = hi;
    }
#endif
  }
#endif
  for (; o < hi; ++o) {
    float acc = bias;
    for (int kh = 0; kh < K; ++kh) {
      for (int k = 0; k < K; ++k) acc += w[kh * K + k] * rows[kh][o * S + k * dw];
    }
    out[o] = acc;
  }
  auto edge = [&](int64_t o) {
    float acc = bias;
    for (int kh = 0; kh < K; ++kh) {
      for (int k = 0; k < K; ++k) {
        const int64_t iw = o * S - win.pad_left + k * dw;
        if (iw >= 0 && iw < W) acc += w[kh * K + k] * rows[kh][o * S + k * dw];
      }
    }
    out[o] = acc;
  };
  for (int64_t o = 0; o < lo; ++o) edge(o);
  for (int64_t o = hi; o < OW; ++o) edge(o);
}

template <int KW, int S>
void DepthwisePlane(const float* x, const float* w, float bias, const Window2d& win, float* y) {
  for (int64_t oh = 0; oh < win.out_h; ++oh) {
    float* out = y + oh * win.out_w;
    if constexpr (KW != 0) {
      const int64_t top = oh * win.stride_h - win.pad_top;
      if (win.kernel_h == KW && top >= 0 && top + (KW - 1) * win.dilation_h < win.in_h) {
        DepthwiseInnerRow<KW, S>(x, w, bias, win, oh, out);
        continue;
      }
    }
    for (int64_t o = 0; o < win.out_w; ++o) out[o] = bias;
    DepthwiseRow<KW, S>(x, w, win, oh, out);
  }
}

// Stride 1, no dilation, "same" padding (p = (K-1)/2 on every side): output and input planes have
// the same width, so tap (kh, kw) of output element i reads input element i + (kh-p)*W + (kw-p) for
// every row whose window is inside the input. Those rows run as one flat loop, long even when the
// plane is small; the first and last p columns of each such row wrap into the neighbouring rows
// there and are computed again with bounds checks, as are the first and last p rows.
template <int K>
bool DepthwiseSamePlane(const float* x, const float* w, float bias, const Window2d& win, float* y) {
  constexpr int64_t p = (K - 1) / 2;
  const int64_t H = win.in_h, W = win.in_w;
  if (win.kernel_h != K || win.kernel_w != K || win.stride_h != 1 || win.stride_w != 1 ||
      win.dilation_h != 1 || win.dilation_w != 1 || win.pad_top != p || win.pad_left != p ||
      win.pad_bottom != p || win.pad_right != p || H <= 2 * p || W <= 2 * p) {
    return false;
  }
  int64_t offsets[K * K];
  for (int64_t kh = 0; kh < K; ++kh) {
    for (int64_t kw = 0; kw < K; ++kw) offsets[kh * K + kw] = (kh - p) * W + (kw - p);
  }
  for (int64_t i = p * W + p, end = (H - p) * W - p; i < end; ++i) {
    float acc = bias;
    for (int t = 0; t < K * K; ++t) acc += w[t] * x[i + offsets[t]];
    y[i] = acc;
  }
  auto checked = [&](int64_t oh, int64_t ow) {
    float acc = bias;
    for (int64_t kh = 0; kh < K; ++kh) {
      const int64_t ih = oh - p + kh;
      if (ih < 0 || ih >= H) continue;
      for (int64_t kw = 0; kw < K; ++kw) {
        const int64_t iw = ow - p + kw;
        if (iw >= 0 && iw < W) acc += w[kh * K + kw] * x[ih * W + iw];
      }
    }
    y[oh * W + ow] = acc;
  };
  for (int64_t oh = 0; oh < H; ++oh) {
    const bool edge_row = oh < p || oh >= H - p;
    for (int64_t ow = 0; ow < W; ++ow) {
      if (edge_row || ow < p || ow >= W - p)
        checked(oh, ow);
      else if (ow == p)
        ow = W - p - 1;  // skip the interior, done above
    }
  }
  return true;
}

// Depthwise K x K convolution at stride S (no dilation) over small or strided planes, where the
// other paths spend most of their time on edge columns with bounds checks or on strided loads.
// The input is first split, zero padding included, into S x S polyphase planes: plane (a, b) holds
// padded input row S * i + a, column S * j + b at (i, j), in rows of Ws = OW + (K - 1) / S. Tap
// (kh, kw) of output (oh, ow) is then element (oh + kh / S, ow + kw / S) of plane (kh % S, kw % S),
// so all taps of the output plane, laid out in rows of Ws too, are one flat, contiguous loop per
// tap offset: no edges, no strides. Outputs in the Ws - OW extra columns of each row are computed
// and dropped. The sum runs in the same order as the other paths (bias, then the taps row by row).
// GCC would turn the row copies (7 to 31 floats) into a memmove call each: 960 channels of 7x7 took
// 0.13 ms with the calls, 0.08 without. (Clang, which builds the fuzzers, has no such attribute.)
#if defined(__clang__)
#define ONNX_OPT_NO_LIBC_CALLS_FOR_LOOPS
#else
#define ONNX_OPT_NO_LIBC_CALLS_FOR_LOOPS \
  __attribute__((optimize("no-tree-loop-distribute-patterns")))
#endif
template <int K, int S>
ONNX_OPT_NO_LIBC_CALLS_FOR_LOOPS void DepthwisePolyphase(const float* x, const float* w, float bias,
                                                         const Window2d& win, float* y) {
  constexpr int64_t kReach = (K - 1) / S;
  constexpr int64_t kLanes = 16;  // the flat loop is run in whole vectors of the widest ISA
  const int64_t H = win.in_h, W = win.in_w, OH = win.out_h, OW = win.out_w;
  const int64_t Ws = OW + kReach, flat = (OH * Ws + kLanes - 1) / kLanes * kLanes;
  // Rows of each plane: those the kept outputs read, then the flat loop's reach past them.
  const int64_t plane = flat + kReach * Ws + kReach;
  const int64_t Hs = (plane + Ws - 1) / Ws;
  thread_local std::vector<float> scratch;
  scratch.resize(static_cast<size_t>(S * S * Hs * Ws + flat));
  float* const planes = scratch.data();
  // Zeros first (one pass over a few KB), then the input's rows into place: short rows, copied by
  // a loop rather than a call per row.
  std::fill(planes, planes + S * S * Hs * Ws, 0.0f);
  for (int64_t a = 0; a < S; ++a) {
    // Plane rows i in [il, ih) read input row S * i + a - pad_top inside [0, H).
    int64_t il, ih;
    WindowCellsIn(a - win.pad_top, S, Hs, 0, H, &il, &ih);
    for (int64_t b = 0; b < S; ++b) {
      float* p = planes + (a * S + b) * Hs * Ws;
      // Columns j in [jl, jh) read input column S * j + b - pad_left inside [0, W).
      int64_t jl, jh;
      WindowCellsIn(b - win.pad_left, S, Ws, 0, W, &jl, &jh);
      for (int64_t i = il; i < ih; ++i) {
        float* row = p + i * Ws;
        const float* in = x + (S * i + a - win.pad_top) * W + b - win.pad_left;
        for (int64_t j = jl; j < jh; ++j) row[j] = in[S * j];
      }
    }
  }
  const float* src[K * K];
  for (int kh = 0; kh < K; ++kh) {
    for (int kw = 0; kw < K; ++kw) {
      src[kh * K + kw] = planes + ((kh % S) * S + kw % S) * Hs * Ws + (kh / S) * Ws + kw / S;
    }
  }
  float* __restrict out = planes + S * S * Hs * Ws;
  for (int64_t i = 0; i < flat; ++i) {
    float acc = bias;
    for (int t = 0; t < K * K; ++t) acc += w[t] * src[t][i];
    out[i] = acc;
  }
  for (int64_t oh = 0; oh < OH; ++oh) std::copy(out + oh * Ws, out + oh * Ws + OW, y + oh * OW);
}

// Whether DepthwisePolyphase<K, S> takes this window: square K x K, stride S both ways, no
// dilation, and a narrow plane. Measured (conv_matmul_bench, AVX-512): 576 channels of 14x14 at
// stride 1 0.17 -> 0.10 ms, 960 of 7x7 0.12 -> 0.08 ms; wide stride-1 planes are mostly interior,
// which DepthwiseSamePlane does without the copies, and at stride 2 (56x56, 14x14) the polyphase
// copies cost more than the strided loads of DepthwisePlane (0.20 -> 0.21, 0.096 -> 0.11 ms).
template <int K, int S>
bool TakesPolyphase(const Window2d& win) {
  return win.kernel_h == K && win.kernel_w == K && win.stride_h == S && win.stride_w == S &&
         win.dilation_h == 1 && win.dilation_w == 1 && win.out_w < 32;
}

}  // namespace

void DepthwiseConv2dF32(const float* x, const float* w, float bias, const Window2d& win, float* y) {
  if (TakesPolyphase<3, 1>(win)) return DepthwisePolyphase<3, 1>(x, w, bias, win, y);
  if (TakesPolyphase<5, 1>(win)) return DepthwisePolyphase<5, 1>(x, w, bias, win, y);
  if (DepthwiseSamePlane<3>(x, w, bias, win, y) || DepthwiseSamePlane<5>(x, w, bias, win, y))
    return;
  // The other common mobile shapes (3x3 and 5x5, stride 1 or 2, any dilation) get compile-time
  // loops.
  const int64_t kw = win.kernel_w, s = win.stride_w;
  if (kw == 3 && s == 1) return DepthwisePlane<3, 1>(x, w, bias, win, y);
  if (kw == 3 && s == 2) return DepthwisePlane<3, 2>(x, w, bias, win, y);
  if (kw == 5 && s == 1) return DepthwisePlane<5, 1>(x, w, bias, win, y);
  if (kw == 5 && s == 2) return DepthwisePlane<5, 2>(x, w, bias, win, y);
  return DepthwisePlane<0, 0>(x, w, bias, win, y);
}

void GatherStridedF32(const float* src, int64_t stride, int64_t n, float* dst) {
  int64_t i = 0;
#if defined(__AVX2__)
  // Stride 2 in whole vectors (the even floats of 2 * lanes), reading src[2i .. 2i + 2 * lanes -
  // 1]: inside src[0 .. 2(n - 1)] while i + lanes < n.
  if (stride == 2) {
    for (; i + kStrideLanes < n; i += kStrideLanes) {
      StrideVector even, odd;
      EvenOdd(src + 2 * i, &even, &odd);
      StrideStore(dst + i, even);
    }
#if defined(__AVX512F__)
    if (i < n) {
      StrideVector even, odd;
      EvenOddMasked(src + 2 * i, 2 * (n - i) - 1, &even, &odd);
      _mm512_mask_storeu_ps(dst + i, FirstLanes16(n - i), even);
      return;
    }
#endif
  }
#endif
  for (; i < n; ++i) dst[i] = src[i * stride];
}

void GatherStridedU8(const uint8_t* src, int64_t stride, int64_t n, uint8_t* dst) {
  int64_t i = 0;
#if defined(__SSE2__)
  // Stride 2, 16 at a time: the low bytes of 16 pairs, packed. Reads src[2i .. 2i + 31], inside
  // src[0 .. 2(n - 1)] while i + 16 < n. Byte by byte, a quantized CNN's stride 2 layers spent
  // ~10% of its time in their column matrices.
  if (stride == 2) {
    const __m128i low = _mm_set1_epi16(0x00FF);
    for (; i + 16 < n; i += 16) {
      const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + 2 * i));
      const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + 2 * i + 16));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i),
                       _mm_packus_epi16(_mm_and_si128(a, low), _mm_and_si128(b, low)));
    }
  }
#endif
  for (; i < n; ++i) dst[i] = src[i * stride];
}

namespace {

// out[o] = max(in[o * sw], out[o]) for o in [lo, hi), as v > out ? v : out (a NaN in `in` is
// skipped, never stored).
void MaxIntoRow(const float* in, int64_t sw, int64_t lo, int64_t hi, float* out) {
  int64_t o = lo;
#if defined(__AVX2__)
  // Stride 2 (ResNet's 3x3 pool) in whole vectors, as the depthwise rows: max_ps(v, out) is
  // v > out ? v : out, NaNs included. Reads in[2o .. 2o + 2 * lanes - 1], inside the cells
  // the row reads while o + lanes < hi.
  if (sw == 2) {
    for (; o + kStrideLanes < hi; o += kStrideLanes) {
      StrideVector even, odd;
      EvenOdd(in + 2 * o, &even, &odd);
#if defined(__AVX512F__)
      _mm512_storeu_ps(out + o, _mm512_max_ps(even, _mm512_loadu_ps(out + o)));
#else
      _mm256_storeu_ps(out + o, _mm256_max_ps(even, _mm256_loadu_ps(out + o)));
#endif
    }
#if defined(__AVX512F__)
    if (o < hi) {  // the last outputs, in[2o .. 2(hi - 1)]
      StrideVector even, odd;
      EvenOddMasked(in + 2 * o, 2 * (hi - o) - 1, &even, &odd);
      const __mmask16 m = FirstLanes16(hi - o);
      _mm512_mask_storeu_ps(out + o, m, _mm512_max_ps(even, _mm512_maskz_loadu_ps(m, out + o)));
      o = hi;
    }
#endif
  }
#endif
  for (; o < hi; ++o) {
    const float v = in[o * sw];
    out[o] = v > out[o] ? v : out[o];
  }
}

}  // namespace

// Rows first: each output row's window rows are reduced to one row of column maxima, then the row
// to the outputs, KH + KW passes over a row rather than KH x KW (ResNet-50's 3x3/2 pool: 9 passes
// of even/odd splits over each output row). The maximum of the non-NaN cells whatever the order;
// only which of -0 and +0 a window of zeros gives may differ from a cell-by-cell sweep.
void MaxPool2dF32(const float* x, const Window2d& win, float* y) {
  constexpr float kLowest = -__builtin_inff();
  const int64_t W = win.in_w, OW = win.out_w;
  // Kernel columns that reach the input for some output column (the others read only padding).
  int64_t kw_lo, kw_hi;
  WindowCellsIn(-win.pad_left, win.dilation_w, win.kernel_w, -(OW - 1) * win.stride_w, W, &kw_lo,
                &kw_hi);
  thread_local Scratch scratch;
  float* const row = scratch.Array<float>(W);
  for (int64_t oh = 0; oh < win.out_h; ++oh) {
    float* out = y + oh * OW;
    for (int64_t o = 0; o < OW; ++o) out[o] = kLowest;
    int64_t kh_lo, kh_hi;
    WindowCellsIn(oh * win.stride_h - win.pad_top, win.dilation_h, win.kernel_h, 0, win.in_h,
                  &kh_lo, &kh_hi);
    if (kh_lo >= kh_hi) continue;
    for (int64_t i = 0; i < W; ++i) row[i] = kLowest;
    for (int64_t kh = kh_lo; kh < kh_hi; ++kh) {
      const float* in = x + (oh * win.stride_h - win.pad_top + kh * win.dilation_h) * W;
      for (int64_t i = 0; i < W; ++i) row[i] = in[i] > row[i] ? in[i] : row[i];
    }
    for (int64_t kw = kw_lo; kw < kw_hi; ++kw) {
      int64_t lo, hi;
      const int64_t offset = kw * win.dilation_w;
      ValidRange(W, OW, win.stride_w, win.pad_left, offset, &lo, &hi);
      MaxIntoRow(row + offset - win.pad_left, win.stride_w, lo, hi, out);
    }
  }
}

void AveragePool2dF32(const float* x, const Window2d& win, bool count_include_pad, float* y) {
  for (int64_t i = 0; i < win.out_h * win.out_w; ++i) y[i] = 0;
  const int64_t sw = win.stride_w;
  ForEachWindowRow(
      win, [&](int64_t oh, int64_t ih, int64_t, int64_t, int64_t lo, int64_t hi, int64_t iw0) {
        float* out = y + oh * win.out_w;
        const float* in = x + ih * win.in_w + iw0;
        for (int64_t o = lo; o < hi; ++o) out[o] += in[o * sw];
      });
  // The window is a product of its two axes, so is its cell count.
  const int64_t h_lo = count_include_pad ? -win.pad_top : 0,
                h_hi = win.in_h + (count_include_pad ? win.pad_bottom : 0);
  const int64_t w_lo = count_include_pad ? -win.pad_left : 0,
                w_hi = win.in_w + (count_include_pad ? win.pad_right : 0);
  for (int64_t oh = 0; oh < win.out_h; ++oh) {
    const int64_t rows =
        CellsInside(oh, win.stride_h, win.pad_top, win.kernel_h, win.dilation_h, h_lo, h_hi);
    for (int64_t ow = 0; ow < win.out_w; ++ow) {
      const int64_t cols =
          CellsInside(ow, win.stride_w, win.pad_left, win.kernel_w, win.dilation_w, w_lo, w_hi);
      const int64_t count = rows * cols;
      y[oh * win.out_w + ow] =
          count > 0 ? y[oh * win.out_w + ow] / static_cast<float>(count) : 0.0f;
    }
  }
}

}  // namespace onnx_opt::interpreter::ONNX_OPT_SIMD_NS
