// Image operators: Resize (all coordinate modes, nearest/linear/cubic, antialias, axes,
// keep_aspect_ratio_policy), Upsample, CenterCropPad.
#include <algorithm>
#include <cmath>
#include <limits>

#include "interpreter/kernels/common.h"
#include "interpreter/tensor_limit.h"

namespace onnx_opt::interpreter {
namespace {

using absl::OkStatus;
using absl::Status;
using absl::StatusOr;

struct Tap {
  int64_t index;
  double weight;
};

double CubicCoeff(double x, double a) {
  x = std::abs(x);
  if (x <= 1) return (a + 2) * x * x * x - (a + 3) * x * x + 1;
  if (x < 2) return a * x * x * x - 5 * a * x * x + 8 * a * x - 4 * a;
  return 0;
}

struct AxisPlan {
  std::vector<std::vector<Tap>> taps;  // per output position
  std::vector<bool> outside;           // tf_crop_and_resize extrapolation
};

struct ResizeParams {
  std::string mode, coord, nearest;
  double cubic_a;
  bool exclude_outside, antialias;
};

double Transform(const std::string& coord, double x, double scale, int64_t in, int64_t out,
                 double roi_s, double roi_e) {
  if (coord == "half_pixel") return (x + 0.5) / scale - 0.5;
  if (coord == "pytorch_half_pixel") return out > 1 ? (x + 0.5) / scale - 0.5 : 0;
  if (coord == "align_corners") {
    const double len = scale * in;  // the reference uses the unrounded output length
    return out == 1 ? 0 : x * (in - 1) / (len - 1);
  }
  if (coord == "asymmetric") return x / scale;
  if (coord == "tf_half_pixel_for_nn") return (x + 0.5) / scale;
  if (coord == "half_pixel_symmetric") {
    const double adj = out / (scale * in);
    const double center = in / 2.0;
    return center * (1 - adj) + (x + 0.5) / scale - 0.5;
  }
  if (coord == "tf_crop_and_resize") {
    return out > 1 ? roi_s * (in - 1) + x * (roi_e - roi_s) * (in - 1) / (out - 1)
                   : 0.5 * (roi_s + roi_e) * (in - 1);
  }
  return (x + 0.5) / scale - 0.5;
}

int64_t NearestIndex(const std::string& mode, double x) {
  if (mode == "floor") return static_cast<int64_t>(std::floor(x));
  if (mode == "ceil") return static_cast<int64_t>(std::ceil(x));
  const double f = std::floor(x);
  if (x - f == 0.5) return static_cast<int64_t>(mode == "round_prefer_ceil" ? f + 1 : f);
  return static_cast<int64_t>(std::round(x));
}

AxisPlan PlanAxis(const ResizeParams& p, int64_t in, int64_t out, double scale, double roi_s,
                  double roi_e) {
  AxisPlan plan;
  plan.taps.resize(out);
  plan.outside.assign(out, false);
  for (int64_t o = 0; o < out; ++o) {
    const double x = Transform(p.coord, o, scale, in, out, roi_s, roi_e);
    // A NaN coordinate (from a NaN or infinite roi) is outside too: its tap index would be
    // undefined.
    if (p.coord == "tf_crop_and_resize" && !(x >= 0 && x <= in - 1)) {
      plan.outside[o] = true;
      continue;
    }
    auto& taps = plan.taps[o];
    if (p.mode == "nearest") {
      taps.push_back({std::clamp<int64_t>(NearestIndex(p.nearest, x), 0, in - 1), 1.0});
      continue;
    }
    const double f = std::floor(x);
    const double ratio = x - f;
    const int64_t base = static_cast<int64_t>(f);
    std::vector<std::pair<int64_t, double>> raw;
    const bool aa = p.antialias && scale < 1;
    if (p.mode == "linear") {
      if (aa) {
        const int64_t start = static_cast<int64_t>(std::floor(-1 / scale) + 1);
        const int64_t fp = 2 - 2 * start;
        for (int64_t k = start; k < start + fp; ++k) {
          raw.push_back({base + k, std::clamp(1 - std::abs((k - ratio) * scale), 0.0, 1.0)});
        }
      } else {
        raw.push_back({base, 1 - ratio});
        raw.push_back({base + 1, ratio});
      }
    } else {  // cubic
      const double s = aa ? scale : 1.0;
      const int64_t start = aa ? static_cast<int64_t>(std::floor(-2 / s) + 1) : -1;
      const int64_t end = 2 - start;
      for (int64_t k = start; k < end; ++k)
        raw.push_back({base + k, CubicCoeff(s * (k - ratio), p.cubic_a)});
    }
    double total = 0;
    for (auto& [i, w] : raw) {
      if (p.exclude_outside && (i < 0 || i >= in)) w = 0;
      total += w;
    }
    const bool normalize = aa || p.exclude_outside;
    for (auto& [i, w] : raw) {
      if (w == 0) continue;
      taps.push_back({std::clamp<int64_t>(i, 0, in - 1), normalize && total != 0 ? w / total : w});
    }
  }
  return plan;
}

// `out` empty: sizes from scales (floor); `scales` empty: scales from `out`.
// Whether every output position of every axis reads one input position with weight 1 (nearest mode,
// nothing extrapolated): the resize is then a gather of elements.
bool IsGather(const std::vector<AxisPlan>& plans) {
  for (const AxisPlan& plan : plans) {
    for (size_t o = 0; o < plan.taps.size(); ++o) {
      if (plan.outside[o] || plan.taps[o].size() != 1 || plan.taps[o][0].weight != 1.0)
        return false;
    }
  }
  return true;
}

// The gather form of Resize, moving elements by their storage size: no arithmetic, so every element
// type keeps its exact value (the general path computes in double).
StatusOr<Tensor> GatherResize(const Tensor& x, const std::vector<AxisPlan>& plans,
                              const std::vector<int64_t>& out) {
  const int64_t r = x.rank();
  const std::vector<int64_t> xs = Strides(x.dims());
  // Input offset of each output position, per axis.
  std::vector<std::vector<int64_t>> offsets(r);
  for (int64_t d = 0; d < r; ++d) {
    for (const std::vector<Tap>& taps : plans[d].taps) offsets[d].push_back(taps[0].index * xs[d]);
  }
  Tensor y = Tensor::Uninitialized(x.dtype(), out);
  const int64_t n = y.size(), inner = out[r - 1];
  if (n == 0) return y;
  RETURN_IF_ERROR(DispatchBySize(x.dtype(), [&](auto tag) -> Status {
    using T = decltype(tag);
    const T* px = x.data<T>();
    T* py = y.mutable_data<T>();
    const std::vector<int64_t>& last = offsets[r - 1];
    std::vector<int64_t> idx(r, 0);
    for (int64_t o = 0; o < n; o += inner) {
      int64_t base = 0;
      for (int64_t d = 0; d + 1 < r; ++d) base += offsets[d][idx[d]];
      for (int64_t j = 0; j < inner; ++j) py[o + j] = px[base + last[j]];
      for (int64_t d = r - 2; d >= 0; --d) {
        if (++idx[d] < out[d]) break;
        idx[d] = 0;
      }
    }
    return OkStatus();
  }));
  return y;
}

// Whether axes [0, count) map every output position to the same input position with weight 1 (the
// batch and channel axes of an image resize).
bool LeadingAxesUnchanged(const std::vector<AxisPlan>& plans, int64_t count) {
  for (int64_t d = 0; d < count; ++d) {
    const AxisPlan& plan = plans[d];
    for (size_t o = 0; o < plan.taps.size(); ++o) {
      if (plan.outside[o] || plan.taps[o].size() != 1 || plan.taps[o][0].weight != 1.0 ||
          plan.taps[o][0].index != static_cast<int64_t>(o)) {
        return false;
      }
    }
  }
  return true;
}

// A float resize over the last two axes only (linear, cubic, antialiased): per output element the
// same double sum over the same taps in the same order as the general loop below, so the same
// result, without its per-element bookkeeping over every axis.
Tensor ResizeLastTwoAxesFloat(const Tensor& x, const std::vector<AxisPlan>& plans,
                              const std::vector<int64_t>& out, double extrapolation) {
  const int64_t r = x.rank(), H = x.dim(r - 2), W = x.dim(r - 1), OH = out[r - 2], OW = out[r - 1];
  const int64_t planes = NumElements(out) / std::max<int64_t>(OH * OW, 1);
  const AxisPlan& ph = plans[r - 2];
  const AxisPlan& pw = plans[r - 1];
  Tensor y = Tensor::Uninitialized(DataType::kFloat, out);
  const float* px = x.data<float>();
  float* py = y.mutable_data<float>();
  for (int64_t plane = 0; plane < planes; ++plane) {
    const float* src = px + plane * H * W;
    float* dst = py + plane * OH * OW;
    for (int64_t oh = 0; oh < OH; ++oh) {
      for (int64_t ow = 0; ow < OW; ++ow) {
        double acc = 0;
        if (ph.outside[oh] || pw.outside[ow]) {
          acc = extrapolation;
        } else {
          for (const Tap& th : ph.taps[oh]) {
            for (const Tap& tw : pw.taps[ow])
              acc += th.weight * tw.weight * src[th.index * W + tw.index];
          }
        }
        dst[oh * OW + ow] = static_cast<float>(acc);
      }
    }
  }
  return y;
}

Status ResizeImpl(KernelContext& ctx, const Tensor& x0, std::vector<double> scales,
                  std::vector<int64_t> out, std::vector<double> roi, const ResizeParams& p) {
  const int64_t r = x0.rank();
  if (!scales.empty() && static_cast<int64_t>(scales.size()) != r)
    return ctx.Error("needs one scale per axis");
  if (!out.empty() && static_cast<int64_t>(out.size()) != r)
    return ctx.Error("needs one size per axis");
  for (double s : scales) {
    if (!(s > 0) || !std::isfinite(s)) return ctx.Error("scales must be positive");
  }
  if (scales.empty() && out.empty()) return ctx.Error("needs scales or sizes");
  if (scales.empty()) {
    for (int64_t d = 0; d < r; ++d) {
      if (out[d] < 0 || x0.dim(d) == 0)
        return ctx.Error("sizes must be non-negative, of a non-empty input");
    }
    scales.assign(r, 1.0);
    for (int64_t d = 0; d < r; ++d) scales[d] = static_cast<double>(out[d]) / x0.dim(d);
  }
  if (out.empty()) {
    out.resize(r);
    for (int64_t d = 0; d < r; ++d) {
      // Checked before the conversion: a huge scale's size has no int64 value.
      const double size = std::floor(x0.dim(d) * scales[d]);
      if (!(size < 0x1p62)) return ctx.Error("the output would be too large");
      out[d] = static_cast<int64_t>(size);
    }
  }
  // A hostile scale must not become an allocation of any size.
  double elements = 1;
  for (int64_t d : out) elements *= static_cast<double>(d);
  if (elements > static_cast<double>(int64_t{1} << 32))
    return ctx.Error("the output would be too large");
  // An empty output needs no plan (whose per-position taps, on another axis, could still be huge).
  if (elements == 0) {
    ctx.set_output(0, Tensor(x0.dtype(), out));
    return OkStatus();
  }
  // The plan holds a tap list per output position of each axis: one long axis (a [1] input resized
  // to 2^32) would take far more memory than the output before the output is ever allocated.
  double positions = 0;
  for (int64_t d : out) positions += static_cast<double>(d);
  if (positions * 64 > static_cast<double>(MaxTensorBytes())) {
    return absl::ResourceExhaustedError(
        absl::StrCat(ctx.node().Describe(), ": resizing to ", DimsToString(out),
                     " needs more memory than the interpreter may allocate"));
  }
  if (roi.size() != static_cast<size_t>(2 * r)) {
    roi.assign(2 * r, 0);
    for (int64_t d = 0; d < r; ++d) roi[r + d] = 1;
  }
  std::vector<AxisPlan> plans(r);
  for (int64_t d = 0; d < r; ++d)
    plans[d] = PlanAxis(p, x0.dim(d), out[d], scales[d], roi[d], roi[r + d]);
  if (r > 0 && !x0.is_string() && IsGather(plans)) {
    ASSIGN_OR_RETURN(Tensor y, GatherResize(x0, plans, out));
    ctx.set_output(0, std::move(y));
    return OkStatus();
  }
  if (r >= 2 && x0.dtype() == DataType::kFloat && LeadingAxesUnchanged(plans, r - 2)) {
    ctx.set_output(
        0, ResizeLastTwoAxesFloat(x0, plans, out, ctx.GetFloat("extrapolation_value", 0.0f)));
    return OkStatus();
  }
  Tensor x = WidenToFloat(x0);
  ASSIGN_OR_RETURN(Tensor xd, CastTensor(x, DataType::kDouble));
  Tensor y(DataType::kDouble, out);
  const double extrap = ctx.GetFloat("extrapolation_value", 0.0f);
  const std::vector<int64_t> xs = Strides(x.dims());
  const double* px = xd.data<double>();
  double* py = y.mutable_data<double>();
  std::vector<int64_t> idx(r, 0);
  const int64_t n = y.size();
  std::vector<size_t> tap(r, 0);
  for (int64_t o = 0; o < n; ++o) {
    bool outside = false;
    for (int64_t d = 0; d < r; ++d) outside |= plans[d].outside[idx[d]];
    double acc = 0;
    if (outside) {
      acc = extrap;
    } else {
      // Sum over the tensor product of taps.
      std::fill(tap.begin(), tap.end(), 0);
      while (true) {
        double w = 1;
        int64_t off = 0;
        for (int64_t d = 0; d < r; ++d) {
          const Tap& t = plans[d].taps[idx[d]][tap[d]];
          w *= t.weight;
          off += t.index * xs[d];
        }
        acc += w * px[off];
        int64_t d = r - 1;
        for (; d >= 0; --d) {
          if (++tap[d] < plans[d].taps[idx[d]].size()) break;
          tap[d] = 0;
        }
        if (d < 0) break;
      }
    }
    py[o] = acc;
    for (int64_t d = r - 1; d >= 0; --d) {
      if (++idx[d] < out[d]) break;
      idx[d] = 0;
    }
  }
  if (!ir::IsFloatingPoint(x0.dtype())) {
    for (int64_t i = 0; i < n; ++i) py[i] = std::nearbyint(py[i]);
  }
  ASSIGN_OR_RETURN(Tensor res, CastTensor(y, x0.dtype()));
  ctx.set_output(0, std::move(res));
  return OkStatus();
}

StatusOr<std::vector<double>> DoublesInput(const KernelContext& ctx, size_t i) {
  if (!ctx.has_input(i) || ctx.input(i).size() == 0) return std::vector<double>{};
  ASSIGN_OR_RETURN(Tensor t, CastTensor(ctx.input(i), DataType::kDouble));
  return t.ToVector<double>();
}

Status ResizeKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x, ctx.TensorInput(0));
  const int64_t r = x->rank();
  ResizeParams p;
  p.mode = ctx.GetString("mode", "nearest");
  p.coord = ctx.GetString("coordinate_transformation_mode",
                          ctx.opset() < 11 ? "asymmetric" : "half_pixel");
  p.nearest = ctx.GetString("nearest_mode", ctx.opset() < 11 ? "floor" : "round_prefer_floor");
  p.cubic_a = ctx.GetFloat("cubic_coeff_a", -0.75f);
  p.exclude_outside = ctx.GetInt("exclude_outside", 0) != 0;
  p.antialias = ctx.GetInt("antialias", 0) != 0;
  std::vector<double> roi, scales;
  std::vector<int64_t> sizes;
  if (ctx.opset() < 11) {
    ASSIGN_OR_RETURN(scales, DoublesInput(ctx, 1));
  } else {
    ASSIGN_OR_RETURN(roi, DoublesInput(ctx, 1));
    ASSIGN_OR_RETURN(scales, DoublesInput(ctx, 2));
    if (ctx.has_input(3) && ctx.input(3).size() > 0) {
      ASSIGN_OR_RETURN(sizes, ctx.IntsInput(3));
    }
  }
  std::vector<int64_t> axes = ctx.GetInts("axes");
  if (!axes.empty()) {
    ASSIGN_OR_RETURN(axes, NormalizeAxes(axes, r));
    // scales, sizes and roi hold values for the listed axes only.
    const size_t count = axes.size();
    if ((!scales.empty() && scales.size() != count) || (!sizes.empty() && sizes.size() != count) ||
        (!roi.empty() && roi.size() != 2 * count)) {
      return ctx.Error(absl::StrCat(
          "scales, sizes and roi must have 1, 1 and 2 values per axis of the ", count, " in axes"));
    }
    std::vector<double> full_scales(r, 1.0), full_roi;
    std::vector<int64_t> full_sizes = x->dims();
    if (!roi.empty()) {
      full_roi.assign(2 * r, 0);
      for (int64_t d = 0; d < r; ++d) full_roi[r + d] = 1;
    }
    for (size_t k = 0; k < axes.size(); ++k) {
      if (!scales.empty()) full_scales[axes[k]] = scales[k];
      if (!sizes.empty()) full_sizes[axes[k]] = sizes[k];
      if (!roi.empty()) {
        full_roi[axes[k]] = roi[k];
        full_roi[r + axes[k]] = roi[axes.size() + k];
      }
    }
    if (!scales.empty()) scales = full_scales;
    if (!sizes.empty()) sizes = full_sizes;
    roi = full_roi;
  } else {
    for (int64_t d = 0; d < r; ++d) axes.push_back(d);
  }
  const std::string policy = ctx.GetString("keep_aspect_ratio_policy", "stretch");
  if (!sizes.empty() && policy != "stretch") {
    if (static_cast<int64_t>(sizes.size()) != r) return ctx.Error("sizes has the wrong length");
    double s = policy == "not_larger" ? 1e300 : 0;
    for (int64_t a : axes) {
      if (x->dim(a) == 0) return ctx.Error("keep_aspect_ratio_policy needs a non-empty input");
      const double v = static_cast<double>(sizes[a]) / x->dim(a);
      s = policy == "not_larger" ? std::min(s, v) : std::max(s, v);
    }
    scales.assign(r, 1.0);
    for (int64_t a : axes) {
      scales[a] = s;
      const double size = std::round(s * x->dim(a));
      if (!(size >= 0 && size < 0x1p62)) return ctx.Error("the output would be too large");
      sizes[a] = static_cast<int64_t>(size);
    }
    return ResizeImpl(ctx, *x, scales, sizes, roi, p);
  }
  if (scales.empty() && sizes.empty()) return ctx.Error("either scales or sizes is required");
  if (!scales.empty() && static_cast<int64_t>(scales.size()) != r)
    return ctx.Error("scales has the wrong length");
  if (!sizes.empty()) return ResizeImpl(ctx, *x, {}, sizes, roi, p);
  return ResizeImpl(ctx, *x, scales, {}, roi, p);
}

