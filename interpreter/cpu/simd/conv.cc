// Per-channel 2-D window kernels: depthwise convolution and pooling. Each output row is built by
// sweeping whole input rows once per kernel cell over the range of outputs whose window cell falls
// inside the input (worked out up front), so the inner loop has no bounds checks and vectorizes.
#include "interpreter/cpu/simd/simd.h"

namespace onnx_opt::interpreter::ONNX_OPT_SIMD_NS {
namespace {

// Outputs o in [*lo, *hi) read input position o * stride - pad + offset inside [0, size).
void ValidRange(int64_t size, int64_t out, int64_t stride, int64_t pad, int64_t offset, int64_t* lo,
                int64_t* hi) {
  const int64_t shift = pad - offset;  // o * stride >= shift and o * stride < size + shift
  int64_t l = shift <= 0 ? 0 : (shift + stride - 1) / stride;
  int64_t h = size + shift <= 0 ? 0 : (size + shift - 1) / stride + 1;
  *lo = l < out ? l : out;
  *hi = h < out ? h : out;
  if (*hi < *lo) *hi = *lo;
}

// For each output row and each kernel cell inside the input, calls row(oh, input_row, kw, lo, hi, iw0)
// with outputs [lo, hi) of that row reading input columns ow * stride_w + iw0.
template <typename F>
void ForEachWindowRow(const Window2d& w, F row) {
  for (int64_t oh = 0; oh < w.out_h; ++oh) {
    for (int64_t kh = 0; kh < w.kernel_h; ++kh) {
      const int64_t ih = oh * w.stride_h - w.pad_top + kh * w.dilation_h;
      if (ih < 0 || ih >= w.in_h) continue;
      for (int64_t kw = 0; kw < w.kernel_w; ++kw) {
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
  int64_t count = 0;
  for (int64_t k = 0; k < kernel; ++k) {
    const int64_t p = o * stride - pad_begin + k * dilation;
    count += (p >= lo_bound && p < hi_bound) ? 1 : 0;
  }
  return count;
}

}  // namespace

void DepthwiseConv2dF32(const float* x, const float* w, float bias, const Window2d& win, float* y) {
  for (int64_t i = 0; i < win.out_h * win.out_w; ++i) y[i] = bias;
  const int64_t sw = win.stride_w;
  ForEachWindowRow(win, [&](int64_t oh, int64_t ih, int64_t kh, int64_t kw, int64_t lo, int64_t hi, int64_t iw0) {
    const float wv = w[kh * win.kernel_w + kw];
    float* out = y + oh * win.out_w;
    const float* in = x + ih * win.in_w + iw0;
    if (sw == 1) {
      for (int64_t o = lo; o < hi; ++o) out[o] += wv * in[o];
    } else {
      for (int64_t o = lo; o < hi; ++o) out[o] += wv * in[o * sw];
    }
  });
}

void MaxPool2dF32(const float* x, const Window2d& win, float* y) {
  for (int64_t i = 0; i < win.out_h * win.out_w; ++i) y[i] = -__builtin_inff();
  const int64_t sw = win.stride_w;
  ForEachWindowRow(win, [&](int64_t oh, int64_t ih, int64_t, int64_t, int64_t lo, int64_t hi, int64_t iw0) {
    float* out = y + oh * win.out_w;
    const float* in = x + ih * win.in_w + iw0;
    for (int64_t o = lo; o < hi; ++o) {
      const float v = in[o * sw];
      out[o] = v > out[o] ? v : out[o];
    }
  });
}

void AveragePool2dF32(const float* x, const Window2d& win, bool count_include_pad, float* y) {
  for (int64_t i = 0; i < win.out_h * win.out_w; ++i) y[i] = 0;
  const int64_t sw = win.stride_w;
  ForEachWindowRow(win, [&](int64_t oh, int64_t ih, int64_t, int64_t, int64_t lo, int64_t hi, int64_t iw0) {
    float* out = y + oh * win.out_w;
    const float* in = x + ih * win.in_w + iw0;
    for (int64_t o = lo; o < hi; ++o) out[o] += in[o * sw];
  });
  // The window is a product of its two axes, so is its cell count.
  const int64_t h_lo = count_include_pad ? -win.pad_top : 0, h_hi = win.in_h + (count_include_pad ? win.pad_bottom : 0);
  const int64_t w_lo = count_include_pad ? -win.pad_left : 0, w_hi = win.in_w + (count_include_pad ? win.pad_right : 0);
  for (int64_t oh = 0; oh < win.out_h; ++oh) {
    const int64_t rows = CellsInside(oh, win.stride_h, win.pad_top, win.kernel_h, win.dilation_h, h_lo, h_hi);
    for (int64_t ow = 0; ow < win.out_w; ++ow) {
      const int64_t cols = CellsInside(ow, win.stride_w, win.pad_left, win.kernel_w, win.dilation_w, w_lo, w_hi);
      const int64_t count = rows * cols;
      y[oh * win.out_w + ow] = count > 0 ? y[oh * win.out_w + ow] / static_cast<float>(count) : 0.0f;
    }
  }
}

}  // namespace onnx_opt::interpreter::ONNX_OPT_SIMD_NS
