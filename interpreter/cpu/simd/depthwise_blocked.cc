// Depthwise convolution of a vector's worth of channels at once (16 with AVX-512, 8 with AVX2).
// The channels' input rows are interleaved into a zero-padded scratch band, pixel by pixel with a
// channel per lane, so that every tap of every output is one vector multiply-add with no edges,
// strides within vectors or shuffles; the outputs are de-interleaved back into the channels'
// planes. A plane at a time (conv.cc) spends its time on edges, strided loads and per-plane costs
// on the small planes of mobile CNNs: MobileNetV2's 14x14 and 7x7 layers ran at 5-17% of peak.
// onnxruntime keeps such a channel-blocked layout (NCHWc) between its convolutions; here it lives
// only inside the call, so the transposes are paid on the way in and out.
//
// Each output sums the bias and then its taps row by row, as conv.cc's paths do; padded taps
// multiply zeros.
//
// The input may instead be a 1x1 convolution's output (an inverted residual block's expansion,
// PointwiseSource), computed for the band straight into its interleaved place: no transposes on
// the way in, and the expansion (MobileNetV2's largest tensors, 4.8 MB at 112x112) never goes to
// memory whole. The rows a band shares with the next (kernel_h - stride of them) are computed for
// both.
#include <algorithm>

#include "interpreter/cpu/scratch.h"
#include "interpreter/cpu/simd/simd.h"

#if defined(__AVX2__)
#include "interpreter/cpu/simd/epilogue.h"
#include "interpreter/cpu/simd/intrinsics.h"
#endif