Status UpsampleKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x, ctx.TensorInput(0));
  std::vector<double> scales;
  if (ctx.opset() >= 9) {
    ASSIGN_OR_RETURN(scales, DoublesInput(ctx, 1));
  } else if (ctx.opset() >= 7) {
    for (float f : ctx.GetFloats("scales")) scales.push_back(f);
  } else {
    // Upsample-1: 4-D input, the last two axes scaled by height_scale and width_scale.
    if (x->rank() != 4) return ctx.Error("Upsample-1 needs a 4-D input");
    scales = {1.0, 1.0, ctx.GetFloat("height_scale", 0.0f), ctx.GetFloat("width_scale", 0.0f)};
  }
  ResizeParams p;
  p.mode = ctx.GetString("mode", "nearest");
  if (p.mode == "bilinear") p.mode = "linear";
  p.coord = "asymmetric";
  p.nearest = "floor";
  p.cubic_a = -0.75;
  p.exclude_outside = false;
  p.antialias = false;
  return ResizeImpl(ctx, *x, scales, {}, {}, p);
}

Status CenterCropPadKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(std::vector<int64_t> shape, ctx.IntsInput(1));
  const int64_t r = x->rank();
  std::vector<int64_t> axes = ctx.GetInts("axes");
  if (axes.empty()) {
    for (int64_t d = 0; d < r; ++d) axes.push_back(d);
  }
  ASSIGN_OR_RETURN(axes, NormalizeAxes(axes, r));
  if (shape.size() != axes.size()) {
    return ctx.Error(
        absl::StrCat("shape has ", shape.size(), " values for ", axes.size(), " axes"));
  }
  for (int64_t o : shape) {
    if (o < 0) return ctx.Error("shape must not be negative");
  }
  std::vector<int64_t> out = x->dims();
  std::vector<int64_t> src_off(r, 0), dst_off(r, 0);
  for (size_t k = 0; k < axes.size(); ++k) {
    const int64_t a = axes[k], in = x->dim(a), o = shape[k];
    out[a] = o;
    if (o < in)
      src_off[a] = (in - o) / 2;
    else
      dst_off[a] = (o - in) / 2;
  }
  Tensor y(x->dtype(), out);
  const std::vector<int64_t> xs = Strides(x->dims()), ys = Strides(out);
  std::vector<int64_t> idx(r, 0);
  for (int64_t o = 0; o < y.size(); ++o) {
    int64_t off = 0;
    bool inside = true;
    for (int64_t d = 0; d < r; ++d) {
      const int64_t c = idx[d] - dst_off[d] + src_off[d];
      if (c < 0 || c >= x->dim(d)) inside = false;
      off += c * xs[d];
    }
    if (inside) CopyElements(*x, off, y, o, 1);
    for (int64_t d = r - 1; d >= 0; --d) {
      if (++idx[d] < out[d]) break;
      idx[d] = 0;
    }
  }
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

