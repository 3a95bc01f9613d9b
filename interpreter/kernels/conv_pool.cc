// Convolution and pooling: Conv, ConvTranspose, ConvInteger (im2col / col2im + Eigen GEMM),
// MaxPool, AveragePool, LpPool, the Global* pools and MaxUnpool. All spatial ranks (1-D, 2-D, 3-D,
// ...).
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <type_traits>

#include "interpreter/cpu/scratch.h"
#include "interpreter/cpu/thread_pool.h"
#include "interpreter/cpu/vector_kernels.h"
#include "interpreter/cpu/window_cells.h"
#include "interpreter/kernels/common.h"
#include "interpreter/kernels/gemm.h"

namespace onnx_opt::interpreter {
namespace {

using absl::OkStatus;
using absl::Status;
using absl::StatusOr;

struct Geometry {
  int64_t nd = 0;
  std::vector<int64_t> in, out, k, s, d, pb, pe;
  int64_t in_size() const { return NumElements(in); }
  int64_t out_size() const { return NumElements(out); }
  int64_t k_size() const { return NumElements(k); }
};

// The window attributes as the loops index them: a kernel size, stride and dilation per spatial
// axis, all positive, and a begin and an end pad per axis, none negative (hostile values must not
// make a kernel read outside its input).
Status CheckWindow(const KernelContext& ctx, size_t nd, const std::vector<int64_t>& k,
                   const std::vector<int64_t>& s, const std::vector<int64_t>& d,
                   const std::vector<int64_t>& pads) {
  if (k.size() != nd || s.size() != nd || d.size() != nd || pads.size() != 2 * nd) {
    return ctx.Error("kernel_shape, strides, dilations or pads do not match the spatial rank");
  }
  for (size_t i = 0; i < nd; ++i) {
    if (k[i] < 1 || s[i] < 1 || d[i] < 1)
      return ctx.Error("kernel_shape, strides and dilations must be positive");
  }
  for (int64_t p : pads) {
    if (p < 0) return ctx.Error("pads must not be negative");
  }
  return OkStatus();
}

// The window along one axis (positive k, s, d; pads not negative): the dilated kernel (k - 1) * d +
// 1, the stride and the padded length below 2^62, so that no size or coordinate the loops compute
// overflows int64 (strides, dilations or pads near 2^63 did).
Status CheckWindowExtent(const KernelContext& ctx, int64_t in, int64_t k, int64_t s, int64_t d,
                         int64_t pb, int64_t pe) {
  constexpr __int128 kLimit = __int128{1} << 62;
  const __int128 ek = static_cast<__int128>(k - 1) * d + 1;
  if (ek >= kLimit || s >= kLimit || static_cast<__int128>(in) + pb + pe >= kLimit) {
    return ctx.Error("kernel_shape, strides, dilations or pads are too large");
  }
  return OkStatus();
}

StatusOr<Geometry> MakeGeometry(const KernelContext& ctx, const std::vector<int64_t>& in,
                                std::vector<int64_t> kernel, bool ceil_mode) {
  Geometry g;
  g.nd = static_cast<int64_t>(in.size());
  if (g.nd == 0) return ctx.Error("needs at least one spatial dimension");
  g.in = in;
  g.k = std::move(kernel);
  g.s = ctx.GetInts("strides", std::vector<int64_t>(g.nd, 1));
  g.d = ctx.GetInts("dilations", std::vector<int64_t>(g.nd, 1));
  std::vector<int64_t> pads = ctx.GetInts("pads", std::vector<int64_t>(2 * g.nd, 0));
  RETURN_IF_ERROR(CheckWindow(ctx, in.size(), g.k, g.s, g.d, pads));
  const std::string auto_pad = ctx.GetString("auto_pad", "NOTSET");
  g.pb.assign(pads.begin(), pads.begin() + g.nd);
  g.pe.assign(pads.begin() + g.nd, pads.end());
  g.out.resize(g.nd);
  for (int64_t i = 0; i < g.nd; ++i) {
    // Huge kernel_shape, dilations, strides or pads must not overflow the sizes below.
    RETURN_IF_ERROR(CheckWindowExtent(ctx, in[i], g.k[i], g.s[i], g.d[i], g.pb[i], g.pe[i]));
    const int64_t ek = (g.k[i] - 1) * g.d[i] + 1;
    if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
      g.out[i] = (in[i] + g.s[i] - 1) / g.s[i];
      const int64_t total = std::max<int64_t>(0, (g.out[i] - 1) * g.s[i] + ek - in[i]);
      g.pb[i] = auto_pad == "SAME_UPPER" ? total / 2 : total - total / 2;
      g.pe[i] = total - g.pb[i];
    } else {
      if (auto_pad == "VALID") g.pb[i] = g.pe[i] = 0;
      const int64_t span = in[i] + g.pb[i] + g.pe[i] - ek;
      if (span < 0) return ctx.Error("kernel larger than padded input");
      if (ceil_mode) {
        g.out[i] = (span + g.s[i] - 1) / g.s[i] + 1;
        if ((g.out[i] - 1) * g.s[i] >= in[i] + g.pb[i]) --g.out[i];
      } else {
        g.out[i] = span / g.s[i] + 1;
      }
    }
  }
  return g;
}

// Advances a multi-index; returns false after the last.
bool Next(std::vector<int64_t>& idx, const std::vector<int64_t>& dims) {
  for (int64_t d = static_cast<int64_t>(idx.size()) - 1; d >= 0; --d) {
    if (++idx[d] < dims[d]) return true;
    idx[d] = 0;
  }
  return false;
}

// col[(c*K + kk) * O + o] = x[c, in position of (o, kk)] (`pad` outside).
template <typename T>
void Im2Col(const T* x, int64_t channels, const Geometry& g, T* col, T pad = T(0)) {
  const int64_t K = g.k_size(), O = g.out_size(), I = g.in_size();
  const std::vector<int64_t> in_strides = Strides(g.in);
  std::vector<int64_t> kk(g.nd, 0);
  int64_t kl = 0;
  do {
    // For this kernel offset, the input coordinate along each dim is o*s - pb + k*d.
    std::vector<int64_t> oi(g.nd, 0);
    int64_t ol = 0;
    const int64_t last = g.nd - 1;
    do {
      int64_t off = 0;
      bool inside = true;
      for (int64_t i = 0; i < last; ++i) {
        const int64_t p = oi[i] * g.s[i] - g.pb[i] + kk[i] * g.d[i];
        if (p < 0 || p >= g.in[i]) {
          inside = false;
          break;
        }
        off += p * in_strides[i];
      }
      // innermost dim as a run
      const int64_t n = g.out[last];
      for (int64_t c = 0; c < channels; ++c) {
        T* dst = col + (c * K + kl) * O + ol;
        const T* src = x + c * I + off;
        for (int64_t j = 0; j < n; ++j) {
          const int64_t p = j * g.s[last] - g.pb[last] + kk[last] * g.d[last];
          dst[j] = (inside && p >= 0 && p < g.in[last]) ? src[p] : pad;
        }
      }
      ol += n;
      oi[last] = n - 1;
    } while (Next(oi, g.out));
    ++kl;
  } while (Next(kk, g.k));
}

// Im2Col for 2-D, for the output positions [o0, o1) of the flattened output plane only (rows of
// o1 - o0 values): each (channel, kernel cell) row is assembled output row by output row from one
// input row, copying the run of columns that falls inside the input and writing `pad` for the rest.
//
// Stride 1 and output rows as wide as the input's ("same" padding, no column dilation) take a
// shortcut: output position o then reads input element o + shift of its channel's plane for a
// shift fixed per kernel cell, so the rows inside the input are one flat copy, after which the few
// columns that wrapped into the neighbouring row are set to `pad`. A row per output row cost a
// copy call per 7 to 56 values: 32 thousand calls for a 14x14 or 7x7 layer of ResNet-50.
template <typename T>
void Im2Col2dRange(const T* x, int64_t channels, const Geometry& g, int64_t o0, int64_t o1, T* col,
                   T pad = T(0)) {
  const int64_t H = g.in[0], W = g.in[1], OH = g.out[0], OW = g.out[1], KH = g.k[0], KW = g.k[1];
  const int64_t sh = g.s[0], sw = g.s[1], width = o1 - o0;
  if (width <= 0) return;
  const bool flat = sh == 1 && sw == 1 && g.d[1] == 1 && OW == W;
  for (int64_t c = 0; c < channels; ++c) {
    for (int64_t kh = 0; kh < KH; ++kh) {
      for (int64_t kw = 0; kw < KW; ++kw) {
        T* dst = col + ((c * KH + kh) * KW + kw) * width;
        const int64_t dx = kw * g.d[1] - g.pb[1];  // input column of output column 0
        // Output columns [lo, hi) read input columns ow * sw + dx inside [0, W).
        int64_t lo = dx >= 0 ? 0 : (-dx + sw - 1) / sw;
        int64_t hi = W - dx <= 0 ? 0 : (W - dx - 1) / sw + 1;
        lo = std::min(lo, OW);
        hi = std::max(lo, std::min(hi, OW));
        if (flat) {
          // Output rows [r_lo, r_hi) read input rows oh + dy inside [0, H); position o reads
          // plane element o + shift, inside the plane for o in [p_lo, p_hi).
          const int64_t dy = kh * g.d[0] - g.pb[0], shift = dy * W + dx;
          const int64_t r_lo = std::clamp<int64_t>(-dy, 0, OH),
                        r_hi = std::clamp<int64_t>(H - dy, r_lo, OH);
          const int64_t f_lo = std::clamp(r_lo * OW, o0, o1),
                        f_hi = std::clamp(r_hi * OW, f_lo, o1);
          const int64_t p_lo = std::clamp(-shift, f_lo, f_hi),
                        p_hi = std::clamp(H * W - shift, p_lo, f_hi);
          const T* plane = x + c * H * W;
          std::fill(dst, dst + (p_lo - o0), pad);  // rows outside the input, then wrapped columns
          std::copy(plane + p_lo + shift, plane + p_hi + shift, dst + (p_lo - o0));
          std::fill(dst + (p_hi - o0), dst + (o1 - o0), pad);
          // Columns outside [lo, hi) of the rows copied read a neighbouring row: padding.
          if (lo > 0 || hi < OW) {
            for (int64_t oh = f_lo / OW; oh * OW < f_hi; ++oh) {
              const int64_t row = oh * OW;
              for (int64_t o = std::max(row, f_lo); o < std::min(row + lo, f_hi); ++o)
                dst[o - o0] = pad;
              for (int64_t o = std::max(row + hi, f_lo); o < std::min(row + OW, f_hi); ++o)
                dst[o - o0] = pad;
            }
          }
          continue;
        }
        for (int64_t oh = o0 / OW; oh * OW < o1; ++oh) {
          // This output row's part of the range: columns [b, e), at dst[oh * OW + b - o0...].
          const int64_t b = std::max<int64_t>(0, o0 - oh * OW), e = std::min(OW, o1 - oh * OW);
          T* out = dst + (oh * OW + b - o0);
          const int64_t ih = oh * sh - g.pb[0] + kh * g.d[0];
          if (ih < 0 || ih >= H) {
            std::fill(out, out + (e - b), pad);
            continue;
          }
          const T* src = x + (c * H + ih) * W + dx;
          const int64_t in_lo = std::clamp(lo, b, e), in_hi = std::clamp(hi, in_lo, e);
          std::fill(out, out + (in_lo - b), pad);
          if (sw == 1) {
            std::copy(src + in_lo, src + in_hi, out + (in_lo - b));
          } else if constexpr (std::is_same_v<T, float>) {
            Vec().gather_strided_f32(src + in_lo * sw, sw, in_hi - in_lo, out + (in_lo - b));
          } else if constexpr (std::is_same_v<T, uint8_t>) {
            Vec().gather_strided_u8(src + in_lo * sw, sw, in_hi - in_lo, out + (in_lo - b));
          } else {
            for (int64_t o = in_lo; o < in_hi; ++o) out[o - b] = src[o * sw];
          }
          std::fill(out + (in_hi - b), out + (e - b), pad);
        }
      }
    }
  }
}

// The inverse scatter-add of Im2Col.
template <typename T>
void Col2Im(const T* col, int64_t channels, const Geometry& g, T* x) {
  const int64_t K = g.k_size(), O = g.out_size(), I = g.in_size();
  const std::vector<int64_t> in_strides = Strides(g.in);
  std::vector<int64_t> kk(g.nd, 0);
  int64_t kl = 0;
  do {
    std::vector<int64_t> oi(g.nd, 0);
    int64_t ol = 0;
    do {
      int64_t off = 0;
      bool inside = true;
      for (int64_t i = 0; i < g.nd; ++i) {
        const int64_t p = oi[i] * g.s[i] - g.pb[i] + kk[i] * g.d[i];
        if (p < 0 || p >= g.in[i]) {
          inside = false;
          break;
        }
        off += p * in_strides[i];
      }
      if (inside) {
        for (int64_t c = 0; c < channels; ++c) x[c * I + off] += col[(c * K + kl) * O + ol];
      }
      ++ol;
    } while (Next(oi, g.out));
    ++kl;
  } while (Next(kk, g.k));
}

// Col2Im for 2-D, for image channels [c0, c1) only: each kernel cell's column row scatter-adds
// into the image an input row at a time, so reads are contiguous and writes run along an image
// row (the generic walk visits every channel per position, its reads a plane apart: ConvTranspose
// of a 24-channel 160x160 map spent 13 ms there). Each image element sums its kernel cells in the
// generic walk's order, so the bits are the same.
template <typename T>
void Col2Im2dChannels(const T* col, int64_t c0, int64_t c1, const Geometry& g, T* x) {
  const int64_t H = g.in[0], W = g.in[1], OH = g.out[0], OW = g.out[1], KH = g.k[0], KW = g.k[1];
  const int64_t sh = g.s[0], sw = g.s[1], O = OH * OW;
  for (int64_t c = c0; c < c1; ++c) {
    T* plane = x + c * H * W;
    for (int64_t kh = 0; kh < KH; ++kh) {
      for (int64_t kw = 0; kw < KW; ++kw) {
        const T* src = col + ((c * KH + kh) * KW + kw) * O;
        const int64_t dx = kw * g.d[1] - g.pb[1];  // image column of column position 0
        // Column positions [lo, hi) land on image columns ow * sw + dx inside [0, W).
        int64_t lo = dx >= 0 ? 0 : (-dx + sw - 1) / sw;
        int64_t hi = W - dx <= 0 ? 0 : (W - dx - 1) / sw + 1;
        lo = std::min(lo, OW);
        hi = std::max(lo, std::min(hi, OW));
        for (int64_t oh = 0; oh < OH; ++oh) {
          const int64_t ih = oh * sh - g.pb[0] + kh * g.d[0];
          if (ih < 0 || ih >= H) continue;
          T* dst = plane + ih * W + dx;
          const T* row = src + oh * OW;
          if (sw == 1) {
            for (int64_t ow = lo; ow < hi; ++ow) dst[ow] += row[ow];
          } else {
            for (int64_t ow = lo; ow < hi; ++ow) dst[ow * sw] += row[ow];
          }
        }
      }
    }
  }
}

std::vector<int64_t> Spatial(const Tensor& t) {
  return std::vector<int64_t>(t.dims().begin() + 2, t.dims().end());
}

// The vector kernels' view of a 2-D geometry.
Window2d ToWindow2d(const Geometry& g) {
  return Window2d{.in_h = g.in[0],
                  .in_w = g.in[1],
                  .out_h = g.out[0],
                  .out_w = g.out[1],
                  .kernel_h = g.k[0],
                  .kernel_w = g.k[1],
                  .stride_h = g.s[0],
                  .stride_w = g.s[1],
                  .dilation_h = g.d[0],
                  .dilation_w = g.d[1],
                  .pad_top = g.pb[0],
                  .pad_left = g.pb[1],
                  .pad_bottom = g.pe[0],
                  .pad_right = g.pe[1]};
}

// Channels per task when per-channel work (im2col rows, depthwise planes, epilogues) is split among
// threads; fixed, so the split never depends on the thread count.
constexpr int64_t kChannelsPerTask = 8;
// Inputs of at most this many channels (stems) take the direct convolution
// (conv_few_channels_f32), in tasks of output rows of at least this many multiply-adds.
constexpr int64_t kFewChannels = 4;
constexpr int64_t kFewChannelsTaskMacs = int64_t{1} << 18;
constexpr int64_t kDepthwiseOutputsPerTask = 2048;
// Output pixels per band of the channel-blocked depthwise kernel (its scratch: the band's input and
// outputs interleaved, 64 bytes a pixel with AVX-512, within L2). Measured (conv_matmul_bench,
// AVX-512): 144 channels of 56x56 0.20 ms in bands of 384 outputs, 0.17 in bands of 2048; the
// small planes are one band either way.
constexpr int64_t kDepthwiseBandOutputs = 2048;

// A 1x1 convolution feeding a depthwise one runs inside it (ComputePointwiseDepthwise) when the
// plane's pixels times the kernel's lanes reach this: planes of 14x14 and up with AVX-512's 16
// lanes, 28x28 and up with AVX2's 8 (each block of lanes reads the expansion's input again).
// MobileNetV2, one thread, the pair's time fused / separate (conv_matmul_bench
// BM_InvertedResidual, AVX-512): 112x112 0.55 / 0.98 ms, 56x56 0.37 / 0.42, 28x28 0.14 / 0.17,
// 14x14 0.12 / 0.14, 7x7 0.18 / 0.18; the whole model at 14x14 and up 7.63 ms, 28x28 and up
// 7.74, 7x7 and up 7.80; on the AVX2 kernels 8.64, 8.56 and 8.85.
constexpr int64_t kFusedDepthwiseMinLanePixels = 14 * 14 * 16;
// Kernels of fewer lanes (AVX2's 8) run the pair fused only for at most this many input channels:
// each block of lanes reads all of them again, and past that the separate GEMM is faster
// (BM_InvertedResidual, AVX2 kernels on Zen 4, fused / separate: 16 -> 96 at 112x112 0.78 / 0.97
// ms, 24 -> 144 0.48 / 0.50, 32 -> 64 at 56x56 0.25 / 0.26, 64 -> 64 0.69 / 0.52, 128 -> 128 at
// 28x28 0.58 / 0.30, 256 -> 256 at 22x22 0.91 / 0.67). With AVX-512's 16 the fused pair was as
// fast or faster at every width measured (64 -> 64 0.31 / 0.34, 128 -> 128 0.26 / 0.28, 256 ->
// 256 0.61 / 0.64).
constexpr int64_t kFusedDepthwiseWideLanes = 16;
constexpr int64_t kFusedDepthwiseMaxNarrowChannelsIn = 32;

// 3x3 convolutions at stride 1 without dilation of at least this many input and output channels
// take Winograd's F(2x2, 3x3) (winograd3x3_f32), in tasks of at most this many output channels.
// Few channels pay too (conv_matmul_bench, lowest of 10, AVX2 / AVX-512 kernels on Zen 4): a DB
// text detector's head, 96 -> 24 at 160x160, 16.1 / 12.2 ms direct, 8.4 / 7.8 by Winograd;
// 64 -> 8 at 56x56 0.69 / 0.51 -> 0.41 / 0.40; 16 -> 16 at 112x112 0.96 / 0.78 -> 0.58 / 0.56;
// 8 -> 8 0.30 / 0.26 -> 0.27 / 0.23.
constexpr int64_t kWinogradMinChannels = 8;
constexpr int64_t kWinogradTaskChannels = 128;
constexpr int64_t kWinogradTileVector = 16;
constexpr int64_t kWinogradTilesPastVector = 4;

bool TakesWinograd(const Geometry& g, int64_t C, int64_t M) {
  if (g.nd != 2 || C < kWinogradMinChannels || M < kWinogradMinChannels) return false;
  for (int64_t i = 0; i < 2; ++i) {
    if (g.k[i] != 3 || g.s[i] != 1 || g.d[i] != 1) return false;
  }
  return true;
}

// A 1x1 (or all-ones) kernel with unit strides and no padding reads X as the GEMM's right operand.
bool IsPointwise(const Geometry& g) {
  for (int64_t i = 0; i < g.nd; ++i) {
    if (g.k[i] != 1 || g.s[i] != 1 || g.pb[i] != 0 || g.pe[i] != 0) return false;
  }
  return true;
}

template <typename T>
void AddChannelBias(const T* bias, int64_t channels, int64_t size, T* y) {
  for (int64_t m = 0; m < channels; ++m) {
    T* row = y + m * size;
    if constexpr (std::is_same_v<T, float>) {
      Vec().binary_f32(BinaryOp::kAdd, Operands::kVectorScalar, row, bias + m, row, size);
    } else {
      for (int64_t o = 0; o < size; ++o) row[o] += bias[m];
    }
  }
}

// The bias and a folded epilogue as a kernel applies them to its outputs in registers
// (vector_kernels.h: RowEpilogue), when the epilogue's activation is one it knows; none otherwise.
std::optional<RowEpilogue> InKernelEpilogue(const float* bias, const ChannelEpilogue* epilogue) {
  RowEpilogue e;
  e.bias = bias;
  if (epilogue == nullptr) return e;
  if (!epilogue->scale.empty()) {
    e.scale = epilogue->scale.data();
    e.shift = epilogue->shift.data();
  }
  if (epilogue->has_activation) {
    if (epilogue->activation == UnaryOp::kRelu) {
      e.activation = RowEpilogue::Activation::kRelu;
    } else if (epilogue->activation == UnaryOp::kClip) {
      e.activation = RowEpilogue::Activation::kClip;
      e.lo = epilogue->p0;
      e.hi = epilogue->p1;
    } else if (epilogue->activation == UnaryOp::kLeakyRelu) {
      e.activation = RowEpilogue::Activation::kLeakyRelu;
      e.alpha = epilogue->p0;
    } else if (epilogue->activation == UnaryOp::kHardSigmoid) {
      e.activation = RowEpilogue::Activation::kHardSigmoid;
      e.alpha = epilogue->p0;
      e.beta = epilogue->p1;
    } else if (epilogue->activation == UnaryOp::kHardSwish) {
      e.activation = RowEpilogue::Activation::kHardSwish;
    } else {
      return std::nullopt;
    }
  }
  return e;
}

// Rows [c0, ...) of `e`: its per-row pointers moved on by c0.
RowEpilogue RowsFrom(const RowEpilogue& e, int64_t c0) {
  RowEpilogue r = e;
  if (r.bias != nullptr) r.bias += c0;
  if (r.scale != nullptr) r.scale += c0;
  if (r.shift != nullptr) r.shift += c0;
  return r;
}

// Depthwise planes are independent: split among threads in fixed chunks of at least
// kDepthwiseOutputsPerTask outputs (a chunk of 8 planes of 7x7 took about as long as claiming it:
// MobileNetV2's 960 channels of 7x7 ran 0.10 ms at 2 threads against 0.12 at 1; 0.08 in larger
// chunks).
int64_t DepthwisePlanesPerTask(int64_t O) {
  return std::max(kChannelsPerTask, CeilDiv(kDepthwiseOutputsPerTask, std::max<int64_t>(O, 1)));
}

// A 2-D depthwise convolution of N x C planes of I inputs and O outputs, a vector's worth of
// channels at a time (depthwise_conv2d_block_f32), in bands of output rows finished before they
// leave the kernel: by `in_kernel` (bias included) when given, else by the bias there and
// `epilogue` after each band. With `source` (all C of its output channels; x unused) the input
// planes are that 1x1 convolution's output, its input being batch n's planes at source->x + n *
// source->channels_in * I.
void DepthwiseBlocked(const float* px, int64_t N, int64_t C, int64_t I, int64_t O,
                      const Window2d& win, const float* pw, const float* pb,
                      const std::optional<RowEpilogue>& in_kernel, const ChannelEpilogue* epilogue,
                      const PointwiseSource* source, float* py) {
  const VectorKernels& vec = Vec();
  const int64_t K = win.kernel_h * win.kernel_w;
  const int64_t lanes = vec.depthwise_block_channels, blocks = CeilDiv(C, lanes);
  const int64_t band_rows = std::max<int64_t>(1, kDepthwiseBandOutputs / win.out_w);
  const int64_t bands = CeilDiv(win.out_h, band_rows);
  // Tasks of one band of one block (MobileNetV2's 144 channels of 56x56 in 9 blocks split 5 / 4
  // between two threads, in 18 bands 9 / 9), or of several blocks of small planes.
  const int64_t chunk = bands > 1 ? 1 : CeilDiv(DepthwisePlanesPerTask(O), lanes);
  // What the kernel applies: all of the epilogue, or the bias alone when the activation is one it
  // lacks (the rest then follows per band).
  RowEpilogue all;
  if (in_kernel) all = *in_kernel;
  all.bias = pb;
  ParallelFor(N * blocks * bands, chunk, [&](int64_t begin, int64_t end) {
    for (int64_t task = begin; task < end; ++task) {
      const int64_t b = task / bands, oh0 = task % bands * band_rows;
      const int64_t oh1 = std::min(win.out_h, oh0 + band_rows);
      const int64_t n = b / blocks, c0 = b % blocks * lanes, count = std::min(lanes, C - c0);
      const float* xb = source != nullptr ? nullptr : px + (n * C + c0) * I;
      float* yb = py + (n * C + c0) * O;
      const RowEpilogue be = RowsFrom(all, c0);  // this block's channels
      PointwiseSource sb;
      if (source != nullptr) {
        sb = *source;
        sb.x = source->x + n * source->channels_in * I;
        sb.weights = source->weights + c0 * source->channels_in;
        sb.e = RowsFrom(source->e, c0);
      }
      vec.depthwise_conv2d_block_f32(xb, I, pw + c0 * K, be, count, win, oh0, oh1, yb, O,
                                     source != nullptr ? &sb : nullptr);
      if (epilogue == nullptr || in_kernel) continue;
      for (int64_t c = 0; c < count; ++c)
        epilogue->Apply(c0 + c, yb + c * O + oh0 * win.out_w, (oh1 - oh0) * win.out_w);
    }
  });
}

// A convolution's sizes, checked: batch N, channels C in and M out, groups, window geometry, Y's
// dims.
struct ConvShape {
  int64_t N, C, M, group;
  Geometry g;
  std::vector<int64_t> ydims;
};

// X's dims given (`xdims`), for an X not computed yet (ComputePointwiseDepthwise).
StatusOr<ConvShape> MakeConvShape(const KernelContext& ctx, const std::vector<int64_t>& xdims,
                                  const Tensor& w) {
  if (xdims.size() < 3 || w.rank() != static_cast<int64_t>(xdims.size()))
    return ctx.Error("X and W must have the same rank >= 3");
  ConvShape s{xdims[0], xdims[1], w.dim(0), ctx.GetInt("group", 1), {}, {}};
  if (s.group <= 0 || s.C % s.group != 0 || s.M % s.group != 0 || w.dim(1) * s.group != s.C) {
    return ctx.Error("channels do not match group and weights");
  }
  const std::vector<int64_t> kernel = ctx.GetInts("kernel_shape", Spatial(w));
  if (kernel != Spatial(w)) return ctx.Error("kernel_shape differs from the weights' spatial dims");
  ASSIGN_OR_RETURN(
      s.g, MakeGeometry(ctx, std::vector<int64_t>(xdims.begin() + 2, xdims.end()), kernel, false));
  s.ydims = {s.N, s.M};
  s.ydims.insert(s.ydims.end(), s.g.out.begin(), s.g.out.end());
  return s;
}
StatusOr<ConvShape> MakeConvShape(const KernelContext& ctx, const Tensor& x, const Tensor& w) {
  return MakeConvShape(ctx, x.dims(), w);
}

// The kernel cells of a convolution that read X for some output: per spatial axis, `kept` cells
// from `lo` on. The others read only padding, for every output, and add nothing (a 3x3 kernel over
// a map one row high, as text recognizers and audio models have after pooling the height away, is
// a 1x3 kernel).
struct LiveCells {
  std::vector<int64_t> lo, kept;
};

// Nullopt when every cell counts, or when an axis has none (the output is the bias) or cropping
// would need a negative pad (dilations).
std::optional<LiveCells> FindLiveCells(const Geometry& g) {
  LiveCells live{std::vector<int64_t>(g.nd), std::vector<int64_t>(g.nd)};
  bool cropped = false;
  for (int64_t i = 0; i < g.nd; ++i) {
    int64_t first = -1, last = -1;
    for (int64_t k = 0; k < g.k[i]; ++k) {
      // The first output whose input position for cell k is not before X, and whether it is in X.
      const int64_t before = g.pb[i] - k * g.d[i];
      const int64_t o = before <= 0 ? 0 : (before + g.s[i] - 1) / g.s[i];
      if (o < g.out[i] && o * g.s[i] - before < g.in[i]) {
        if (first < 0) first = k;
        last = k;
      }
    }
    if (first < 0 || g.pb[i] < first * g.d[i] || g.pe[i] < (g.k[i] - 1 - last) * g.d[i])
      return std::nullopt;
    live.lo[i] = first;
    live.kept[i] = last - first + 1;
    cropped = cropped || live.kept[i] < g.k[i];
  }
  if (!cropped) return std::nullopt;
  return live;
}

// The weights W [M, C/group, kernel...] of the live cells only, and W's kernel shape.
struct CroppedWeights {
  std::vector<int64_t> kernel;
  LiveCells live;
  Tensor w;
};

template <typename T>
CroppedWeights CropWeights(const Tensor& w, const std::vector<int64_t>& kernel,
                           const LiveCells& live) {
  const int64_t nd = static_cast<int64_t>(kernel.size());
  std::vector<int64_t> dims = {w.dim(0), w.dim(1)};
  dims.insert(dims.end(), live.kept.begin(), live.kept.end());
  CroppedWeights c{kernel, live, Tensor::Uninitialized(w.dtype(), dims)};
  const std::vector<int64_t> strides = Strides(kernel);
  // Runs of kept cells along the last axis, one per index of the axes before it.
  const std::vector<int64_t> outer(live.kept.begin(), live.kept.end() - 1);
  const int64_t K = NumElements(kernel), filters = w.dim(0) * w.dim(1), run = live.kept.back();
  const T* src = w.data<T>();
  T* dst = c.w.mutable_data<T>();
  std::vector<int64_t> cell(nd - 1);
  for (int64_t f = 0; f < filters; ++f) {
    std::fill(cell.begin(), cell.end(), 0);
    do {
      int64_t at = f * K + live.lo[nd - 1];
      for (int64_t i = 0; i + 1 < nd; ++i) at += (cell[i] + live.lo[i]) * strides[i];
      dst = std::copy_n(src + at, run, dst);
    } while (Next(cell, outer));
  }
  return c;
}

// The geometry of the same convolution over the live cells: pads less the cells cut, the same
// outputs.
void CropGeometry(const LiveCells& live, Geometry& g) {
  for (int64_t i = 0; i < g.nd; ++i) {
    g.pb[i] -= live.lo[i] * g.d[i];
    g.pe[i] -= (g.k[i] - live.lo[i] - live.kept[i]) * g.d[i];
    g.k[i] = live.kept[i];
  }
}

// The column matrix of `channels` channels (the 2-D form when it applies).
template <typename T>
void Im2ColRows(const T* x, int64_t channels, const Geometry& g, T* col, T pad = T(0)) {
  if (g.nd == 2) {
    Im2Col2dRange<T>(x, channels, g, 0, g.out_size(), col, pad);
  } else {
    Im2Col<T>(x, channels, g, col, pad);
  }
}

// Output positions per panel of a convolution's GEMM on a large plane: its part of the column
// matrix (`rows` x panel values) and of the output (`channels` x panel) fit in kPanelBytes, so the
// GEMM reads the former from L2 right after it is built, instead of from memory after the whole
// matrix was (ResNet-50's 56x56 3x3 layers: 7 MB), and the bias and epilogue find the latter there.
// At least kMinPanel wide (narrower panels cut im2col into short copies), at most kMaxPanel (so
// that a stem convolution of 3 input channels still makes enough panels for the threads to share
// evenly), all but the last of one width, as even as whole vectors of 16 columns allow; a function
// of the shape only. (Whole strips of 64 made a 28x28 plane 256 + 256 + 256 + 16 columns, which two
// threads shared as 512 and 272: ResNet-50's 28x28 3x3 layers ran 1.6x faster on 2 threads than
// on 1.)
constexpr int64_t kPanelBytes = int64_t{1} << 20;
constexpr int64_t kPanelAlign = 64;
constexpr int64_t kPanelRound = 16;
constexpr int64_t kMinPanel = 256;
constexpr int64_t kMaxPanel = 1024;

int64_t PanelColumns(int64_t rows, int64_t channels, int64_t O) {
  const int64_t bytes_per_column = (rows + channels) * int64_t{sizeof(float)};
  const int64_t widest =
      std::clamp(kPanelBytes / bytes_per_column / kPanelAlign * kPanelAlign, kMinPanel, kMaxPanel);
  if (O <= widest) return O;
  return CeilDiv(CeilDiv(O, CeilDiv(O, widest)), kPanelRound) * kPanelRound;
}

// C (m x n, ldc) = A (m x k, lda) * B (k x n, ldb) on the calling thread, for one panel.
template <typename T>
void GemmLd(int64_t m, int64_t n, int64_t k, const T* a, int64_t lda, const T* b, int64_t ldb, T* c,
            int64_t ldc) {
  if constexpr (std::is_same_v<T, float>) {
    Vec().gemm_ld_f32(false, false, m, n, k, 1.0f, a, lda, b, ldb, 0.0f, c, ldc);
  } else {
    Vec().gemm_ld_f64(false, false, m, n, k, 1.0, a, lda, b, ldb, 0.0, c, ldc);
  }
}

// The convolution of `shape` with weights `w`: the node's input 1 when `w_is_input`, else W cropped
// to its live cells or computed from the node's inputs, which what a path derives from W
// (Winograd's filters) must not be kept for.
template <typename T>
Status ConvWithShape(KernelContext& ctx, const ConvShape& shape, const Tensor& x, const Tensor& w,
                     bool w_is_input, const Tensor* b, Tensor& y) {
  const int64_t N = shape.N, C = shape.C, M = shape.M, group = shape.group;
  const Geometry& g = shape.g;
  if (b != nullptr && b->size() != M)
    return ctx.Error("bias length must equal the output channels");
  // W and B are read as X's element type.
  if (w.dtype() != x.dtype() || (b != nullptr && b->dtype() != x.dtype())) {
    return ctx.Error("X, W and B must have the same element type");
  }
  y = Tensor::Uninitialized(x.dtype(), shape.ydims);  // every path below writes all of it
  const int64_t Cg = C / group, Mg = M / group, K = g.k_size(), O = g.out_size(), I = g.in_size();
  const T* px = x.data<T>();
  const T* pw = w.data<T>();
  T* py = y.mutable_data<T>();
  const T* pb = b != nullptr ? b->data<T>() : nullptr;
  // Depthwise (one input and one output channel per group): a direct window sweep per channel,
  // which beats im2col + a GEMM with one row by far (mobile CNNs are mostly these). A folded
  // BatchNormalization/activation (float only) is applied to each channel's rows right after they
  // are computed, while they are still in cache.
  const ChannelEpilogue* epilogue = nullptr;
  std::optional<RowEpilogue> in_kernel;
  if constexpr (std::is_same_v<T, float>) {
    epilogue = ctx.epilogue();
    if (epilogue != nullptr && !epilogue->scale.empty() &&
        static_cast<int64_t>(epilogue->scale.size()) != M) {
      epilogue = nullptr;
    }
    if (epilogue != nullptr) ctx.mark_epilogue_applied();
    in_kernel = InKernelEpilogue(pb, epilogue);
    if (g.nd == 2 && Cg == 1 && Mg == 1) {
      const Window2d win = ToWindow2d(g);
      if (Vec().depthwise_conv2d_block_f32 != nullptr && O > 0) {
        DepthwiseBlocked(px, N, C, I, O, win, pw, pb, in_kernel, epilogue, nullptr, py);
        return OkStatus();
      }
      const int64_t planes_per_task = DepthwisePlanesPerTask(O);
      ParallelFor(N * C, planes_per_task, [&](int64_t begin, int64_t end) {
        for (int64_t nc = begin; nc < end; ++nc) {
          const int64_t c = nc % C;
          float* plane = py + nc * O;
          Vec().depthwise_conv2d_f32(px + nc * I, pw + c * K, pb != nullptr ? pb[c] : 0.0f, win,
                                     plane);
          if (epilogue != nullptr) epilogue->Apply(c, plane, O);
        }
      });
      return OkStatus();
    }
  }
  const bool pointwise = IsPointwise(g);
  // Adds the bias and applies the folded epilogue to output channels [m0, m1) of group gi, output
  // positions [o0, o1).
  auto finish = [&](int64_t gi, T* out, int64_t m0, int64_t m1, int64_t o0, int64_t o1) {
    if constexpr (std::is_same_v<T, float>) {
      if (epilogue != nullptr) {  // the bias in the same pass over the output
        for (int64_t m = m0; m < m1; ++m) {
          epilogue->Apply(gi * Mg + m, out + m * O + o0, o1 - o0,
                          pb != nullptr ? pb + gi * Mg + m : nullptr);
        }
        return;
      }
    }
    if (pb == nullptr) return;
    for (int64_t m = m0; m < m1; ++m)
      AddChannelBias<T>(pb + gi * Mg + m, 1, o1 - o0, out + m * O + o0);
  };
  // The bias and epilogue of group gi's channels for the GEMM to apply as it stores its output
  // (float; an activation of Relu or Clip, if any): MobileNetV2's 1x1 expansions write 5 MB
  // planes, which the separate pass read and wrote again from memory.
  std::optional<RowEpilogue> fused;
  if ((pb != nullptr || epilogue != nullptr) && Vec().gemm_epilogue_f32 != nullptr)
    fused = in_kernel;
  auto group_epilogue = [&](int64_t gi) {
    RowEpilogue e = *fused;
    if (e.bias != nullptr) e.bias += gi * Mg;
    if (e.scale != nullptr) e.scale += gi * Mg;
    if (e.shift != nullptr) e.shift += gi * Mg;
    return e;
  };
  if constexpr (std::is_same_v<T, float>) {
    // A stem (a handful of input channels): a direct convolution along the output rows, no
    // column matrix (ResNet-50's 7x7 one has 147 rows).
    if (group == 1 && g.nd == 2 && C <= kFewChannels && in_kernel &&
        Vec().conv_few_channels_f32 != nullptr && O > 0) {
      const Window2d win = ToWindow2d(g);
      const int64_t row_macs = M * win.out_w * C * K;
      const int64_t rows_per_task = std::max<int64_t>(1, CeilDiv(kFewChannelsTaskMacs, row_macs));
      const int64_t tasks = CeilDiv(win.out_h, rows_per_task);
      ParallelFor(N * tasks, 1, [&](int64_t begin, int64_t end) {
        for (int64_t t = begin; t < end; ++t) {
          const int64_t n = t / tasks, oh0 = t % tasks * rows_per_task;
          Vec().conv_few_channels_f32(px + n * C * I, C, win, pw, M, *in_kernel, oh0,
                                      std::min(win.out_h, oh0 + rows_per_task), py + n * M * O);
        }
      });
      return OkStatus();
    }
    // 3x3 at stride 1: Winograd's F(2x2, 3x3), 2.25 times fewer multiply-adds (ResNet-50 at one
    // thread, AVX-512: 86 -> 72 ms). The bias and epilogue as the output is stored, or the bias
    // alone and an activation the kernel lacks after.
    if (group == 1 && O > 0 && TakesWinograd(g, C, M) && Vec().winograd3x3_f32 != nullptr) {
      const Window2d win = ToWindow2d(g);
      // Not zero-filled first: 16 MB for 512 x 512 filters.
      auto pack = [&] {
        auto packed = std::make_unique_for_overwrite<float[]>(WinogradWeightsSize(M, C));
        PackWinogradWeights(pw, M, C, packed.get());
        return packed;
      };
      const auto u = w_is_input ? ctx.Derived<std::unique_ptr<float[]>>(1, pack)
                                : std::make_shared<const std::unique_ptr<float[]>>(pack());
      RowEpilogue e;
      if (in_kernel) {
        e = *in_kernel;
      } else {
        e.bias = pb;
      }
      // Blocks of tiles as even as kWinogradTiles allows (an even number of them when more than
      // one: two threads share them evenly), unless that leaves a block more than a few tiles past
      // a whole vector of 16 (the GEMM then pays for a whole vector; the first few past one are
      // dot products): whole vectors then (56x56, AVX-512: 14 blocks of 56 tiles 1.43 ms, 12 of 64
      // and one of 16 1.31-1.36). Output channels in chunks. A function of the shape only, as a
      // tile's outputs depend on its block.
      const int64_t tiles = CeilDiv(win.out_h, 2) * CeilDiv(win.out_w, 2);
      int64_t blocks = CeilDiv(tiles, kWinogradTiles);
      if (blocks > 1) blocks += blocks % 2;
      int64_t per_block = CeilDiv(tiles, blocks);
      if (per_block % kWinogradTileVector > kWinogradTilesPastVector) {
        per_block =
            std::min(kWinogradTiles, CeilDiv(per_block, kWinogradTileVector) * kWinogradTileVector);
        blocks = CeilDiv(tiles, per_block);
      }
      const int64_t chunks = CeilDiv(M, kWinogradTaskChannels);
      ParallelFor(N * blocks * chunks, 1, [&](int64_t begin, int64_t end) {
        for (int64_t t = begin; t < end; ++t) {
          const int64_t n = t / (blocks * chunks), b = t / chunks % blocks, k = t % chunks;
          const int64_t m0 = k * kWinogradTaskChannels, t0 = b * per_block;
          if (t0 >= tiles) continue;
          Vec().winograd3x3_f32(px + n * C * I, C, win, u->get(), M, &e, t0,
                                std::min(tiles, t0 + per_block), m0,
                                std::min(M, m0 + kWinogradTaskChannels), py + n * M * O);
        }
      });
      if (!in_kernel && epilogue != nullptr) {
        ParallelFor(N * M, kChannelsPerTask, [&](int64_t begin, int64_t end) {
          for (int64_t nm = begin; nm < end; ++nm) epilogue->Apply(nm % M, py + nm * O, O);
        });
      }
      return OkStatus();
    }
    // The column matrix filled from the input as the GEMM goes (implicit im2col): no matrix
    // written to memory and read back (ResNet-50's 3x3 layers spent ~11% of their time on it).
    if (!pointwise && g.nd == 2 && Vec().conv_gemm_f32 != nullptr) {
      const Window2d win = ToWindow2d(g);
      bool done = true;
      for (int64_t n = 0; n < N && done; ++n) {
        for (int64_t gi = 0; gi < group && done; ++gi) {
          const ConvColumns cols{px + (n * C + gi * Cg) * I, Cg, win};
          T* out = py + (n * M + gi * Mg) * O;
          std::optional<RowEpilogue> e;
          if (fused) e = group_epilogue(gi);
          done = ConvGemm(Mg, pw + gi * Mg * Cg * K, cols, out, e ? &*e : nullptr);
          if (done && !fused && (pb != nullptr || epilogue != nullptr)) {
            ParallelFor(Mg, kChannelsPerTask,
                        [&](int64_t begin, int64_t end) { finish(gi, out, begin, end, 0, O); });
          }
        }
      }
      if (done) return OkStatus();
    }
  }
  const int64_t panel = PanelColumns(Cg * K, Mg, O);
  if (!pointwise && g.nd == 2 && panel < O) {
    // Large planes: a panel of output positions at a time, each its own task, its part of the
    // column matrix built, multiplied and its outputs finished while they are in cache (ResNet-50
    // at one thread: 80-83 -> 75-78 ms, its 56x56 3x3 layers 2.5-4.0 -> 1.9-2.1 ms each). 1x1
    // kernels read X in place and gain nothing from panels.
    const int64_t panels = CeilDiv(O, panel);
    for (int64_t n = 0; n < N; ++n) {
      for (int64_t gi = 0; gi < group; ++gi) {
        const T* in = px + (n * C + gi * Cg) * I;
        const T* a = pw + gi * Mg * Cg * K;
        T* out = py + (n * M + gi * Mg) * O;
        ParallelFor(panels, 1, [&](int64_t begin, int64_t end) {
          // Every element of the panel's column matrix is written by Im2Col2dRange. The thread's
          // own buffer, kept from call to call (see Scratch).
          thread_local Scratch panel_scratch;
          std::unique_ptr<T[]> own;
          T* const col = panel_scratch.ArrayOrOwn<T>(Cg * K * panel, own);
          for (int64_t p = begin; p < end; ++p) {
            const int64_t o0 = p * panel, o1 = std::min(O, o0 + panel);
            Im2Col2dRange<T>(in, Cg, g, o0, o1, col);
            if constexpr (std::is_same_v<T, float>) {
              if (fused) {
                Vec().gemm_epilogue_f32(Mg, o1 - o0, Cg * K, a, Cg * K, col, o1 - o0, out + o0, O,
                                        group_epilogue(gi));
                continue;
              }
            }
            GemmLd<T>(Mg, o1 - o0, Cg * K, a, Cg * K, col, o1 - o0, out + o0, O);
            finish(gi, out, 0, Mg, o0, o1);
          }
        });
      }
    }
    return OkStatus();
  }
  // Every element of the column buffer is written by Im2Col. Kept by the calling thread from
  // call to call, as the panels' (small planes' layers, e.g. ResNet-50's last stages, come here).
  thread_local Scratch col_scratch;
  std::unique_ptr<T[]> own;
  T* const col = pointwise ? nullptr : col_scratch.ArrayOrOwn<T>(Cg * K * O, own);
  for (int64_t n = 0; n < N; ++n) {
    for (int64_t gi = 0; gi < group; ++gi) {
      const T* rhs = px + (n * C + gi * Cg) * I;
      if (!pointwise) {
        // Each channel's rows of the column matrix are its own: split among threads in fixed
        // chunks.
        ParallelFor(Cg, kChannelsPerTask, [&](int64_t begin, int64_t end) {
          Im2ColRows<T>(rhs + begin * I, end - begin, g, col + begin * K * O);
        });
        rhs = col;
      }
      T* out = py + (n * M + gi * Mg) * O;
      if constexpr (std::is_same_v<T, float>) {
        if (fused &&
            GemmWithRowEpilogue(Mg, O, Cg * K, pw + gi * Mg * Cg * K, rhs, out, group_epilogue(gi)))
          continue;
      }
      Gemm<T>(false, false, Mg, O, Cg * K, T(1), pw + gi * Mg * Cg * K, rhs, T(0), out);
      if (pb != nullptr || (std::is_same_v<T, float> && epilogue != nullptr)) {
        ParallelFor(Mg, kChannelsPerTask,
                    [&](int64_t begin, int64_t end) { finish(gi, out, begin, end, 0, O); });
      }
    }
  }
  return OkStatus();
}

// The convolution of the node's attributes; `w_is_input`: W is the node's input 1 (Conv), not
// computed from its inputs (ConvInteger, QLinearConv), so what is derived from W may be kept for
// the node.
template <typename T>
Status ConvImpl(KernelContext& ctx, const Tensor& x, const Tensor& w, bool w_is_input,
                const Tensor* b, Tensor& y) {
  ASSIGN_OR_RETURN(ConvShape shape, MakeConvShape(ctx, x, w));
  const std::optional<LiveCells> live = FindLiveCells(shape.g);
  if (!live) return ConvWithShape<T>(ctx, shape, x, w, w_is_input, b, y);
  // Kept for the node while X's shape leaves the same cells live (a session's runs), cropped again
  // for this call when another shape left others.
  const std::vector<int64_t> kernel = shape.g.k;
  auto crop = [&] { return CropWeights<T>(w, kernel, *live); };
  std::shared_ptr<const CroppedWeights> cropped =
      w_is_input ? ctx.Derived<CroppedWeights>(1, crop) : nullptr;
  if (cropped == nullptr || cropped->kernel != kernel || cropped->live.lo != live->lo ||
      cropped->live.kept != live->kept) {
    cropped = std::make_shared<const CroppedWeights>(crop());
  }
  CropGeometry(*live, shape.g);
  return ConvWithShape<T>(ctx, shape, x, cropped->w, false, b, y);
}

Status ConvKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x0, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(const Tensor* w0, ctx.TensorInput(1));
  if (x0->rank() < 3 || w0->rank() != x0->rank())
    return ctx.Error("X and W must have the same rank >= 3");
  Tensor x = WidenToFloat(*x0), w = WidenToFloat(*w0);
  Tensor b;
  if (ctx.has_input(2)) b = WidenToFloat(ctx.input(2));
  // A folded epilogue computes in float: only exact when the model's own type is float.
  if (x0->dtype() != DataType::kFloat || w0->dtype() != DataType::kFloat) ctx.set_epilogue(nullptr);
  Tensor y;
  RETURN_IF_ERROR(DispatchFloat(x.dtype(), [&](auto tag) -> Status {
    using T = decltype(tag);
    return ConvImpl<T>(ctx, x, w, true, ctx.has_input(2) ? &b : nullptr, y);
  }));
  if (y.dtype() != x0->dtype()) {
    ASSIGN_OR_RETURN(y, CastTensor(y, x0->dtype()));
  }
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace

StatusOr<bool> ComputePointwiseDepthwise(KernelContext& pointwise_ctx,
                                         KernelContext& depthwise_ctx) {
  if (Vec().depthwise_conv2d_block_f32 == nullptr) return false;
  const Tensor &x = pointwise_ctx.input(0), &w1 = pointwise_ctx.input(1);
  const Tensor& w2 = depthwise_ctx.input(1);
  const bool has_b1 = pointwise_ctx.has_input(2), has_b2 = depthwise_ctx.has_input(2);
  const Tensor &b1 = pointwise_ctx.input(2), &b2 = depthwise_ctx.input(2);
  for (const Tensor* t : {&x, &w1, &w2}) {
    if (t->dtype() != DataType::kFloat || t->rank() != 4) return false;
  }
  if ((has_b1 && (b1.dtype() != DataType::kFloat || b1.size() != w1.dim(0))) ||
      (has_b2 && (b2.dtype() != DataType::kFloat || b2.size() != w2.dim(0)))) {
    return false;
  }
  // Shapes a Conv refuses are left to its own kernel, which reports them.
  StatusOr<ConvShape> pointwise = MakeConvShape(pointwise_ctx, x, w1);
  if (!pointwise.ok() || pointwise->group != 1 || !IsPointwise(pointwise->g)) return false;
  StatusOr<ConvShape> depthwise = MakeConvShape(depthwise_ctx, pointwise->ydims, w2);
  if (!depthwise.ok()) return false;
  const int64_t N = depthwise->N, C = depthwise->C;
  if (depthwise->g.nd != 2 || depthwise->group != C || depthwise->M != C) return false;
  if (depthwise->g.in_size() * Vec().depthwise_block_channels < kFusedDepthwiseMinLanePixels)
    return false;
  if (Vec().depthwise_block_channels < kFusedDepthwiseWideLanes &&
      pointwise->C > kFusedDepthwiseMaxNarrowChannelsIn) {
    return false;
  }
  // Both epilogues applied in registers (the expansion's values exist only there).
  const ChannelEpilogue *e1 = pointwise_ctx.epilogue(), *e2 = depthwise_ctx.epilogue();
  for (const ChannelEpilogue* e : {e1, e2}) {
    if (e != nullptr && !e->scale.empty() && static_cast<int64_t>(e->scale.size()) != C)
      return false;
  }
  const float* pb1 = has_b1 ? b1.data<float>() : nullptr;
  const float* pb2 = has_b2 ? b2.data<float>() : nullptr;
  const std::optional<RowEpilogue> in_kernel1 = InKernelEpilogue(pb1, e1);
  const std::optional<RowEpilogue> in_kernel2 = InKernelEpilogue(pb2, e2);
  if (!in_kernel1 || !in_kernel2) return false;
  const Geometry& g = depthwise->g;
  Tensor y = Tensor::Uninitialized(DataType::kFloat, depthwise->ydims);
  if (y.size() > 0) {
    const PointwiseSource source{.x = x.data<float>(),
                                 .channels_in = pointwise->C,
                                 .weights = w1.data<float>(),
                                 .e = *in_kernel1};
    DepthwiseBlocked(nullptr, N, C, g.in_size(), g.out_size(), ToWindow2d(g), w2.data<float>(), pb2,
                     in_kernel2, e2, &source, y.mutable_data<float>());
  }
  if (e1 != nullptr) pointwise_ctx.mark_epilogue_applied();
  if (e2 != nullptr) depthwise_ctx.mark_epilogue_applied();
  depthwise_ctx.set_output(0, std::move(y));
  return true;
}

namespace {

// X and W as `T` minus their zero points (x_zero_point a scalar; w_zero_point a scalar or one per
// output channel). Padding then reads as x_zero_point, i.e. 0, which is what im2col writes there.
template <typename T>
Status SubtractZeroPoints(const KernelContext& ctx, const Tensor& x0, const Tensor& w0, Tensor& x,
                          Tensor& w) {
  constexpr DataType kType = DataTypeOf<T>();
  ASSIGN_OR_RETURN(x, CastTensor(x0, kType));
  ASSIGN_OR_RETURN(w, CastTensor(w0, kType));
  ASSIGN_OR_RETURN(double xz, ScalarInput(ctx, 2, 0));
  T* px = x.mutable_data<T>();
  for (int64_t i = 0; i < x.size(); ++i) px[i] -= static_cast<T>(xz);
  if (ctx.has_input(3)) {
    ASSIGN_OR_RETURN(Tensor wz, CastTensor(ctx.input(3), kType));
    if (w.rank() == 0 || (wz.size() != 1 && wz.size() != w.dim(0))) {
      return ctx.Error("w_zero_point must be a scalar or hold one value per output channel");
    }
    T* pw = w.mutable_data<T>();
    const int64_t per = w.size() / std::max<int64_t>(w.dim(0), 1);
    for (int64_t i = 0; i < w.size(); ++i) pw[i] -= wz.data<T>()[wz.size() == 1 ? 0 : i / per];
  }
  return OkStatus();
}

// ConvInteger on 8-bit inputs: x and w minus their zero points are integers of magnitude <= 255,
// held exactly in float; im2col in float and exact chunked float GEMMs (ExactInt8Gemm) into int32.
Status ConvInteger8(KernelContext& ctx, const Tensor& x0, const Tensor& w0, Tensor& y) {
  Tensor x, w;
  RETURN_IF_ERROR(SubtractZeroPoints<float>(ctx, x0, w0, x, w));
  ASSIGN_OR_RETURN(const ConvShape shape, MakeConvShape(ctx, x, w));
  const Geometry& g = shape.g;
  y = Tensor::Uninitialized(DataType::kInt32, shape.ydims);
  const int64_t Cg = shape.C / shape.group, Mg = shape.M / shape.group, K = g.k_size(),
                O = g.out_size();
  std::unique_ptr<float[]> col(new float[static_cast<size_t>(Cg * K * O)]);
  for (int64_t n = 0; n < shape.N; ++n) {
    for (int64_t gi = 0; gi < shape.group; ++gi) {
      Im2ColRows<float>(x.data<float>() + (n * shape.C + gi * Cg) * g.in_size(), Cg, g, col.get());
      ExactInt8Gemm(Mg, O, Cg * K, w.data<float>() + gi * Mg * Cg * K, col.get(),
                    y.mutable_data<int32_t>() + (n * shape.M + gi * Mg) * O);
    }
  }
  return OkStatus();
}

// ConvInteger through the 8-bit GEMM (AVX2, AVX-512), which takes the bytes of W and of X's column
// matrix as they are, with their zero points, and is exact modulo 2^32 like the portable path.
// Padding reads as X's zero point, so it adds nothing. Returns false (the caller takes the portable
// path) on the baseline ISA or when w_zero_point is malformed (which the portable path reports).
StatusOr<bool> ConvIntegerBytes(KernelContext& ctx, const Tensor& x0, const Tensor& w0, Tensor& y) {
  if (Vec().gemm_8bit_s32 == nullptr) return false;
  ASSIGN_OR_RETURN(const ConvShape shape, MakeConvShape(ctx, x0, w0));
  std::vector<int32_t> w_zero_points(static_cast<size_t>(shape.M), 0);
  if (ctx.has_input(3)) {
    ASSIGN_OR_RETURN(const Tensor* wz, ctx.TensorInput(3));
    if (wz->size() != 1 && wz->size() != shape.M) return false;
    for (int64_t m = 0; m < shape.M; ++m) w_zero_points[m] = ByteAt(*wz, wz->size() == 1 ? 0 : m);
  }
  ASSIGN_OR_RETURN(const double xz_value, ScalarInput(ctx, 2, 0));
  const int32_t x_zero_point = static_cast<int32_t>(xz_value);
  const uint8_t pad = static_cast<uint8_t>(x_zero_point);  // its byte, read with x's signedness
  const bool x_signed = x0.dtype() == DataType::kInt8, w_signed = w0.dtype() == DataType::kInt8;
  const auto* px = reinterpret_cast<const uint8_t*>(x0.raw());
  const auto* pw = reinterpret_cast<const uint8_t*>(w0.raw());
  const Geometry& g = shape.g;
  y = Tensor::Uninitialized(DataType::kInt32, shape.ydims);
  const int64_t Cg = shape.C / shape.group, Mg = shape.M / shape.group, K = g.k_size(),
                O = g.out_size();
  const int64_t I = g.in_size();
  const bool pointwise = IsPointwise(g);
  std::unique_ptr<uint8_t[]> col(pointwise ? nullptr
                                           : new uint8_t[static_cast<size_t>(Cg * K * O)]);
  for (int64_t n = 0; n < shape.N; ++n) {
    for (int64_t gi = 0; gi < shape.group; ++gi) {
      const uint8_t* rhs = px + (n * shape.C + gi * Cg) * I;
      if (!pointwise) {
        // Split among threads in fixed chunks of channels, as the float path does.
        ParallelFor(Cg, kChannelsPerTask, [&](int64_t begin, int64_t end) {
          Im2ColRows<uint8_t>(rhs + begin * I, end - begin, g, col.get() + begin * K * O, pad);
        });
        rhs = col.get();
      }
      const Int8Operand weights{pw + gi * Mg * Cg * K, w_signed, w_zero_points.data() + gi * Mg,
                                true};
      const Int8Operand columns{rhs, x_signed, &x_zero_point, false};
      Int8Gemm(Mg, O, Cg * K, weights, columns,
               y.mutable_data<int32_t>() + (n * shape.M + gi * Mg) * O);
    }
  }
  return true;
}

Status ConvIntegerKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x0, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(const Tensor* w0, ctx.TensorInput(1));
  Tensor y;
  if (Is8BitInteger(x0->dtype()) && Is8BitInteger(w0->dtype()) &&
      (!ctx.has_input(2) || Is8BitInteger(ctx.input(2).dtype())) &&
      (!ctx.has_input(3) || Is8BitInteger(ctx.input(3).dtype()))) {
    ASSIGN_OR_RETURN(const bool done, ConvIntegerBytes(ctx, *x0, *w0, y));
    if (!done) RETURN_IF_ERROR(ConvInteger8(ctx, *x0, *w0, y));
  } else {  // wider integers than the spec's: in double
    Tensor x, w;
    RETURN_IF_ERROR(SubtractZeroPoints<double>(ctx, *x0, *w0, x, w));
    RETURN_IF_ERROR(ConvImpl<double>(ctx, x, w, false, nullptr, y));
    ASSIGN_OR_RETURN(y, CastTensor(y, DataType::kInt32));
  }
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

// Dequantize, convolve in double, requantize. W is per-tensor or per output channel.
Status QLinearConvKernel(KernelContext& ctx) {
  for (size_t i = 0; i < 8; ++i) {
    if (!ctx.has_input(i)) return ctx.Error("QLinearConv needs 8 inputs");
  }
  ASSIGN_OR_RETURN(Tensor x, CastTensor(ctx.input(0), DataType::kDouble));
  ASSIGN_OR_RETURN(double xs, ScalarInput(ctx, 1, 1));
  ASSIGN_OR_RETURN(double xz, ScalarInput(ctx, 2, 0));
  ASSIGN_OR_RETURN(Tensor w, CastTensor(ctx.input(3), DataType::kDouble));
  ASSIGN_OR_RETURN(Tensor ws, CastTensor(ctx.input(4), DataType::kDouble));
  ASSIGN_OR_RETURN(Tensor wz, CastTensor(ctx.input(5), DataType::kDouble));
  ASSIGN_OR_RETURN(double ys, ScalarInput(ctx, 6, 1));
  ASSIGN_OR_RETURN(double yz, ScalarInput(ctx, 7, 0));
  for (int64_t i = 0; i < x.size(); ++i)
    x.mutable_data<double>()[i] = (x.data<double>()[i] - xz) * xs;
  if (w.rank() < 3) return ctx.Error("w must have rank >= 3");
  const int64_t M = w.dim(0), per = w.size() / std::max<int64_t>(M, 1);
  // Per-channel scales and zero points are read for every output channel (and the bias's).
  if ((ws.size() != 1 && ws.size() != M) || (wz.size() != 1 && wz.size() != M)) {
    return ctx.Error(absl::StrCat("w_scale and w_zero_point must hold 1 or ", M, " values, got ",
                                  ws.size(), " and ", wz.size()));
  }
  if (ctx.has_input(8) && ctx.input(8).size() != M)
    return ctx.Error("B must hold one value per output channel");
  for (int64_t i = 0; i < w.size(); ++i) {
    const int64_t m = ws.size() == 1 ? 0 : i / per;
    w.mutable_data<double>()[i] =
        (w.data<double>()[i] - wz.data<double>()[wz.size() == 1 ? 0 : m]) * ws.data<double>()[m];
  }
  Tensor b;
  if (ctx.has_input(8)) {
    ASSIGN_OR_RETURN(b, CastTensor(ctx.input(8), DataType::kDouble));
    for (int64_t m = 0; m < b.size(); ++m)
      b.mutable_data<double>()[m] *= xs * ws.data<double>()[ws.size() == 1 ? 0 : m];
  }
  Tensor y;
  RETURN_IF_ERROR(ConvImpl<double>(ctx, x, w, false, ctx.has_input(8) ? &b : nullptr, y));
  const DataType t = ctx.input(7).dtype();
  const double lo = t == DataType::kUint8 ? 0 : -128, hi = t == DataType::kUint8 ? 255 : 127;
  for (int64_t i = 0; i < y.size(); ++i) {
    y.mutable_data<double>()[i] = std::clamp(std::nearbyint(y.data<double>()[i] / ys) + yz, lo, hi);
  }
  ASSIGN_OR_RETURN(y, CastTensor(y, t));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

// Bilinear sample of a [H, W] plane; neighbours outside the plane count as 0.
double SampleZero(const double* plane, int64_t H, int64_t W, double y, double x) {
  // A NaN offset gives NaN; a far one reads only outside neighbours (converting either to an
  // integer tap index would be undefined).
  if (std::isnan(y) || std::isnan(x)) return std::numeric_limits<double>::quiet_NaN();
  if (!(std::abs(y) < 0x1p62 && std::abs(x) < 0x1p62)) return 0;
  const double y0 = std::floor(y), x0 = std::floor(x);
  const double ly = y - y0, lx = x - x0;
  double acc = 0;
  for (int dy = 0; dy < 2; ++dy) {
    for (int dx = 0; dx < 2; ++dx) {
      const int64_t yy = static_cast<int64_t>(y0) + dy, xx = static_cast<int64_t>(x0) + dx;
      if (yy < 0 || yy >= H || xx < 0 || xx >= W) continue;
      acc += (dy ? ly : 1 - ly) * (dx ? lx : 1 - lx) * plane[yy * W + xx];
    }
  }
  return acc;
}

Status DeformConvKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x0, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(Tensor x, CastTensor(*x0, DataType::kDouble));
  ASSIGN_OR_RETURN(Tensor w, CastTensor(ctx.input(1), DataType::kDouble));
  ASSIGN_OR_RETURN(Tensor off, CastTensor(ctx.input(2), DataType::kDouble));
  if (x.rank() != 4) return ctx.Error("only 2-D DeformConv is supported");
  // W and offset are indexed as 4-D below.
  if (w.rank() != 4 || off.rank() != 4) return ctx.Error("W and offset must have rank 4 like X");
  const int64_t N = x.dim(0), C = x.dim(1), H = x.dim(2), W = x.dim(3);
  const int64_t M = w.dim(0), kH = w.dim(2), kW = w.dim(3), K = kH * kW;
  const int64_t group = ctx.GetInt("group", 1), og = ctx.GetInt("offset_group", 1);
  const std::vector<int64_t> s = ctx.GetInts("strides", {1, 1}),
                             d = ctx.GetInts("dilations", {1, 1});
  const std::vector<int64_t> pads = ctx.GetInts("pads", {0, 0, 0, 0});
  if (w.rank() != 4 || off.rank() != 4 || group <= 0 || og <= 0 || C % group != 0 ||
      M % group != 0 || C % og != 0 || w.dim(1) * group != C || s.size() != 2 || d.size() != 2 ||
      pads.size() != 4 || off.dim(0) != N || off.dim(1) != og * 2 * K) {
    return ctx.Error("W, offset, group, offset_group, strides, dilations or pads do not fit X");
  }
  const int64_t oH = off.dim(2), oW = off.dim(3);
  Tensor mask;
  if (ctx.has_input(4)) {
    ASSIGN_OR_RETURN(mask, CastTensor(ctx.input(4), DataType::kDouble));
    if (mask.dims() != std::vector<int64_t>{N, og * K, oH, oW})
      return ctx.Error("mask does not fit the offsets");
  }
  Tensor b(DataType::kDouble, {M});
  if (ctx.has_input(3)) {
    ASSIGN_OR_RETURN(b, CastTensor(ctx.input(3), DataType::kDouble));
    if (b.size() != M) return ctx.Error("bias length must equal the output channels");
  }
  const int64_t Cg = C / group, Mg = M / group, Co = C / og;
  Tensor y(DataType::kDouble, {N, M, oH, oW});
  std::vector<double> col(C * K);
  for (int64_t n = 0; n < N; ++n) {
    for (int64_t oh = 0; oh < oH; ++oh) {
      for (int64_t ow = 0; ow < oW; ++ow) {
        for (int64_t c = 0; c < C; ++c) {
          const int64_t g = c / Co;
          for (int64_t i = 0; i < kH; ++i) {
            for (int64_t j = 0; j < kW; ++j) {
              const int64_t k = i * kW + j;
              const double dy =
                  off.data<double>()[((n * og * 2 * K + g * 2 * K + 2 * k) * oH + oh) * oW + ow];
              const double dx =
                  off.data<double>()[((n * og * 2 * K + g * 2 * K + 2 * k + 1) * oH + oh) * oW +
                                     ow];
              const double py = oh * s[0] - pads[0] + i * d[0] + dy;
              const double px = ow * s[1] - pads[1] + j * d[1] + dx;
              double v = SampleZero(x.data<double>() + (n * C + c) * H * W, H, W, py, px);
              if (mask.is_defined())
                v *= mask.data<double>()[((n * og * K + g * K + k) * oH + oh) * oW + ow];
              col[c * K + k] = v;
            }
          }
        }
        for (int64_t m = 0; m < M; ++m) {
          const int64_t gi = m / Mg;
          double acc = b.data<double>()[m];
          for (int64_t c = 0; c < Cg; ++c) {
            for (int64_t k = 0; k < K; ++k)
              acc += w.data<double>()[(m * Cg + c) * K + k] * col[(gi * Cg + c) * K + k];
          }
          y.mutable_data<double>()[((n * M + m) * oH + oh) * oW + ow] = acc;
        }
      }
    }
  }
  ASSIGN_OR_RETURN(y, CastTensor(y, x0->dtype()));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

Status Col2ImKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x0, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(Tensor x, CastTensor(*x0, DataType::kDouble));
  ASSIGN_OR_RETURN(std::vector<int64_t> image, ctx.IntsInput(1));
  ASSIGN_OR_RETURN(std::vector<int64_t> block, ctx.IntsInput(2));
  if (x.rank() != 3) return ctx.Error("input must have rank 3 (N, C * block size, block count)");
  for (int64_t v : image) {
    if (v < 0) return ctx.Error("image_shape must not be negative");
  }
  ASSIGN_OR_RETURN(Geometry g, MakeGeometry(ctx, image, block, false));
  const int64_t N = x.dim(0), K = g.k_size(), C = x.dim(1) / std::max<int64_t>(K, 1);
  if (x.dim(2) != g.out_size()) return ctx.Error("input length does not match the block count");
  if (x.dim(1) != C * K) return ctx.Error("input's second dim is not a multiple of the block size");
  std::vector<int64_t> dims{N, C};
  dims.insert(dims.end(), image.begin(), image.end());
  Tensor y(DataType::kDouble, dims);
  for (int64_t n = 0; n < N; ++n) {
    Col2Im<double>(x.data<double>() + n * C * K * g.out_size(), C, g,
                   y.mutable_data<double>() + n * C * g.in_size());
  }
  ASSIGN_OR_RETURN(y, CastTensor(y, x0->dtype()));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

Status ConvTransposeKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x0, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(const Tensor* w0, ctx.TensorInput(1));
  if (x0->rank() < 3 || w0->rank() != x0->rank())
    return ctx.Error("X and W must have the same rank >= 3");
  Tensor x = WidenToFloat(*x0), w = WidenToFloat(*w0);
  const int64_t N = x.dim(0), C = x.dim(1), group = ctx.GetInt("group", 1);
  const int64_t Mg = w.dim(1), nd = x.rank() - 2;
  // group 0 divided the channels by zero.
  if (group <= 0) return ctx.Error("group must be positive");
  if (w.dim(0) != C || C % group != 0) return ctx.Error("weights do not match the input channels");
  if (w.dtype() != x.dtype()) return ctx.Error("X and W must have the same element type");
  int64_t M = 0;
  if (__builtin_mul_overflow(Mg, group, &M))
    return ctx.Error("group times W's output channels overflows");
  std::vector<int64_t> k = ctx.GetInts("kernel_shape", Spatial(w));
  std::vector<int64_t> s = ctx.GetInts("strides", std::vector<int64_t>(nd, 1));
  std::vector<int64_t> d = ctx.GetInts("dilations", std::vector<int64_t>(nd, 1));
  std::vector<int64_t> op = ctx.GetInts("output_padding", std::vector<int64_t>(nd, 0));
  std::vector<int64_t> pads = ctx.GetInts("pads", std::vector<int64_t>(2 * nd, 0));
  std::vector<int64_t> out_shape = ctx.GetInts("output_shape");
  const std::string auto_pad = ctx.GetString("auto_pad", "NOTSET");
  if (k != Spatial(w)) return ctx.Error("kernel_shape differs from the weights' spatial dims");
  RETURN_IF_ERROR(CheckWindow(ctx, nd, k, s, d, pads));
  if (static_cast<int64_t>(op.size()) != nd ||
      (!out_shape.empty() && static_cast<int64_t>(out_shape.size()) < nd)) {
    return ctx.Error("output_padding or output_shape does not match the spatial rank");
  }
  for (int64_t o : out_shape) {
    if (o < 0) return ctx.Error("output_shape must not be negative");
  }
  const std::vector<int64_t> in = Spatial(x);
  std::vector<int64_t> out(nd);
  for (int64_t i = 0; i < nd; ++i) {
    RETURN_IF_ERROR(CheckWindowExtent(ctx, in[i], k[i], s[i], d[i], pads[i], pads[i + nd]));
    const int64_t ek = (k[i] - 1) * d[i] + 1;
    // The full output length in int64 (huge strides or output_padding overflowed it).
    const __int128 reach = static_cast<__int128>(s[i]) * (in[i] - 1) + ek;
    const __int128 full128 = reach + op[i];
    if (reach >= (__int128{1} << 62) || full128 >= (__int128{1} << 62) ||
        full128 <= -(__int128{1} << 62)) {
      return ctx.Error("strides, output_padding or the kernel make the output too large");
    }
    const int64_t full = static_cast<int64_t>(full128);
    if (!out_shape.empty() || auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
      const int64_t target =
          out_shape.empty() ? in[i] * s[i] : out_shape[out_shape.size() - nd + i];
      const int64_t total = full - target;
      if (total < 0) {  // a larger output_shape only appends zeros at the end
        pads[i] = pads[i + nd] = 0;
      } else if (auto_pad == "SAME_UPPER") {
        pads[i] = total / 2;
        pads[i + nd] = total - total / 2;
      } else {
        pads[i] = total - total / 2;
        pads[i + nd] = total / 2;
      }
      out[i] = target;
    } else {
      if (auto_pad == "VALID") pads[i] = pads[i + nd] = 0;
      out[i] = full - pads[i] - pads[i + nd];
    }
  }
  for (int64_t o : out) {
    if (o < 0) return ctx.Error("pads leave a negative output size");
  }
  // Geometry of the equivalent forward conv: "in" is Y's spatial, "out" is X's spatial.
  Geometry g;
  g.nd = nd;
  g.in = out;
  g.out = in;
  g.k = k;
  g.s = s;
  g.d = d;
  g.pb.assign(pads.begin(), pads.begin() + nd);
  g.pe.assign(pads.begin() + nd, pads.end());
  std::vector<int64_t> ydims{N, M};
  ydims.insert(ydims.end(), out.begin(), out.end());
  Tensor y(x.dtype(), ydims);
  Tensor b;
  if (ctx.has_input(2)) {
    b = WidenToFloat(ctx.input(2));
    if (b.size() != M || b.dtype() != x.dtype())
      return ctx.Error("B must have one value per output channel");
  }
  RETURN_IF_ERROR(DispatchFloat(x.dtype(), [&](auto tag) -> Status {
    using T = decltype(tag);
    const int64_t Cg = C / group, K = g.k_size(), I = g.out_size(), O = g.in_size();
    // An empty X (or no output channels) scatters nothing; Col2Im's loops would still run once.
    const int64_t col_size = Mg * K * I;
    // The column matrix is written whole by the product before it is read: a buffer kept from call
    // to call (see Scratch) instead of a zero-filled one whose pages are faulted in every call.
    thread_local Scratch col_scratch;
    std::unique_ptr<T[]> col_own;
    T* col = col_size > 0 ? col_scratch.ArrayOrOwn<T>(col_size, col_own) : nullptr;
    const T* px = x.data<T>();
    const T* pw = w.data<T>();
    const T* pb = ctx.has_input(2) ? b.data<T>() : nullptr;
    T* py = y.mutable_data<T>();
    for (int64_t n = 0; n < N; ++n) {
      for (int64_t gi = 0; gi < group; ++gi) {
        T* image = py + (n * M + gi * Mg) * O;
        if (col_size > 0) {
          // col [Mg*K, I] = W_g^T [Mg*K, Cg] * X_g [Cg, I]
          Gemm<T>(true, false, Mg * K, I, Cg, T(1), pw + gi * Cg * Mg * K,
                  px + (n * C + gi * Cg) * I, T(0), col);
        }
        if (nd != 2) {
          if (col_size > 0) Col2Im<T>(col, Mg, g, image);
          if (pb != nullptr) {
            for (int64_t m = 0; m < Mg; ++m) {
              for (int64_t o = 0; o < O; ++o) image[m * O + o] += pb[gi * Mg + m];
            }
          }
          continue;
        }
        // Channels are independent: each task scatters its planes, then adds their bias while
        // the planes are in cache.
        ParallelFor(Mg, kChannelsPerTask, [&](int64_t begin, int64_t end) {
          if (col_size > 0) Col2Im2dChannels<T>(col, begin, end, g, image);
          if (pb == nullptr) return;
          for (int64_t m = begin; m < end; ++m) {
            const T bias = pb[gi * Mg + m];
            for (int64_t o = 0; o < O; ++o) image[m * O + o] += bias;
          }
        });
      }
    }
    return OkStatus();
  }));
  if (y.dtype() != x0->dtype()) {
    ASSIGN_OR_RETURN(y, CastTensor(y, x0->dtype()));
  }
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

enum class Pool { kMax, kAvg, kLp };

// LpPool's p: an int from version 2 on, a float in LpPool-1 / GlobalLpPool-1.
double LpPoolExponent(const KernelContext& ctx) {
  const ir::Attribute* a = ctx.attr("p");
  if (a == nullptr) return 2.0;
  return a->kind() == ir::AttributeKind::kFloat ? a->f : static_cast<double>(a->i);
}

template <Pool kind>
Status PoolKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x0, ctx.TensorInput(0));
  if (x0->rank() < 3) return ctx.Error("input must have rank >= 3");
  Tensor x = WidenToFloat(*x0);
  const std::vector<int64_t> kernel = ctx.GetInts("kernel_shape");
  ASSIGN_OR_RETURN(Geometry g,
                   MakeGeometry(ctx, Spatial(x), kernel, ctx.GetInt("ceil_mode", 0) != 0));
  const bool count_pad = ctx.GetInt("count_include_pad", 0) != 0;
  const double p = LpPoolExponent(ctx);
  const bool col_major = ctx.GetInt("storage_order", 0) != 0;
  const int64_t N = x.dim(0), C = x.dim(1), I = g.in_size(), O = g.out_size();
  std::vector<int64_t> ydims{N, C};
  ydims.insert(ydims.end(), g.out.begin(), g.out.end());
  Tensor y = Tensor::Uninitialized(x.dtype(), ydims);  // both paths write every element
  const bool wants_indices = ctx.num_outputs() > 1 && ctx.wants_output(1);
  Tensor idx(DataType::kInt64, wants_indices ? ydims : std::vector<int64_t>{0});
  const std::vector<int64_t> in_strides = Strides(g.in);
  if (kind != Pool::kMax && !ir::IsFloatingPoint(x.dtype()))
    return UnsupportedType(x.dtype(), "pooling");
  // Column-major strides for storage_order=1 indices.
  std::vector<int64_t> cm_strides(g.nd, 1);
  for (int64_t i = 1; i < g.nd; ++i) cm_strides[i] = cm_strides[i - 1] * g.in[i - 1];
  // 2-D float max/average pooling without the indices output: a vector sweep per channel.
  const bool vector_path =
      kind != Pool::kLp && g.nd == 2 && x.dtype() == DataType::kFloat && !wants_indices;
  if (vector_path) {
    const Window2d win = ToWindow2d(g);
    const float* px = x.data<float>();
    float* py = y.mutable_data<float>();
    // Planes split among threads as the depthwise convolution's are.
    ParallelFor(N * C, DepthwisePlanesPerTask(O), [&](int64_t begin, int64_t end) {
      for (int64_t nc = begin; nc < end; ++nc) {
        if (kind == Pool::kMax) {
          Vec().max_pool2d_f32(px + nc * I, win, py + nc * O);
        } else {
          Vec().average_pool2d_f32(px + nc * I, win, count_pad, py + nc * O);
        }
      }
    });
  }
  if (!vector_path)
    RETURN_IF_ERROR(DispatchNumeric(x.dtype(), [&](auto tag) -> Status {
      using T = decltype(tag);
      const T* px = x.data<T>();
      T* py = y.mutable_data<T>();
      int64_t* pi = idx.mutable_data<int64_t>();
      if (O == 0) return OkStatus();  // an empty input with SAME padding: nothing to compute
      // Per axis and output position: the window cells inside the input (only those are read: a
      // window may be far wider than the input), as the first one's input position and their count,
      // and the cells count_include_pad counts (those inside the padded input). The same for every
      // channel.
      struct AxisCells {
        int64_t first_q, span, counted;
      };
      std::vector<std::vector<AxisCells>> cells(g.nd);
      for (int64_t i = 0; i < g.nd; ++i) {
        for (int64_t o = 0; o < g.out[i]; ++o) {
          const int64_t first = o * g.s[i] - g.pb[i];
          int64_t lo, hi, pad_lo, pad_hi;
          WindowCellsIn(first, g.d[i], g.k[i], 0, g.in[i], &lo, &hi);
          WindowCellsIn(first, g.d[i], g.k[i], -g.pb[i], g.in[i] + g.pe[i], &pad_lo, &pad_hi);
          cells[i].push_back({first + lo * g.d[i], hi - lo, count_pad ? pad_hi - pad_lo : hi - lo});
        }
      }
      std::vector<int64_t> k_span(g.nd), kk(g.nd);
      for (int64_t nc = 0; nc < N * C; ++nc) {
        const T* src = px + nc * I;
        std::vector<int64_t> oi(g.nd, 0);
        int64_t ol = 0;
        do {
          double acc = kind == Pool::kMax ? -std::numeric_limits<double>::infinity() : 0;
          int64_t best = -1, count = 1;
          bool any_inside = true;
          for (int64_t i = 0; i < g.nd; ++i) {
            const AxisCells& c = cells[i][oi[i]];
            k_span[i] = c.span;
            any_inside = any_inside && c.span > 0;
            count *= c.counted;
          }
          std::fill(kk.begin(), kk.end(), 0);
          if (any_inside) do {
              int64_t off = 0, cm_off = 0;
              for (int64_t i = 0; i < g.nd; ++i) {
                const int64_t q = cells[i][oi[i]].first_q + kk[i] * g.d[i];
                off += q * in_strides[i];
                cm_off += q * cm_strides[i];
              }
              const double v = src[off];
              if (kind == Pool::kMax) {
                if (v > acc || best < 0) {
                  acc = v;
                  best = col_major ? cm_off : off;
                }
              } else if (kind == Pool::kAvg) {
                acc += v;
              } else {
                acc += std::pow(std::abs(v), p);
              }
            } while (Next(kk, k_span));
          double r = acc;
          if (kind == Pool::kAvg) r = count > 0 ? acc / count : 0;
          if (kind == Pool::kLp) r = std::pow(acc, 1.0 / p);
          // A max window entirely in the padding is -inf: saturated for integer types (casting it
          // is undefined; found by the run fuzzer on a uint8 MaxPool).
          py[nc * O + ol] = SaturatingCast<T>(r);
          if (wants_indices) pi[nc * O + ol] = best < 0 ? 0 : nc * I + best;
          ++ol;
        } while (Next(oi, g.out));
      }
      return OkStatus();
    }));
  if (y.dtype() != x0->dtype()) {
    ASSIGN_OR_RETURN(y, CastTensor(y, x0->dtype()));
  }
  ctx.set_output(0, std::move(y));
  if (ctx.num_outputs() > 1) ctx.set_output(1, std::move(idx));
  return OkStatus();
}

template <Pool kind>
Status GlobalPoolKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x0, ctx.TensorInput(0));
  if (x0->rank() < 3) return ctx.Error("input must have rank >= 3");
  Tensor x = WidenToFloat(*x0);
  const int64_t N = x.dim(0), C = x.dim(1), I = DimProduct(x.dims(), 2, x.rank());
  const double p = LpPoolExponent(ctx);
  std::vector<int64_t> ydims(x.rank(), 1);
  ydims[0] = N;
  ydims[1] = C;
  Tensor y(x.dtype(), ydims);
  RETURN_IF_ERROR(DispatchFloat(x.dtype(), [&](auto tag) -> Status {
    using T = decltype(tag);
    const T* px = x.data<T>();
    T* py = y.mutable_data<T>();
    if constexpr (kind == Pool::kAvg && std::is_same_v<T, float>) {
      // The planes' sums in vectors of doubles: one running double took ~2 cycles an element
      // (its additions' latency): MobileNetV2's 1280 planes of 7x7 0.037-0.047 ms, now 0.017.
      std::vector<double> sums(static_cast<size_t>(N * C));
      Vec().row_sums_f32(px, N * C, I, sums.data());
      for (int64_t nc = 0; nc < N * C; ++nc) py[nc] = static_cast<float>(sums[nc] / I);
      return OkStatus();
    }
    for (int64_t nc = 0; nc < N * C; ++nc) {
      double acc = kind == Pool::kMax ? -std::numeric_limits<double>::infinity() : 0;
      for (int64_t i = 0; i < I; ++i) {
        const double v = px[nc * I + i];
        if (kind == Pool::kMax)
          acc = std::max(acc, v);
        else if (kind == Pool::kAvg)
          acc += v;
        else
          acc += std::pow(std::abs(v), p);
      }
      if (kind == Pool::kAvg) acc /= I;
      if (kind == Pool::kLp) acc = std::pow(acc, 1.0 / p);
      py[nc] = static_cast<T>(acc);
    }
    return OkStatus();
  }));
  if (y.dtype() != x0->dtype()) {
    ASSIGN_OR_RETURN(y, CastTensor(y, x0->dtype()));
  }
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

