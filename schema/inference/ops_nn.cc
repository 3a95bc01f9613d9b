// Neural network layers: convolutions, pooling, normalization, Dropout, RoI ops, MaxUnpool and
// CausalConvWithState.
#include <algorithm>

#include "schema/inference/ops_util.h"

namespace onnx_opt::schema::inference {
namespace {

using ir::Dim;
using ir::Shape;

struct WindowParams {
  std::vector<int64_t> kernel;
  std::vector<int64_t> strides;
  std::vector<int64_t> dilations;
  std::vector<int64_t> pads;  // begins then ends
  std::string auto_pad;
  bool ceil_mode = false;
};

// Reads kernel_shape (or `kernel` when the attribute is absent), strides, dilations, pads,
// auto_pad and ceil_mode for `n` spatial dims.
absl::StatusOr<WindowParams> ReadWindow(const InferenceContext& ctx, size_t n,
                                        const std::vector<int64_t>* kernel) {
  WindowParams p;
  if (auto k = ctx.FindInts("kernel_shape"); k && !k->empty()) {
    p.kernel = *k;
  } else if (kernel != nullptr) {
    p.kernel = *kernel;
  } else {
    return ctx.Error("kernel_shape is not known");
  }
  if (p.kernel.size() != n) {
    return ctx.Error(
        absl::StrCat("kernel_shape has ", p.kernel.size(), " values for ", n, " spatial dims"));
  }
  if (kernel != nullptr && p.kernel != *kernel)
    return ctx.Error("kernel_shape differs from the weights' spatial dims");
  p.strides = ctx.GetInts("strides");
  if (p.strides.empty()) p.strides.assign(n, 1);
  p.dilations = ctx.GetInts("dilations");
  if (p.dilations.empty()) p.dilations.assign(n, 1);
  p.pads = ctx.GetInts("pads");
  if (p.pads.empty()) p.pads.assign(2 * n, 0);
  if (p.strides.size() != n || p.dilations.size() != n || p.pads.size() != 2 * n) {
    return ctx.Error("strides, dilations or pads do not match the spatial rank");
  }
  for (size_t i = 0; i < n; ++i) {
    if (p.strides[i] <= 0 || p.dilations[i] <= 0) {
      return ctx.Error("strides and dilations must be positive");
    }
  }
  p.auto_pad = ctx.GetString("auto_pad", "NOTSET");
  p.ceil_mode = ctx.GetInt("ceil_mode", 0) != 0;
  return p;
}

// Output size of a window sliding over one spatial dim.
Dim WindowOutput(const Dim& d, const WindowParams& p, size_t i) {
  if (!d.is_known()) return Dim::Unknown();
  int64_t in = d.value();
  int64_t s = p.strides[i];
  int64_t k = (p.kernel[i] - 1) * p.dilations[i] + 1;
  if (p.auto_pad == "SAME_UPPER" || p.auto_pad == "SAME_LOWER") {
    return Dim::Known((in + s - 1) / s);
  }
  int64_t total = in;
  if (p.auto_pad != "VALID") total += p.pads[i] + p.pads[i + p.kernel.size()];
  if (total < k) return Dim::Unknown();
  int64_t out;
  if (p.ceil_mode) {
    out = (total - k + s - 1) / s + 1;
    // The last window must start inside the input or the left padding.
    if ((out - 1) * s >= in + p.pads[i]) --out;
  } else {
    out = (total - k) / s + 1;
  }
  return Dim::Known(out);
}

// [N, channels, spatial...] from X at `x` (and weights at `w` for the kernel, when given).
absl::Status ConvLike(InferenceContext& ctx, size_t x, std::optional<size_t> w, bool pool) {
  const Shape* xs = ctx.input_shape(x);
  const Shape* ws = w ? ctx.input_shape(*w) : nullptr;
  if (xs == nullptr) {
    if (ws != nullptr) ctx.SetOutputRank(0, ws->rank());
    return absl::OkStatus();
  }
  if (xs->rank() < 2) return ctx.Error("input must have rank >= 2");
  size_t n = xs->rank() - 2;
  std::vector<int64_t> kernel;
  bool kernel_known = false;
  if (ws != nullptr) {
    if (ws->rank() != xs->rank()) return ctx.Error("input and weights differ in rank");
    kernel_known = true;
    for (size_t i = 2; i < ws->rank(); ++i) {
      if (!ws->dim(i).is_known()) kernel_known = false;
      kernel.push_back(ws->dim(i).is_known() ? ws->dim(i).value() : 0);
    }
  }
  std::vector<Dim> out{xs->dim(0), pool ? xs->dim(1) : (ws != nullptr ? ws->dim(0) : Dim())};
  if (!pool && ws != nullptr && xs->dim(1).is_known() && ws->dim(1).is_known()) {
    int64_t group = ctx.GetInt("group", 1);
    if (xs->dim(1).value() != ws->dim(1).value() * group) {
      return ctx.Error(absl::StrCat("input has ", xs->dim(1).value(),
                                    " channels but weights expect ", ws->dim(1).value(),
                                    " x group ", group));
    }
  }
  auto has_kernel_attr = ctx.FindInts("kernel_shape");
  if (!kernel_known && !(has_kernel_attr && !has_kernel_attr->empty())) {
    for (size_t i = 0; i < n; ++i) out.push_back(Dim::Unknown());
    ctx.SetOutputShape(0, Shape(out));
    return absl::OkStatus();
  }
  ASSIGN_OR_RETURN(auto p, ReadWindow(ctx, n, kernel_known ? &kernel : nullptr));
  for (size_t i = 0; i < n; ++i) out.push_back(WindowOutput(xs->dim(i + 2), p, i));
  ctx.SetOutputShape(0, Shape(out));
  return absl::OkStatus();
}

absl::Status Conv(InferenceContext& ctx) { return ConvLike(ctx, 0, 1, false); }
absl::Status QLinearConv(InferenceContext& ctx) { return ConvLike(ctx, 0, 3, false); }

absl::Status Pool(InferenceContext& ctx) {
  RETURN_IF_ERROR(ConvLike(ctx, 0, std::nullopt, true));
  if (ctx.num_outputs() > 1) {
    ctx.SetOutputElemType(1, ir::DataType::kInt64);
    if (ctx.output_type(0).shape()) ctx.SetOutputShape(1, ctx.output_type(0).shape());
  }
  return absl::OkStatus();
}

absl::Status GlobalPool(InferenceContext& ctx) {
  const Shape* xs = ctx.input_shape(0);
  if (xs == nullptr) return absl::OkStatus();
  if (xs->rank() < 2) return ctx.Error("input must have rank >= 2");
  std::vector<Dim> out{xs->dim(0), xs->dim(1)};
  for (size_t i = 2; i < xs->rank(); ++i) out.push_back(Dim::Known(1));
  ctx.SetOutputShape(0, Shape(out));
  return absl::OkStatus();
}

absl::Status ConvTranspose(InferenceContext& ctx) {
  const Shape* xs = ctx.input_shape(0);
  const Shape* ws = ctx.input_shape(1);
  if (xs == nullptr) {
    if (ws != nullptr) ctx.SetOutputRank(0, ws->rank());
    return absl::OkStatus();
  }
  if (xs->rank() < 2) return ctx.Error("input must have rank >= 2");
  if (ws != nullptr && ws->rank() != xs->rank())
    return ctx.Error("input and weights differ in rank");
  size_t n = xs->rank() - 2;
  int64_t group = ctx.GetInt("group", 1);
  std::vector<Dim> out{xs->dim(0),
                       ws != nullptr ? DimMul(ws->dim(1), Dim::Known(group)) : Dim::Unknown()};
  if (auto os = ctx.FindInts("output_shape"); os && !os->empty()) {
    if (os->size() < n) return ctx.Error("output_shape is shorter than the spatial rank");
    for (size_t i = os->size() - n; i < os->size(); ++i) out.push_back(Dim::Known((*os)[i]));
    ctx.SetOutputShape(0, Shape(out));
    return absl::OkStatus();
  }
  std::vector<int64_t> kernel;
  bool kernel_known = ws != nullptr;
  if (ws != nullptr) {
    for (size_t i = 2; i < ws->rank(); ++i) {
      if (!ws->dim(i).is_known()) kernel_known = false;
      kernel.push_back(ws->dim(i).is_known() ? ws->dim(i).value() : 0);
    }
  }
  auto k_attr = ctx.FindInts("kernel_shape");
  if (!kernel_known && !(k_attr && !k_attr->empty())) {
    for (size_t i = 0; i < n; ++i) out.push_back(Dim::Unknown());
    ctx.SetOutputShape(0, Shape(out));
    return absl::OkStatus();
  }
  ASSIGN_OR_RETURN(auto p, ReadWindow(ctx, n, kernel_known ? &kernel : nullptr));
  std::vector<int64_t> out_pad = ctx.GetInts("output_padding");
  if (out_pad.empty()) out_pad.assign(n, 0);
  if (out_pad.size() != n) return ctx.Error("output_padding does not match the spatial rank");
  for (size_t i = 0; i < n; ++i) {
    const Dim& d = xs->dim(i + 2);
    if (!d.is_known()) {
      out.push_back(Dim::Unknown());
      continue;
    }
    int64_t s = p.strides[i];
    if (p.auto_pad == "SAME_UPPER" || p.auto_pad == "SAME_LOWER") {
      out.push_back(Dim::Known(d.value() * s));
      continue;
    }
    int64_t pads = p.auto_pad == "VALID" ? 0 : p.pads[i] + p.pads[i + n];
    int64_t v = s * (d.value() - 1) + out_pad[i] + (p.kernel[i] - 1) * p.dilations[i] + 1 - pads;
    out.push_back(v >= 0 ? Dim::Known(v) : Dim::Unknown());
  }
  ctx.SetOutputShape(0, Shape(out));
  return absl::OkStatus();
}

absl::Status DeformConv(InferenceContext& ctx) {
  RETURN_IF_ERROR(ConvLike(ctx, 0, 1, false));
  // Where the window arithmetic left gaps, the offsets' spatial dims tell.
  const Shape* off = ctx.input_shape(2);
  const auto& t = ctx.output_type(0);
  if (off != nullptr && t.shape() && off->rank() == t.shape()->rank()) {
    std::vector<Dim> out = t.shape()->dims();
    for (size_t i = 2; i < out.size(); ++i) out[i] = MergeDims(out[i], off->dim(i));
    ctx.SetOutputShape(0, Shape(out));
  }
  return absl::OkStatus();
}

absl::Status MaxRoiPool(InferenceContext& ctx) {
  const Shape* xs = ctx.input_shape(0);
  const Shape* rois = ctx.input_shape(1);
  auto pooled = ctx.GetInts("pooled_shape");
  if (pooled.size() != 2) return ctx.Error("pooled_shape must have 2 values");
  ctx.SetOutputShape(0, Shape({rois != nullptr && rois->rank() == 2 ? rois->dim(0) : Dim(),
                               xs != nullptr && xs->rank() == 4 ? xs->dim(1) : Dim(),
                               Dim::Known(pooled[0]), Dim::Known(pooled[1])}));
  return absl::OkStatus();
}

absl::Status RoiAlign(InferenceContext& ctx) {
  const Shape* xs = ctx.input_shape(0);
  const Shape* rois = ctx.input_shape(1);
  const Shape* bi = ctx.input_shape(2);
  Dim n = rois != nullptr && rois->rank() == 2 ? rois->dim(0) : Dim();
  if (bi != nullptr && bi->rank() == 1) n = MergeDims(n, bi->dim(0));
  ctx.SetOutputShape(0, Shape({n, xs != nullptr && xs->rank() == 4 ? xs->dim(1) : Dim(),
                               Dim::Known(ctx.GetInt("output_height", 1)),
                               Dim::Known(ctx.GetInt("output_width", 1))}));
  return absl::OkStatus();
}

absl::Status MaxUnpool(InferenceContext& ctx) {
  if (ctx.has_input(2)) {
    if (auto sv = ctx.input_shape_value(2)) {
      ctx.SetOutputShape(0, Shape(sv->elems));
    } else if (const Shape* s = ctx.input_shape(2);
               s != nullptr && s->rank() == 1 && s->dim(0).is_known()) {
      ctx.SetOutputRank(0, static_cast<size_t>(s->dim(0).value()));
    }
    return absl::OkStatus();
  }
  const Shape* xs = ctx.input_shape(0);
  if (xs == nullptr) return absl::OkStatus();
  if (xs->rank() < 2) return ctx.Error("input must have rank >= 2");
  size_t n = xs->rank() - 2;
  ASSIGN_OR_RETURN(auto p, ReadWindow(ctx, n, nullptr));
  std::vector<Dim> out{xs->dim(0), xs->dim(1)};
  for (size_t i = 0; i < n; ++i) {
    const Dim& d = xs->dim(i + 2);
    if (!d.is_known()) {
      out.push_back(Dim::Unknown());
      continue;
    }
    int64_t v = (d.value() - 1) * p.strides[i] + p.kernel[i] - p.pads[i] - p.pads[i + n];
    out.push_back(v >= 0 ? Dim::Known(v) : Dim::Unknown());
  }
  ctx.SetOutputShape(0, Shape(out));
  return absl::OkStatus();
}

absl::Status BatchNormalization(InferenceContext& ctx) {
  RETURN_IF_ERROR(SameShapeAsInput0(ctx));
  Dim c;
  if (const Shape* xs = ctx.input_shape(0); xs != nullptr && xs->rank() >= 2) c = xs->dim(1);
  if (const Shape* scale = ctx.input_shape(1); scale != nullptr && scale->rank() == 1) {
    c = MergeDims(c, scale->dim(0));
  }
  for (size_t i = 1; i < ctx.num_outputs(); ++i) {
    if (ctx.output_type(i).is_none()) ctx.PropagateElemType(i < 3 ? 3 : 0, i);
    ctx.SetOutputShape(i, Shape({c}));
  }
  return absl::OkStatus();
}

absl::Status LayerNormalization(InferenceContext& ctx) {
  RETURN_IF_ERROR(SameShapeAsInput0(ctx));
  if (ctx.num_outputs() < 2) return absl::OkStatus();
  ASSIGN_OR_RETURN(auto stash, DataTypeAttr(ctx, ctx.GetInt("stash_type", 1)));
  const Shape* xs = ctx.input_shape(0);
  std::optional<Shape> reduced;
  if (xs != nullptr) {
    ASSIGN_OR_RETURN(auto axis,
                     CheckAxis(ctx, ctx.GetInt("axis", -1), static_cast<int64_t>(xs->rank())));
    std::vector<Dim> dims(xs->dims());
    for (size_t i = static_cast<size_t>(axis); i < dims.size(); ++i) dims[i] = Dim::Known(1);
    reduced = Shape(dims);
  }
  for (size_t i = 1; i < ctx.num_outputs() && i < 3; ++i) {
    ctx.SetOutputElemType(i, stash);
    if (reduced) ctx.SetOutputShape(i, reduced);
  }
  return absl::OkStatus();
}

absl::Status Dropout(InferenceContext& ctx) {
  RETURN_IF_ERROR(SameShapeAsInput0(ctx));
  if (ctx.num_outputs() > 1) {
    if (ctx.output_type(1).is_none()) ctx.SetOutputElemType(1, ir::DataType::kBool);
    ctx.PropagateShape(0, 1);
  }
  return absl::OkStatus();
}

absl::Status CausalConvWithState(InferenceContext& ctx) {
  RETURN_IF_ERROR(SameShapeAsInput0(ctx));
  const Shape* xs = ctx.input_shape(0);
  const Shape* ws = ctx.input_shape(1);
  if (ctx.num_outputs() < 2) return absl::OkStatus();
  Dim b, c, k;
  if (xs != nullptr && xs->rank() == 3) {
    b = xs->dim(0);
    c = xs->dim(1);
  }
  if (ws != nullptr && ws->rank() == 3) {
    c = MergeDims(c, ws->dim(0));
    k = DimSub(ws->dim(2), Dim::Known(1));
  }
  if (const Shape* past = ctx.input_shape(3); past != nullptr && past->rank() == 3) {
    b = MergeDims(b, past->dim(0));
    c = MergeDims(c, past->dim(1));
    k = MergeDims(k, past->dim(2));
  }
  ctx.SetOutputShape(1, Shape({b, c, k}));
  return absl::OkStatus();
}

}  // namespace

void RegisterNnOps(InferenceRegistry& r) {
  r.Register("Conv", Conv);
  r.Register("ConvInteger", Conv);
  r.Register("QLinearConv", QLinearConv);
  r.Register("DeformConv", DeformConv);
  r.Register("ConvTranspose", ConvTranspose);
  r.Register("MaxPool", Pool);
  r.Register("AveragePool", Pool);
  r.Register("LpPool", Pool);
  r.Register("GlobalAveragePool", GlobalPool);
  r.Register("GlobalMaxPool", GlobalPool);
  r.Register("GlobalLpPool", GlobalPool);
  r.Register("MaxRoiPool", MaxRoiPool);
  r.Register("RoiAlign", RoiAlign);
  r.Register("MaxUnpool", MaxUnpool);
  r.Register("BatchNormalization", BatchNormalization);
  r.Register("LayerNormalization", LayerNormalization);
  r.Register("Dropout", Dropout);
  r.Register("CausalConvWithState", CausalConvWithState);
}

}  // namespace onnx_opt::schema::inference