// n, the number of whole ranges folded, stays a double: far coordinates would overflow an integer.
double Reflect(double x, double lo, double hi) {
  const double rng = hi - lo;
  if (rng <= 0) return lo;
  if (x < lo) {
    const double dx = lo - x;
    const double n = std::floor(dx / rng);
    const double r = dx - n * rng;
    return std::fmod(n, 2.0) == 0 ? lo + r : hi - r;
  }
  if (x > hi) {
    const double dx = x - hi;
    const double n = std::floor(dx / rng);
    const double r = dx - n * rng;
    return std::fmod(n, 2.0) == 0 ? hi - r : lo + r;
  }
  return x;
}

Status GridSampleKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x0, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(const Tensor* g0, ctx.TensorInput(1));
  ASSIGN_OR_RETURN(Tensor x, CastTensor(*x0, DataType::kDouble));
  ASSIGN_OR_RETURN(Tensor grid, CastTensor(*g0, DataType::kDouble));
  std::string mode = ctx.GetString("mode", ctx.opset() < 20 ? "bilinear" : "linear");
  if (mode == "bilinear") mode = "linear";
  if (mode == "bicubic") mode = "cubic";
  const std::string pad = ctx.GetString("padding_mode", "zeros");
  const bool align = ctx.GetInt("align_corners", 0) != 0;
  if (x.rank() < 3) return ctx.Error("X must have rank >= 3");
  const int64_t r = x.rank() - 2, N = x.dim(0), C = x.dim(1);
  if (grid.rank() != r + 2 || grid.dim(0) != N || grid.dim(grid.rank() - 1) != r) {
    return ctx.Error(absl::StrCat("grid has shape ", DimsToString(grid.dims()), "; X of shape ",
                                  DimsToString(x.dims()), " needs a grid of rank ", r + 2,
                                  " with first dim ", N, " and last dim ", r));
  }
  std::vector<int64_t> in(x.dims().begin() + 2, x.dims().end());
  for (int64_t d : in) {
    if (d == 0) return ctx.Error("X must not have empty spatial dims");
  }
  std::vector<int64_t> out(grid.dims().begin() + 1, grid.dims().end() - 1);
  const int64_t O = NumElements(out), I = NumElements(in);
  std::vector<int64_t> ydims{N, C};
  ydims.insert(ydims.end(), out.begin(), out.end());
  Tensor y(DataType::kDouble, ydims);
  const std::vector<int64_t> is = Strides(in);
  std::vector<double> lo(r), hi(r);
  for (int64_t d = 0; d < r; ++d) {
    lo[d] = align ? 0 : -0.5;
    hi[d] = align ? in[d] - 1 : in[d] - 0.5;
  }
  // Per spatial dim d (outermost first), grid component r-1-d holds its coordinate.
  std::vector<std::vector<std::pair<int64_t, double>>> taps(r);
  for (int64_t n = 0; n < N; ++n) {
    for (int64_t o = 0; o < O; ++o) {
      const double* gp = grid.data<double>() + (n * O + o) * r;
      for (int64_t d = 0; d < r; ++d) {
        const double nc = gp[r - 1 - d];
        double c = align ? (nc + 1) / 2 * (in[d] - 1) : ((nc + 1) * in[d] - 1) / 2;
        if (!std::isfinite(c)) return ctx.Error("grid has a non-finite coordinate");
        if (pad == "reflection") c = Reflect(c, lo[d], hi[d]);
        // Far outside the input every tap is padding, as it is a little past the border: clamping
        // keeps the taps' integer indices representable without changing the result.
        c = std::clamp(c, -4.0 - static_cast<double>(in[d]), 4.0 + static_cast<double>(in[d]));
        taps[d].clear();
        if (mode == "nearest") {
          taps[d].push_back({static_cast<int64_t>(std::nearbyint(c)), 1.0});
        } else if (mode == "linear") {
          const double f = std::floor(c);
          taps[d].push_back({static_cast<int64_t>(f), 1 - (c - f)});
          taps[d].push_back({static_cast<int64_t>(f) + 1, c - f});
        } else {
          const double f = std::floor(c), t = c - f;
          for (int k = -1; k <= 2; ++k)
            taps[d].push_back({static_cast<int64_t>(f) + k, CubicCoeff(k - t, -0.75)});
        }
        for (auto& [i, w] : taps[d]) {
          if (i >= 0 && i < in[d]) continue;
          if (pad == "zeros") {
            w = 0;
            i = 0;
          } else if (pad == "border") {
            i = std::clamp<int64_t>(i, 0, in[d] - 1);
          } else {
            i = std::clamp<int64_t>(
                static_cast<int64_t>(Reflect(static_cast<double>(i), lo[d], hi[d])), 0, in[d] - 1);
          }
        }
      }
      for (int64_t ch = 0; ch < C; ++ch) {
        const double* src = x.data<double>() + (n * C + ch) * I;
        double acc = 0;
        std::vector<size_t> k(r, 0);
        while (true) {
          double w = 1;
          int64_t off = 0;
          for (int64_t d = 0; d < r; ++d) {
            w *= taps[d][k[d]].second;
            off += taps[d][k[d]].first * is[d];
          }
          if (w != 0) acc += w * src[off];
          int64_t d = r - 1;
          for (; d >= 0; --d) {
            if (++k[d] < taps[d].size()) break;
            k[d] = 0;
          }
          if (d < 0) break;
        }
        y.mutable_data<double>()[(n * C + ch) * O + o] = acc;
      }
    }
  }
  ASSIGN_OR_RETURN(y, CastTensor(y, x0->dtype()));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