namespace onnx_opt::interpreter::ONNX_OPT_SIMD_NS {

#if defined(__AVX2__)
namespace {

#if defined(__AVX512F__)
using V = __m512;
constexpr int64_t L = kDepthwiseBlockChannels;
inline V Load(const float* p) { return _mm512_loadu_ps(p); }
inline void Store(float* p, V v) { _mm512_storeu_ps(p, v); }
inline V Zero() { return _mm512_setzero_ps(); }
inline V Set1(float v) { return _mm512_set1_ps(v); }
inline V Add(V a, V b) { return _mm512_add_ps(a, b); }
inline V Fma(V a, V b, V c) { return _mm512_fmadd_ps(a, b, c); }
// Lanes [0, n) of p (n < L), zeros after; and the store of those lanes.
inline V LoadFirst(const float* p, int64_t n) { return _mm512_maskz_loadu_ps(FirstLanes16(n), p); }
inline void StoreFirst(float* p, V v, int64_t n) { _mm512_mask_storeu_ps(p, FirstLanes16(n), v); }

// r[i] becomes column i of the 16 x 16 matrix whose rows were r[0..15].
inline void Transpose(V* r) {
  V t[16];
  for (int i = 0; i < 16; i += 2) {
    t[i] = _mm512_unpacklo_ps(r[i], r[i + 1]);
    t[i + 1] = _mm512_unpackhi_ps(r[i], r[i + 1]);
  }
  // Within each 128-bit lane j, s[4g + k] holds column 4j + k of rows 4g .. 4g + 3.
  V s[16];
  for (int g = 0; g < 16; g += 4) {
    auto pd = [](V v) { return _mm512_castps_pd(v); };
    s[g] = _mm512_castpd_ps(_mm512_unpacklo_pd(pd(t[g]), pd(t[g + 2])));
    s[g + 1] = _mm512_castpd_ps(_mm512_unpackhi_pd(pd(t[g]), pd(t[g + 2])));
    s[g + 2] = _mm512_castpd_ps(_mm512_unpacklo_pd(pd(t[g + 1]), pd(t[g + 3])));
    s[g + 3] = _mm512_castpd_ps(_mm512_unpackhi_pd(pd(t[g + 1]), pd(t[g + 3])));
  }
  // A 4 x 4 transpose of 128-bit lanes among s[k], s[4 + k], s[8 + k], s[12 + k].
  for (int k = 0; k < 4; ++k) {
    const V u0 = _mm512_shuffle_f32x4(s[k], s[4 + k], 0x44);
    const V u1 = _mm512_shuffle_f32x4(s[k], s[4 + k], 0xEE);
    const V u2 = _mm512_shuffle_f32x4(s[8 + k], s[12 + k], 0x44);
    const V u3 = _mm512_shuffle_f32x4(s[8 + k], s[12 + k], 0xEE);
    r[k] = _mm512_shuffle_f32x4(u0, u2, 0x88);
    r[4 + k] = _mm512_shuffle_f32x4(u0, u2, 0xDD);
    r[8 + k] = _mm512_shuffle_f32x4(u1, u3, 0x88);
    r[12 + k] = _mm512_shuffle_f32x4(u1, u3, 0xDD);
  }
}
#else
using V = __m256;
constexpr int64_t L = kDepthwiseBlockChannels;
inline V Load(const float* p) { return _mm256_loadu_ps(p); }
inline void Store(float* p, V v) { _mm256_storeu_ps(p, v); }
inline V Zero() { return _mm256_setzero_ps(); }
inline V Set1(float v) { return _mm256_set1_ps(v); }
inline V Add(V a, V b) { return _mm256_add_ps(a, b); }
inline V Fma(V a, V b, V c) { return _mm256_fmadd_ps(a, b, c); }
inline V LoadFirst(const float* p, int64_t n) { return _mm256_maskload_ps(p, FirstLanes8(n)); }
inline void StoreFirst(float* p, V v, int64_t n) { _mm256_maskstore_ps(p, FirstLanes8(n), v); }

// r[i] becomes column i of the 8 x 8 matrix whose rows were r[0..7].
inline void Transpose(V* r) {
  V t[8], s[8];
  for (int i = 0; i < 8; i += 2) {
    t[i] = _mm256_unpacklo_ps(r[i], r[i + 1]);
    t[i + 1] = _mm256_unpackhi_ps(r[i], r[i + 1]);
  }
  auto pd = [](V v) { return _mm256_castps_pd(v); };
  for (int g = 0; g < 8; g += 4) {
    s[g] = _mm256_castpd_ps(_mm256_unpacklo_pd(pd(t[g]), pd(t[g + 2])));
    s[g + 1] = _mm256_castpd_ps(_mm256_unpackhi_pd(pd(t[g]), pd(t[g + 2])));
    s[g + 2] = _mm256_castpd_ps(_mm256_unpacklo_pd(pd(t[g + 1]), pd(t[g + 3])));
    s[g + 3] = _mm256_castpd_ps(_mm256_unpackhi_pd(pd(t[g + 1]), pd(t[g + 3])));
  }
  for (int k = 0; k < 4; ++k) {
    r[k] = _mm256_permute2f128_ps(s[k], s[4 + k], 0x20);
    r[4 + k] = _mm256_permute2f128_ps(s[k], s[4 + k], 0x31);
  }
}
#endif

// Pixels [0, n) of `channels` (<= L) rows `stride` floats apart at src, interleaved: pixel q's
// lanes (its channels; zeros past `channels`) are stored at dst + (q + q / width * gap) * L, that
// is, the pixels in rows of `width` with `gap` pixels skipped after each row. The last pixels
// (fewer than L) are read under masks, past the end of each channel's row (through a copy, 16
// calls of memcpy per block cost MobileNetV2's 7x7 layers a third of their time).
ONNX_OPT_MASKED_LOADS_PAST_BUFFERS void Interleave(const float* src, int64_t stride,
                                                   int64_t channels, int64_t n, int64_t width,
                                                   int64_t gap, float* dst) {
  V r[L];
  float* d = dst;
  int64_t left_in_row = width;
  auto put = [&](V v) {
    Store(d, v);
    d += L;
    if (--left_in_row == 0) {
      d += gap * L;
      left_in_row = width;
    }
  };
  int64_t i = 0;
  for (; i + L <= n; i += L) {
    if (channels == L) {
#pragma GCC unroll 16
      for (int64_t c = 0; c < L; ++c) r[c] = Load(src + c * stride + i);
    } else {
#pragma GCC unroll 16
      for (int64_t c = 0; c < L; ++c) r[c] = c < channels ? Load(src + c * stride + i) : Zero();
    }
    Transpose(r);
#pragma GCC unroll 16
    for (int64_t p = 0; p < L; ++p) put(r[p]);
  }
  if (i < n) {
    const int64_t m = n - i;
    for (int64_t c = 0; c < L; ++c)
      r[c] = c < channels ? LoadFirst(src + c * stride + i, m) : Zero();
    Transpose(r);
    for (int64_t p = 0; p < m; ++p) put(r[p]);
  }
}

// A channel's value per lane (zeros past `channels`; all zeros without values).
V Lanes(const float* values, int64_t channels) {
  float v[L] = {};
  if (values != nullptr) std::copy(values, values + channels, v);
  return Load(v);
}

// The rest of a RowEpilogue after the bias, per lane (channel): what the GEMM's and this kernel's
// stores apply.
struct LaneFinish {
  const RowEpilogue& e;
  bool scaled;
  V scale, shift;
  LaneFinish(const RowEpilogue& re, int64_t channels)
      : e(re),
        scaled(re.scale != nullptr),
        scale(Lanes(re.scale, channels)),
        shift(Lanes(re.shift, channels)) {}
  // For e's activation, A.
  template <Activation A>
  V As(V v) const {
    return FinishAs<A>(v, scaled, scale, shift, e);
  }
};

// Interleave's work for the output of the 1x1 convolution `s` instead of a copy: pixels
// [first, first + n) of its `channels` (<= L) output channels (its input planes in_plane floats
// apart), each a vector of lanes, at dst + (q + q / width * gap) * L for q = pixel - first. Each
// lane sums its taps in k order from zero, then adds the bias and finishes as the GEMM of the
// separate convolution does, so the values are the ones that convolution would have stored.
// `wt` is scratch for the channels' weights by lane (channels_in vectors).
template <Activation A>
void Pointwise(const PointwiseSource& s, int64_t in_plane, int64_t channels, int64_t first,
               int64_t n, int64_t width, int64_t gap, float* wt, float* dst) {
  const int64_t K = s.channels_in;
  Interleave(s.weights, K, channels, K, K, 0, wt);
  const V bias = Lanes(s.e.bias, channels);
  const LaneFinish finish(s.e, channels);
  const bool biased = s.e.bias != nullptr;
  float* d = dst;
  int64_t left_in_row = width;
  auto put = [&](V v) {
    Store(d, finish.As<A>(biased ? Add(v, bias) : v));
    d += L;
    if (--left_in_row == 0) {
      d += gap * L;
      left_in_row = width;
    }
  };
  const float* x = s.x + first;
  // Pixels in groups, a sum each in flight (FMA latency over its issue interval), each tap's
  // weights loaded once for the group.
  constexpr int64_t kGroup = 8;
  int64_t i = 0;
  for (; i + kGroup <= n; i += kGroup) {
    V acc[kGroup];
    for (int64_t r = 0; r < kGroup; ++r) acc[r] = Zero();
    for (int64_t k = 0; k < K; ++k) {
      const V wk = Load(wt + k * L);
      const float* xk = x + k * in_plane + i;
      for (int64_t r = 0; r < kGroup; ++r) acc[r] = Fma(wk, Set1(xk[r]), acc[r]);
    }
    for (int64_t r = 0; r < kGroup; ++r) put(acc[r]);
  }
  for (; i < n; ++i) {
    V acc = Zero();
    for (int64_t k = 0; k < K; ++k) acc = Fma(Load(wt + k * L), Set1(x[k * in_plane + i]), acc);
    put(acc);
  }
}

// The inverse: pixel q of src (L floats each) into dst[c * stride + q] for c < channels (the last
// pixels under masks).
ONNX_OPT_MASKED_LOADS_PAST_BUFFERS void Deinterleave(const float* src, int64_t channels, int64_t n,
                                                     float* dst, int64_t stride) {
  V r[L];
  int64_t i = 0;
  for (; i + L <= n; i += L) {
#pragma GCC unroll 16
    for (int64_t p = 0; p < L; ++p) r[p] = Load(src + (i + p) * L);
    Transpose(r);
    if (channels == L) {
#pragma GCC unroll 16
      for (int64_t c = 0; c < L; ++c) Store(dst + c * stride + i, r[c]);
    } else {
      for (int64_t c = 0; c < channels; ++c) Store(dst + c * stride + i, r[c]);
    }
  }
  if (i < n) {
    const int64_t m = n - i;
    for (int64_t p = 0; p < L; ++p) r[p] = p < m ? Load(src + (i + p) * L) : Zero();
    Transpose(r);
    for (int64_t c = 0; c < channels; ++c) StoreFirst(dst + c * stride + i, r[c], m);
  }
}

// Output rows [oh0, oh1) from the band `in` (rows of Wp pixels, P apart; row 0 is input row row0,
// column 0 input column -pad_left) into `out` (rows of OW pixels), each finished by `finish` as it
// is stored (a pass of its own over the outputs cost the 3x3 layers ~5%). With KH_, KW_ and S_
// given (no dilation) every tap's offset from its kernel row is a constant and the weights stay in
// registers; otherwise all comes from `win` (0).
template <int KH_, int KW_, int S_, Activation A>
void ComputeRows(const float* in, int64_t P, int64_t row0, const V* weights, V bias,
                 const LaneFinish& finish, const Window2d& win, int64_t oh0, int64_t oh1,
                 float* out) {
  constexpr bool kFixed = KH_ > 0;
  const int64_t KH = kFixed ? KH_ : win.kernel_h, KW = kFixed ? KW_ : win.kernel_w;
  const int64_t sw = kFixed ? S_ : win.stride_w;
  const int64_t dh = kFixed ? 1 : win.dilation_h, dw = kFixed ? 1 : win.dilation_w;
  const int64_t OW = win.out_w, row_floats = P * L;
  // Locals, so that the stores to `out` cannot be taken to change them.
  V wv[kFixed ? KH_ * KW_ : 1];
  if constexpr (kFixed) {
    for (int t = 0; t < KH_ * KW_; ++t) wv[t] = weights[t];
  }
  auto weight = [&](int64_t t) { return kFixed ? wv[t] : weights[t]; };
  constexpr int64_t kGroup = 4;  // outputs in flight: FMA latency over its issue interval
  for (int64_t oh = oh0; oh < oh1; ++oh) {
    const float* base = in + (oh * win.stride_h - win.pad_top - row0) * row_floats;
    float* o = out + (oh - oh0) * OW * L;
    int64_t ow = 0;
    for (; ow + kGroup <= OW; ow += kGroup) {
      V acc[kGroup];
      for (int64_t q = 0; q < kGroup; ++q) acc[q] = bias;
      for (int64_t kh = 0; kh < KH; ++kh) {
        const float* p = base + kh * dh * row_floats + ow * sw * L;
        for (int64_t kw = 0; kw < KW; ++kw) {
          const V wt = weight(kh * KW + kw);
          for (int64_t q = 0; q < kGroup; ++q)
            acc[q] = Fma(wt, Load(p + (q * sw + kw * dw) * L), acc[q]);
        }
      }
      for (int64_t q = 0; q < kGroup; ++q) Store(o + (ow + q) * L, finish.As<A>(acc[q]));
    }
    for (; ow < OW; ++ow) {
      V acc = bias;
      for (int64_t kh = 0; kh < KH; ++kh) {
        const float* p = base + kh * dh * row_floats + ow * sw * L;
        for (int64_t kw = 0; kw < KW; ++kw)
          acc = Fma(weight(kh * KW + kw), Load(p + kw * dw * L), acc);
      }
      Store(o + ow * L, finish.As<A>(acc));
    }
  }
}

}  // namespace

void DepthwiseConv2dBlockF32(const float* x, int64_t in_plane, const float* w, const RowEpilogue& e,
                             int64_t channels, const Window2d& win, int64_t oh0, int64_t oh1,
                             float* y, int64_t out_plane, const PointwiseSource* source) {
  const int64_t H = win.in_h, W = win.in_w, OW = win.out_w;
  const int64_t KH = win.kernel_h, KW = win.kernel_w, K = KH * KW;
  // The band: input rows row0 .. row0 + Hb - 1, columns -pad_left .. Wp - 1 - pad_left.
  const int64_t row0 = oh0 * win.stride_h - win.pad_top;
  const int64_t Hb = (oh1 - 1 - oh0) * win.stride_h + (KH - 1) * win.dilation_h + 1;
  const int64_t Wp = (OW - 1) * win.stride_w + (KW - 1) * win.dilation_w + 1;
  // Rows of P >= Wp pixels, so that whole input rows fit (their columns past Wp are read by no
  // output): `left` padded columns, W input columns, padding up to P.
  const int64_t left = std::min(win.pad_left, Wp);
  const int64_t P = std::max(Wp, left + W);
  const int64_t band = Hb * P * L, outs = (oh1 - oh0) * OW * L;
  thread_local Scratch scratch;
  const int64_t source_weights = source != nullptr ? source->channels_in * L : 0;
  float* const in = scratch.Array<float>(band + outs + K * L + source_weights);
  float* const out = in + band;
  V* const wv = reinterpret_cast<V*>(out + outs);  // aligned: band and outs are whole vectors
  // Weights by lane (each channel's K weights are a row of K "pixels"), bias by lane.
  Interleave(w, K, channels, K, K, 0, reinterpret_cast<float*>(wv));
  const V bv = Lanes(e.bias, channels);
  // The band's input rows inside the plane (contiguous in each plane: one flat run) interleaved
  // into place, or computed there from the 1x1 convolution's input; zeros around them.
  const int64_t ih_lo = std::max<int64_t>(row0, 0), ih_hi = std::min(row0 + Hb, H);
  if (ih_hi > ih_lo) {
    float* const dst = in + ((ih_lo - row0) * P + left) * L;
    if (source != nullptr) {
      WithActivation(source->e.activation, [&](auto a) {
        Pointwise<decltype(a)::value>(*source, in_plane, channels, ih_lo * W, (ih_hi - ih_lo) * W,
                                      W, P - W, reinterpret_cast<float*>(wv + K), dst);
      });
    } else {
      Interleave(x + ih_lo * W, in_plane, channels, (ih_hi - ih_lo) * W, W, P - W, dst);
    }
  }
  auto zero = [](float* from, int64_t pixels) {
    for (int64_t q = 0; q < pixels; ++q) Store(from + q * L, Zero());
  };
  for (int64_t r = 0; r < Hb; ++r) {
    float* row = in + r * P * L;
    if (row0 + r < ih_lo || row0 + r >= ih_hi) {
      zero(row, Wp);
    } else {
      zero(row, left);
      zero(row + (left + W) * L, P - left - W);
    }
  }
  const LaneFinish finish(e, channels);
  const bool plain = win.dilation_h == 1 && win.dilation_w == 1 && win.stride_h == win.stride_w;
  const int64_t S = win.stride_w;
  WithActivation(e.activation, [&](auto a) {
    constexpr Activation A = decltype(a)::value;
    if (plain && KH == 3 && KW == 3 && S == 1) {
      ComputeRows<3, 3, 1, A>(in, P, row0, wv, bv, finish, win, oh0, oh1, out);
    } else if (plain && KH == 3 && KW == 3 && S == 2) {
      ComputeRows<3, 3, 2, A>(in, P, row0, wv, bv, finish, win, oh0, oh1, out);
    } else if (plain && KH == 5 && KW == 5 && S == 1) {
      ComputeRows<5, 5, 1, A>(in, P, row0, wv, bv, finish, win, oh0, oh1, out);
    } else if (plain && KH == 5 && KW == 5 && S == 2) {
      ComputeRows<5, 5, 2, A>(in, P, row0, wv, bv, finish, win, oh0, oh1, out);
    } else {
      ComputeRows<0, 0, 0, A>(in, P, row0, wv, bv, finish, win, oh0, oh1, out);
    }
  });
  Deinterleave(out, channels, (oh1 - oh0) * OW, y + oh0 * OW, out_plane);
}

#endif  // __AVX2__

}  // namespace onnx_opt::interpreter::ONNX_OPT_SIMD_NS