Status MaxUnpoolKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(std::vector<int64_t> ind, ctx.IntsInput(1));
  if (x->rank() < 3) return ctx.Error("X must have rank >= 3");
  if (static_cast<int64_t>(ind.size()) != x->size()) return ctx.Error("I must have X's shape");
  const int64_t nd = x->rank() - 2;
  std::vector<int64_t> dims;
  {
    const std::vector<int64_t> k = ctx.GetInts("kernel_shape");
    const std::vector<int64_t> s = ctx.GetInts("strides", std::vector<int64_t>(nd, 1));
    const std::vector<int64_t> pads = ctx.GetInts("pads", std::vector<int64_t>(2 * nd, 0));
    RETURN_IF_ERROR(CheckWindow(ctx, nd, k, s, std::vector<int64_t>(nd, 1), pads));
    dims = {x->dim(0), x->dim(1)};
    for (int64_t i = 0; i < nd; ++i) {
      // Huge strides or kernel sizes overflowed the unpooled length.
      RETURN_IF_ERROR(CheckWindowExtent(ctx, x->dim(2 + i), k[i], s[i], 1, pads[i], pads[i + nd]));
      const __int128 len = static_cast<__int128>(x->dim(2 + i) - 1) * s[i] + k[i];
      if (len >= (__int128{1} << 62))
        return ctx.Error("strides and kernel_shape make the output too large");
      dims.push_back((x->dim(2 + i) - 1) * s[i] + k[i] - pads[i] - pads[i + nd]);
      if (dims.back() < 0) return ctx.Error("the pads are larger than the unpooled output");
    }
  }
  Tensor y(x->dtype(), dims);
  for (int64_t i = 0; i < x->size(); ++i) {
    if (ind[i] < 0 || ind[i] >= y.size()) return ctx.Error("index out of range");
    CopyElements(*x, i, y, ind[i], 1);
  }
  if (ctx.has_input(2)) {  // pad the inferred result at the end up to output_shape
    ASSIGN_OR_RETURN(std::vector<int64_t> out_dims, ctx.IntsInput(2));
    if (out_dims.size() != dims.size()) return ctx.Error("output_shape rank mismatch");
    for (int64_t d : out_dims) {
      if (d < 0) return ctx.Error("output_shape must not be negative");
    }
    Tensor z(x->dtype(), out_dims);
    std::vector<int64_t> i(dims.size(), 0);
    const std::vector<int64_t> zs = Strides(out_dims);
    for (int64_t lin = 0; lin < y.size(); ++lin) {
      int64_t off = 0;
      bool ok = true;
      for (size_t d = 0; d < dims.size(); ++d) {
        if (i[d] >= out_dims[d]) ok = false;
        off += i[d] * zs[d];
      }
      if (ok) CopyElements(y, lin, z, off, 1);
      for (int64_t d = static_cast<int64_t>(dims.size()) - 1; d >= 0; --d) {
        if (++i[d] < dims[d]) break;
        i[d] = 0;
      }
    }
    y = std::move(z);
  }
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace

void RegisterConvPoolKernels(KernelRegistry& r) {
  r.Register("", "Conv", 1, ConvKernel);
  r.Register("", "ConvInteger", 10, ConvIntegerKernel);
  r.Register("", "QLinearConv", 10, QLinearConvKernel);
  r.Register("", "DeformConv", 19, DeformConvKernel);
  r.Register("", "Col2Im", 18, Col2ImKernel);
  r.Register("", "ConvTranspose", 1, ConvTransposeKernel);
  r.Register("", "MaxPool", 1, PoolKernel<Pool::kMax>);
  r.Register("", "AveragePool", 1, PoolKernel<Pool::kAvg>);
  r.Register("", "LpPool", 1, PoolKernel<Pool::kLp>);
  r.Register("", "GlobalMaxPool", 1, GlobalPoolKernel<Pool::kMax>);
  r.Register("", "GlobalAveragePool", 1, GlobalPoolKernel<Pool::kAvg>);
  r.Register("", "GlobalLpPool", 1, GlobalPoolKernel<Pool::kLp>);  // p is a float in version 1
  r.Register("", "MaxUnpool", 9, MaxUnpoolKernel);
}

}  // namespace onnx_opt::interpreter