Status AffineGridKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* t0, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(Tensor theta, CastTensor(*t0, DataType::kDouble));
  ASSIGN_OR_RETURN(std::vector<int64_t> size, ctx.IntsInput(1));
  const bool align = ctx.GetInt("align_corners", 0) != 0;
  const int64_t r = static_cast<int64_t>(size.size()) - 2;  // 2 or 3 spatial dims
  if (r != 2 && r != 3) return ctx.Error("size must have 4 or 5 elements");
  for (int64_t v : size) {
    if (v < 0) return ctx.Error("size must not have negative values");
  }
  const int64_t N = size[0];
  // theta holds one r x (r + 1) affine matrix per batch item.
  if (theta.rank() != 3 || theta.dim(0) != N || theta.dim(1) != r || theta.dim(2) != r + 1) {
    return ctx.Error(absl::StrCat("theta has shape ", DimsToString(theta.dims()), "; size ",
                                  DimsToString(size), " needs [", N, ", ", r, ", ", r + 1, "]"));
  }
  std::vector<int64_t> sp(size.begin() + 2, size.end());
  auto coord = [&](int64_t i, int64_t len) {
    if (align) return len == 1 ? 0.0 : -1 + 2.0 * i / (len - 1);
    return (2.0 * i + 1) / len - 1;
  };
  std::vector<int64_t> dims{N};
  dims.insert(dims.end(), sp.begin(), sp.end());
  dims.push_back(r);
  Tensor y(DataType::kDouble, dims);
  const int64_t O = NumElements(sp);
  std::vector<int64_t> idx(r, 0);
  for (int64_t n = 0; n < N; ++n) {
    const double* th = theta.data<double>() + n * r * (r + 1);
    std::fill(idx.begin(), idx.end(), 0);
    for (int64_t o = 0; o < O; ++o) {
      // Base point (x, y[, z], 1): x follows the last spatial dim.
      std::vector<double> base(r + 1, 1.0);
      for (int64_t d = 0; d < r; ++d) base[d] = coord(idx[r - 1 - d], sp[r - 1 - d]);
      for (int64_t k = 0; k < r; ++k) {
        double v = 0;
        for (int64_t j = 0; j <= r; ++j) v += th[k * (r + 1) + j] * base[j];
        y.mutable_data<double>()[(n * O + o) * r + k] = v;
      }
      for (int64_t d = r - 1; d >= 0; --d) {
        if (++idx[d] < sp[d]) break;
        idx[d] = 0;
      }
    }
  }
  ASSIGN_OR_RETURN(y, CastTensor(y, t0->dtype()));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

Status NonMaxSuppressionKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* b0, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(const Tensor* s0, ctx.TensorInput(1));
  ASSIGN_OR_RETURN(Tensor boxes, CastTensor(*b0, DataType::kDouble));
  ASSIGN_OR_RETURN(Tensor scores, CastTensor(*s0, DataType::kDouble));
  // max_output_boxes_per_class read exactly (through a double, 2^63 - 1 became 2^63, whose
  // conversion back is undefined).
  ASSIGN_OR_RETURN(const int64_t max_out, ScalarIntInput(ctx, 2, 0));
  ASSIGN_OR_RETURN(double iou_th, ScalarInput(ctx, 3, 0));
  const bool has_score_th = ctx.has_input(4);
  ASSIGN_OR_RETURN(double score_th, ScalarInput(ctx, 4, 0));
  const bool center = ctx.GetInt("center_point_box", 0) != 0;
  if (boxes.rank() != 3 || boxes.dim(2) != 4 || scores.rank() != 3 ||
      scores.dim(0) != boxes.dim(0) || scores.dim(2) != boxes.dim(1)) {
    return ctx.Error("expects boxes [B, N, 4] and scores [B, C, N]");
  }
  const int64_t B = boxes.dim(0), N = boxes.dim(1), C = scores.dim(1);
  auto corners = [&](int64_t b, int64_t i, double* c) {
    const double* p = boxes.data<double>() + (b * N + i) * 4;
    if (center) {
      c[0] = p[1] - p[3] / 2;  // y1
      c[1] = p[0] - p[2] / 2;  // x1
      c[2] = p[1] + p[3] / 2;
      c[3] = p[0] + p[2] / 2;
    } else {
      c[0] = std::min(p[0], p[2]);
      c[1] = std::min(p[1], p[3]);
      c[2] = std::max(p[0], p[2]);
      c[3] = std::max(p[1], p[3]);
    }
  };
  auto iou = [&](int64_t b, int64_t i, int64_t j) {
    double a[4], c[4];
    corners(b, i, a);
    corners(b, j, c);
    const double ih = std::max(0.0, std::min(a[2], c[2]) - std::max(a[0], c[0]));
    const double iw = std::max(0.0, std::min(a[3], c[3]) - std::max(a[1], c[1]));
    const double inter = ih * iw;
    const double uni = (a[2] - a[0]) * (a[3] - a[1]) + (c[2] - c[0]) * (c[3] - c[1]) - inter;
    return uni <= 0 ? 0.0 : inter / uni;
  };
  std::vector<int64_t> sel;
  for (int64_t b = 0; b < B; ++b) {
    for (int64_t c = 0; c < C; ++c) {
      const double* sc = scores.data<double>() + (b * C + c) * N;
      std::vector<int64_t> cand;
      for (int64_t i = 0; i < N; ++i) {
        if (!has_score_th || sc[i] > score_th) cand.push_back(i);
      }
      std::stable_sort(cand.begin(), cand.end(),
                       [&](int64_t x, int64_t y) { return sc[x] > sc[y]; });
      std::vector<int64_t> kept;
      for (int64_t i : cand) {
        if (static_cast<int64_t>(kept.size()) >= max_out) break;
        bool ok = true;
        for (int64_t k : kept) {
          if (iou(b, i, k) > iou_th) {
            ok = false;
            break;
          }
        }
        if (ok) kept.push_back(i);
      }
      for (int64_t k : kept) {
        sel.push_back(b);
        sel.push_back(c);
        sel.push_back(k);
      }
    }
  }
  ctx.set_output(0, Tensor::FromVector<int64_t>(DataType::kInt64,
                                                {static_cast<int64_t>(sel.size() / 3), 3}, sel));
  return OkStatus();
}

// MaxRoiPool-1: max over a pooled_shape grid of bins of each region (batch index, x1, y1, x2, y2),
// in the Caffe convention the operator comes from: corners scaled by spatial_scale and rounded, the
// region at least one pixel, bin edges floor/ceil of equal fractions, empty bins 0.
Status MaxRoiPoolKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x0, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(Tensor x, CastTensor(*x0, DataType::kDouble));
  ASSIGN_OR_RETURN(Tensor rois, CastTensor(ctx.input(1), DataType::kDouble));
  const std::vector<int64_t> pooled = ctx.GetInts("pooled_shape");
  const double scale = ctx.GetFloat("spatial_scale", 1.0f);
  if (x.rank() != 4 || rois.rank() != 2 || rois.dim(1) != 5 || pooled.size() != 2 ||
      pooled[0] <= 0 || pooled[1] <= 0) {
    return ctx.Error(
        "expects X of rank 4, rois of shape [R, 5] and a positive pooled_shape of 2 values");
  }
  if (!std::isfinite(scale)) return ctx.Error("spatial_scale must be finite");
  const int64_t N = x.dim(0), C = x.dim(1), H = x.dim(2), W = x.dim(3), R = rois.dim(0);
  const int64_t PH = pooled[0], PW = pooled[1];
  // A NaN or far roi had no integer coordinates (undefined conversions, overflowing differences).
  for (int64_t i = 0; i < rois.size(); ++i) {
    const double v = rois.data<double>()[i] * (i % 5 == 0 ? 1.0 : scale);
    if (!(std::abs(v) < 0x1p52)) return ctx.Error("rois must be finite and of a sane magnitude");
  }
  Tensor y(DataType::kDouble, {R, C, PH, PW});
  double* py = y.mutable_data<double>();
  const double* px = x.data<double>();
  for (int64_t r = 0; r < R; ++r) {
    const double* roi = rois.data<double>() + r * 5;
    const int64_t b = static_cast<int64_t>(roi[0]);
    if (b < 0 || b >= N) return ctx.Error("batch index out of range");
    const int64_t x1 = std::llround(roi[1] * scale), y1 = std::llround(roi[2] * scale);
    const int64_t x2 = std::llround(roi[3] * scale), y2 = std::llround(roi[4] * scale);
    const double bin_h = static_cast<double>(std::max<int64_t>(y2 - y1 + 1, 1)) / PH;
    const double bin_w = static_cast<double>(std::max<int64_t>(x2 - x1 + 1, 1)) / PW;
    for (int64_t c = 0; c < C; ++c) {
      const double* plane = px + (b * C + c) * H * W;
      for (int64_t ph = 0; ph < PH; ++ph) {
        const int64_t h0 =
            std::clamp<int64_t>(static_cast<int64_t>(std::floor(ph * bin_h)) + y1, 0, H);
        const int64_t h1 =
            std::clamp<int64_t>(static_cast<int64_t>(std::ceil((ph + 1) * bin_h)) + y1, 0, H);
        for (int64_t pw = 0; pw < PW; ++pw) {
          const int64_t w0 =
              std::clamp<int64_t>(static_cast<int64_t>(std::floor(pw * bin_w)) + x1, 0, W);
          const int64_t w1 =
              std::clamp<int64_t>(static_cast<int64_t>(std::ceil((pw + 1) * bin_w)) + x1, 0, W);
          double m = 0;
          if (h1 > h0 && w1 > w0) {
            m = -std::numeric_limits<double>::infinity();
            for (int64_t h = h0; h < h1; ++h) {
              for (int64_t w = w0; w < w1; ++w) m = std::max(m, plane[h * W + w]);
            }
          }
          py[((r * C + c) * PH + ph) * PW + pw] = m;
        }
      }
    }
  }
  ASSIGN_OR_RETURN(y, CastTensor(y, x0->dtype()));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

// The most sampling points RoiAlign takes per output bin.
constexpr int64_t kMaxRoiSamples = int64_t{1} << 24;

Status RoiAlignKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x0, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(Tensor x, CastTensor(*x0, DataType::kDouble));
  ASSIGN_OR_RETURN(Tensor rois, CastTensor(ctx.input(1), DataType::kDouble));
  ASSIGN_OR_RETURN(std::vector<int64_t> bi, ctx.IntsInput(2));
  const bool half =
      ctx.GetString("coordinate_transformation_mode",
                    ctx.opset() < 16 ? "output_half_pixel" : "half_pixel") == "half_pixel";
  const bool is_max = ctx.GetString("mode", "avg") == "max";
  const int64_t PH = ctx.GetInt("output_height", 1), PW = ctx.GetInt("output_width", 1);
  const int64_t sr = ctx.GetInt("sampling_ratio", 0);
  const double scale = ctx.GetFloat("spatial_scale", 1.0f);
  if (x.rank() != 4 || rois.rank() != 2 || rois.dim(1) != 4 ||
      static_cast<int64_t>(bi.size()) != rois.dim(0)) {
    return ctx.Error("expects X of rank 4, rois of shape [R, 4] and R batch indices");
  }
  for (int64_t b : bi) {
    if (b < 0 || b >= x.dim(0)) return ctx.Error("batch index out of range");
  }
  if (PH <= 0 || PW <= 0 || sr < 0)
    return ctx.Error("output size and sampling_ratio must be positive");
  // Non-finite rois or scale gave NaN sample points and grid sizes (undefined conversions to
  // int64).
  if (!std::isfinite(scale)) return ctx.Error("spatial_scale must be finite");
  for (int64_t i = 0; i < rois.size(); ++i) {
    if (!std::isfinite(rois.data<double>()[i])) return ctx.Error("rois must be finite");
  }
  const int64_t C = x.dim(1), H = x.dim(2), W = x.dim(3), R = rois.dim(0);
  Tensor y(DataType::kDouble, {R, C, PH, PW});
  const double off = half ? 0.5 : 0;
  for (int64_t r = 0; r < R; ++r) {
    const double* roi = rois.data<double>() + r * 4;
    const double sw = roi[0] * scale - off, sh = roi[1] * scale - off;
    double rw = roi[2] * scale - off - sw, rh = roi[3] * scale - off - sh;
    if (!half) {
      rw = std::max(rw, 1.0);
      rh = std::max(rh, 1.0);
    }
    const double bh = rh / PH, bw = rw / PW;
    // The adaptive grid is ceil(roi size / output size) points a side: a roi far larger than the
    // image would loop for ages (and past 2^63 the conversion is undefined).
    const double gh_d = sr > 0 ? sr : std::ceil(rh / PH), gw_d = sr > 0 ? sr : std::ceil(rw / PW);
    if (!(std::max(gh_d, 0.0) * std::max(gw_d, 0.0) <= static_cast<double>(kMaxRoiSamples) &&
          gh_d > -0x1p31 && gw_d > -0x1p31)) {
      return ctx.Error(absl::StrCat("roi ", r, " needs a ", gh_d, " x ", gw_d,
                                    " sampling grid per bin, more than ", kMaxRoiSamples));
    }
    const int64_t gh = static_cast<int64_t>(gh_d), gw = static_cast<int64_t>(gw_d);
    const double count = std::max<int64_t>(gh * gw, 1);
    for (int64_t c = 0; c < C; ++c) {
      const double* plane = x.data<double>() + (bi[r] * C + c) * H * W;
      for (int64_t ph = 0; ph < PH; ++ph) {
        for (int64_t pw = 0; pw < PW; ++pw) {
          double acc = 0;
          bool first = true;
          for (int64_t iy = 0; iy < gh; ++iy) {
            for (int64_t ix = 0; ix < gw; ++ix) {
              double yy = sh + ph * bh + (iy + 0.5) * bh / gh;
              double xx = sw + pw * bw + (ix + 0.5) * bw / gw;
              double v = 0;
              if (!(yy < -1.0 || yy > H || xx < -1.0 || xx > W)) {
                yy = std::max(yy, 0.0);
                xx = std::max(xx, 0.0);
                int64_t y0 = static_cast<int64_t>(yy), x0i = static_cast<int64_t>(xx), y1, x1;
                if (y0 >= H - 1) {
                  y0 = y1 = H - 1;
                  yy = y0;
                } else {
                  y1 = y0 + 1;
                }
                if (x0i >= W - 1) {
                  x0i = x1 = W - 1;
                  xx = x0i;
                } else {
                  x1 = x0i + 1;
                }
                const double ly = yy - y0, lx = xx - x0i, hy = 1 - ly, hx = 1 - lx;
                const double a = hy * hx * plane[y0 * W + x0i], b = hy * lx * plane[y0 * W + x1];
                const double c2 = ly * hx * plane[y1 * W + x0i], d = ly * lx * plane[y1 * W + x1];
                v = is_max ? std::max(std::max(a, b), std::max(c2, d)) : a + b + c2 + d;
              }
              if (is_max) {
                acc = first ? v : std::max(acc, v);
                first = false;
              } else {
                acc += v;
              }
            }
          }
          y.mutable_data<double>()[((r * C + c) * PH + ph) * PW + pw] = is_max ? acc : acc / count;
        }
      }
    }
  }
  ASSIGN_OR_RETURN(y, CastTensor(y, x0->dtype()));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace

void RegisterImageKernels(KernelRegistry& r) {
  r.Register("", "MaxRoiPool", 1, MaxRoiPoolKernel);
  r.Register("", "RoiAlign", 10, RoiAlignKernel);
  r.Register("", "NonMaxSuppression", 10, NonMaxSuppressionKernel);
  r.Register("", "GridSample", 16, GridSampleKernel);
  r.Register("", "AffineGrid", 20, AffineGridKernel);
  r.Register("", "Resize", 10, ResizeKernel);
  r.Register("", "Upsample", 1, UpsampleKernel);
  r.Register("", "CenterCropPad", 18, CenterCropPadKernel);
}

}  // namespace onnx_opt::interpreter
