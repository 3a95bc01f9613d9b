// Tensor rearrangement and indexing: Transpose, Split, Pad, GatherElements, GatherND, Compress,
// NonZero, OneHot, DepthToSpace, SpaceToDepth, Unique, CenterCropPad, Resize, Upsample, GridSample,
// AffineGrid, Col2Im, TensorScatter, BitCast.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

#include "schema/inference/ops_util.h"

namespace onnx_opt::schema::inference {
namespace {

using ir::Dim;
using ir::Shape;

absl::Status Transpose(InferenceContext& ctx) {
  const Shape* in = ctx.input_shape(0);
  if (in == nullptr) return absl::OkStatus();
  size_t rank = in->rank();
  std::vector<int64_t> perm;
  if (auto p = ctx.FindInts("perm"); p && !p->empty()) {
    perm = *p;
  } else {
    for (size_t i = 0; i < rank; ++i) perm.push_back(static_cast<int64_t>(rank - 1 - i));
  }
  if (perm.size() != rank) {
    return ctx.Error(absl::StrCat("perm has ", perm.size(), " entries for rank ", rank));
  }
  std::vector<bool> seen(rank, false);
  std::vector<Dim> out;
  for (int64_t p : perm) {
    auto a = NormalizeAxis(p, static_cast<int64_t>(rank));
    if (!a || seen[*a]) return ctx.Error("perm is not a permutation");
    seen[*a] = true;
    out.push_back(in->dim(static_cast<size_t>(*a)));
  }
  ctx.SetOutputShape(0, Shape(out));
  return absl::OkStatus();
}

absl::Status Split(InferenceContext& ctx) {
  const Shape* in = ctx.input_shape(0);
  size_t n = ctx.num_outputs();
  if (in == nullptr || n == 0) return absl::OkStatus();
  int64_t rank = static_cast<int64_t>(in->rank());
  ASSIGN_OR_RETURN(auto axis, CheckAxis(ctx, ctx.GetInt("axis", 0), rank));
  const Dim& d = in->dim(static_cast<size_t>(axis));
  std::optional<std::vector<int64_t>> sizes;
  bool sizes_given = false;
  int v = ctx.since_version();
  if (v >= 13 || (v < 2 && ctx.has_input(1))) {
    if (ctx.has_input(1)) {
      sizes_given = true;
      sizes = ctx.input_ints(1);
    }
  } else if (auto s = ctx.FindInts("split"); s && !s->empty()) {
    sizes_given = true;
    sizes = s;
  }
  std::vector<Dim> lengths(n, Dim::Unknown());
  if (sizes_given) {
    if (sizes) {
      if (sizes->size() != n) {
        return ctx.Error(absl::StrCat("split has ", sizes->size(), " sizes for ", n, " outputs"));
      }
      int64_t total = 0;
      for (size_t i = 0; i < n; ++i) {
        if ((*sizes)[i] < 0) return ctx.Error("split has a negative size");
        lengths[i] = Dim::Known((*sizes)[i]);
        total += (*sizes)[i];
      }
      if (d.is_known() && d.value() != total) {
        return ctx.Error(
            absl::StrCat("split sizes add up to ", total, " but the axis has ", d.value()));
      }
    }
  } else if (d.is_known()) {
    int64_t num = n;
    if (const ir::Attribute* a = ctx.attr("num_outputs")) num = a->i;
    if (num <= 0 || static_cast<size_t>(num) != n) {
      return ctx.Error(absl::StrCat("num_outputs is ", num, " but the node has ", n, " outputs"));
    }
    if (d.value() % num == 0) {
      lengths.assign(n, Dim::Known(d.value() / num));
    } else if (v >= 18) {
      int64_t chunk = (d.value() + num - 1) / num;
      for (size_t i = 0; i + 1 < n; ++i) lengths[i] = Dim::Known(chunk);
      int64_t last = d.value() - chunk * (num - 1);
      if (last < 0) return ctx.Error("cannot split the axis into that many outputs");
      lengths[n - 1] = Dim::Known(last);
    } else {
      return ctx.Error(
          absl::StrCat("axis of size ", d.value(), " does not split evenly into ", num));
    }
  }
  for (size_t i = 0; i < n; ++i) {
    std::vector<Dim> out(in->dims());
    out[axis] = lengths[i];
    ctx.SetOutputShape(i, Shape(out));
  }
  return absl::OkStatus();
}

// d + before + after, with negative pads allowed.
Dim PadDim(const Dim& d, int64_t before, int64_t after) {
  if (before + after == 0) return d;
  if (!d.is_known()) return Dim::Unknown();
  int64_t r = d.value() + before + after;
  return r >= 0 ? Dim::Known(r) : Dim::Unknown();
}

absl::Status Pad(InferenceContext& ctx) {
  const Shape* in = ctx.input_shape(0);
  if (in == nullptr) return absl::OkStatus();
  int64_t rank = static_cast<int64_t>(in->rank());
  std::optional<std::vector<int64_t>> pads;
  if (ctx.since_version() < 2) {
    pads = ctx.FindInts("paddings");
  } else if (ctx.since_version() < 11) {
    pads = ctx.FindInts("pads");
  } else {
    pads = ctx.input_ints(1);
  }
  std::vector<int64_t> axes;
  if (ctx.since_version() >= 18 && ctx.has_input(3)) {
    auto a = ctx.input_ints(3);
    if (!a) {
      ctx.SetOutputRank(0, in->rank());
      return absl::OkStatus();
    }
    ASSIGN_OR_RETURN(auto norm, CheckAxes(ctx, *a, rank));
    axes = norm;
  } else {
    for (int64_t i = 0; i < rank; ++i) axes.push_back(i);
  }
  if (!pads) {
    std::vector<Dim> out(in->dims());
    for (int64_t a : axes) out[a] = Dim::Unknown();
    ctx.SetOutputShape(0, Shape(out));
    return absl::OkStatus();
  }
  if (pads->size() != 2 * axes.size()) {
    return ctx.Error(absl::StrCat("pads has ", pads->size(), " values for ", axes.size(), " axes"));
  }
  std::vector<Dim> out(in->dims());
  size_t k = axes.size();
  for (size_t i = 0; i < k; ++i) {
    out[axes[i]] = PadDim(in->dim(static_cast<size_t>(axes[i])), (*pads)[i], (*pads)[i + k]);
  }
  ctx.SetOutputShape(0, Shape(out));
  return absl::OkStatus();
}

absl::Status GatherElements(InferenceContext& ctx) {
  ctx.PropagateShape(1, 0);
  return absl::OkStatus();
}

absl::Status GatherND(InferenceContext& ctx) {
  const Shape* data = ctx.input_shape(0);
  const Shape* idx = ctx.input_shape(1);
  if (data == nullptr || idx == nullptr) return absl::OkStatus();
  int64_t b = ctx.GetInt("batch_dims", 0);
  size_t q = idx->rank();
  if (q == 0) return ctx.Error("indices must have rank >= 1");
  const Dim& last = idx->dim(q - 1);
  if (!last.is_known()) return absl::OkStatus();
  int64_t k = last.value();
  if (b + k > static_cast<int64_t>(data->rank())) {
    return ctx.Error("indices address more dimensions than data has");
  }
  std::vector<Dim> out(idx->dims().begin(), idx->dims().end() - 1);
  out.insert(out.end(), data->dims().begin() + b + k, data->dims().end());
  ctx.SetOutputShape(0, Shape(out));
  return absl::OkStatus();
}

absl::Status Compress(InferenceContext& ctx) {
  const Shape* in = ctx.input_shape(0);
  std::optional<int64_t> count;
  if (auto c = ctx.input_ints(1)) {
    count = 0;
    for (int64_t x : *c) *count += x != 0 ? 1 : 0;
  }
  Dim len = count ? Dim::Known(*count) : Dim::Unknown();
  const ir::Attribute* axis = ctx.attr("axis");
  if (axis == nullptr) {
    ctx.SetOutputShape(0, Shape({len}));
    return absl::OkStatus();
  }
  if (in == nullptr) return absl::OkStatus();
  ASSIGN_OR_RETURN(auto a, CheckAxis(ctx, axis->i, static_cast<int64_t>(in->rank())));
  std::vector<Dim> out(in->dims());
  out[a] = len;
  ctx.SetOutputShape(0, Shape(out));
  return absl::OkStatus();
}

absl::Status NonZero(InferenceContext& ctx) {
  if (auto r = ctx.input_rank(0)) {
    ctx.SetOutputShape(0, Shape({Dim::Known(*r), Dim::Unknown()}));
  } else {
    ctx.SetOutputRank(0, 2);
  }
  return absl::OkStatus();
}

absl::Status OneHot(InferenceContext& ctx) {
  const Shape* in = ctx.input_shape(0);
  if (in == nullptr) return absl::OkStatus();
  int64_t out_rank = static_cast<int64_t>(in->rank()) + 1;
  ASSIGN_OR_RETURN(auto axis, CheckAxis(ctx, ctx.GetInt("axis", -1), out_rank));
  Dim depth = Dim::Unknown();
  if (auto d = ctx.input_doubles(1); d && d->size() == 1 && (*d)[0] >= 0 && (*d)[0] < 9e18) {
    depth = Dim::Known(static_cast<int64_t>((*d)[0]));
  }
  std::vector<Dim> out(in->dims());
  out.insert(out.begin() + axis, depth);
  ctx.SetOutputShape(0, Shape(out));
  return absl::OkStatus();
}

absl::Status DepthToSpace(InferenceContext& ctx) {
  const Shape* in = ctx.input_shape(0);
  if (in == nullptr) return absl::OkStatus();
  if (in->rank() != 4) return ctx.Error("input must have rank 4");
  int64_t b = ctx.GetInt("blocksize", 0);
  if (b <= 0 || b > (int64_t{1} << 30)) return ctx.Error("blocksize is out of range");
  Dim bb = Dim::Known(b * b);
  Dim c = in->dim(1);
  if (c.is_known() && c.value() % (b * b) != 0) {
    return ctx.Error("channels are not divisible by blocksize squared");
  }
  ctx.SetOutputShape(0, Shape({in->dim(0), DimFloorDiv(c, bb), DimMul(in->dim(2), Dim::Known(b)),
                               DimMul(in->dim(3), Dim::Known(b))}));
  return absl::OkStatus();
}

absl::Status SpaceToDepth(InferenceContext& ctx) {
  const Shape* in = ctx.input_shape(0);
  if (in == nullptr) return absl::OkStatus();
  if (in->rank() != 4) return ctx.Error("input must have rank 4");
  int64_t b = ctx.GetInt("blocksize", 0);
  if (b <= 0 || b > (int64_t{1} << 30)) return ctx.Error("blocksize is out of range");
  for (size_t i : {2, 3}) {
    if (in->dim(i).is_known() && in->dim(i).value() % b != 0) {
      return ctx.Error("spatial dims are not divisible by blocksize");
    }
  }
  ctx.SetOutputShape(
      0, Shape({in->dim(0), DimMul(in->dim(1), Dim::Known(b * b)),
                DimFloorDiv(in->dim(2), Dim::Known(b)), DimFloorDiv(in->dim(3), Dim::Known(b))}));
  return absl::OkStatus();
}

absl::Status Unique(InferenceContext& ctx) {
  const Shape* in = ctx.input_shape(0);
  const ir::Attribute* axis = ctx.attr("axis");
  for (size_t i = 1; i < ctx.num_outputs(); ++i) ctx.SetOutputRank(i, 1);
  if (axis == nullptr) {
    ctx.SetOutputRank(0, 1);
    if (in != nullptr) ctx.SetOutputShape(2, Shape({DimProduct(in->dims())}));
    return absl::OkStatus();
  }
  if (in == nullptr) return absl::OkStatus();
  ASSIGN_OR_RETURN(auto a, CheckAxis(ctx, axis->i, static_cast<int64_t>(in->rank())));
  std::vector<Dim> out(in->dims());
  out[a] = Dim::Unknown();
  ctx.SetOutputShape(0, Shape(out));
  ctx.SetOutputShape(2, Shape({in->dim(static_cast<size_t>(a))}));
  return absl::OkStatus();
}

absl::Status CenterCropPad(InferenceContext& ctx) {
  const Shape* in = ctx.input_shape(0);
  if (in == nullptr) return absl::OkStatus();
  int64_t rank = static_cast<int64_t>(in->rank());
  std::vector<int64_t> axes;
  if (auto a = ctx.FindInts("axes"); a && !a->empty()) {
    ASSIGN_OR_RETURN(auto norm, CheckAxes(ctx, *a, rank));
    axes = norm;
  } else {
    for (int64_t i = 0; i < rank; ++i) axes.push_back(i);
  }
  std::vector<Dim> out(in->dims());
  auto sv = ctx.input_shape_value(1);
  if (sv && sv->elems.size() != axes.size()) {
    return ctx.Error("shape and axes differ in length");
  }
  for (size_t i = 0; i < axes.size(); ++i) {
    out[axes[i]] = sv ? sv->elems[i] : Dim::Unknown();
  }
  ctx.SetOutputShape(0, Shape(out));
  return absl::OkStatus();
}

// --- Resize / Upsample ---------------------------------------------------------------------------

// floor(d * scale) computed in float, as ONNX does; a symbol survives a scale of 1.
Dim ScaleDim(const Dim& d, double scale) {
  if (d.is_known()) {
    double x = std::floor(static_cast<float>(d.value()) * static_cast<float>(scale));
    if (!(x >= 0 && x < 9e18)) return Dim::Unknown();
    return Dim::Known(static_cast<int64_t>(x));
  }
  if (scale == 1.0) return d;
  return Dim::Unknown();
}

absl::Status Resize(InferenceContext& ctx) {
  const Shape* in = ctx.input_shape(0);
  if (in == nullptr) return absl::OkStatus();
  int64_t rank = static_cast<int64_t>(in->rank());
  int v = ctx.since_version();
  std::vector<int64_t> axes;
  if (auto a = ctx.FindInts("axes"); v >= 18 && a && !a->empty()) {
    ASSIGN_OR_RETURN(auto norm, CheckAxes(ctx, *a, rank));
    axes = norm;
  } else {
    for (int64_t i = 0; i < rank; ++i) axes.push_back(i);
  }
  std::vector<Dim> out(in->dims());
  size_t scales_input = v < 11 ? 1 : 2;
  // Sizes (opset 11+), when given and non-empty.
  if (v >= 11 && ctx.has_input(3)) {
    auto sizes = ctx.input_shape_value(3);
    if (sizes && !sizes->elems.empty()) {
      if (sizes->elems.size() != axes.size()) {
        return ctx.Error(
            absl::StrCat("sizes has ", sizes->elems.size(), " values for ", axes.size(), " axes"));
      }
      std::string policy = ctx.GetString("keep_aspect_ratio_policy", "stretch");
      if (policy == "stretch" || v < 18) {
        for (size_t i = 0; i < axes.size(); ++i) out[axes[i]] = sizes->elems[i];
      } else {
        auto known = sizes->known();
        bool in_known = true;
        for (int64_t a : axes) in_known = in_known && in->dim(static_cast<size_t>(a)).is_known();
        if (known && in_known) {
          float scale = policy == "not_larger" ? std::numeric_limits<float>::max() : 0.0f;
          for (size_t i = 0; i < axes.size(); ++i) {
            float s = static_cast<float>((*known)[i]) /
                      static_cast<float>(in->dim(static_cast<size_t>(axes[i])).value());
            scale = policy == "not_larger" ? std::min(scale, s) : std::max(scale, s);
          }
          for (size_t i = 0; i < axes.size(); ++i) {
            float x = scale * static_cast<float>(in->dim(static_cast<size_t>(axes[i])).value());
            out[axes[i]] = x >= 0 && x < 9e18 ? Dim::Known(static_cast<int64_t>(std::round(x)))
                                              : Dim::Unknown();
          }
        } else {
          for (int64_t a : axes) out[a] = Dim::Unknown();
        }
      }
      ctx.SetOutputShape(0, Shape(out));
      return absl::OkStatus();
    }
    if (!sizes) {
      const Shape* ss = ctx.input_shape(3);
      bool empty =
          ss != nullptr && ss->rank() == 1 && ss->dim(0).is_known() && ss->dim(0).value() == 0;
      if (!empty) {
        ctx.SetOutputRank(0, in->rank());
        return absl::OkStatus();
      }
    }
  }
  auto scales = ctx.input_doubles(scales_input);
  if (!scales || scales->empty()) {
    ctx.SetOutputRank(0, in->rank());
    return absl::OkStatus();
  }
  if (scales->size() != axes.size()) {
    return ctx.Error(
        absl::StrCat("scales has ", scales->size(), " values for ", axes.size(), " axes"));
  }
  for (size_t i = 0; i < axes.size(); ++i) {
    out[axes[i]] = ScaleDim(in->dim(static_cast<size_t>(axes[i])), (*scales)[i]);
  }
  ctx.SetOutputShape(0, Shape(out));
  return absl::OkStatus();
}

absl::Status Upsample(InferenceContext& ctx) {
  const Shape* in = ctx.input_shape(0);
  if (in == nullptr) return absl::OkStatus();
  std::optional<std::vector<double>> scales;
  if (ctx.since_version() >= 9) {
    scales = ctx.input_doubles(1);
  } else if (ctx.since_version() >= 7) {
    auto f = ctx.GetFloats("scales");
    if (!f.empty()) scales = std::vector<double>(f.begin(), f.end());
  } else if (in->rank() == 4) {
    scales = std::vector<double>{1.0, 1.0, ctx.GetFloat("height_scale", 1.0f),
                                 ctx.GetFloat("width_scale", 1.0f)};
  }
  if (!scales) {
    ctx.SetOutputRank(0, in->rank());
    return absl::OkStatus();
  }
  if (scales->size() != in->rank()) return ctx.Error("scales and input rank differ");
  std::vector<Dim> out;
  for (size_t i = 0; i < in->rank(); ++i) out.push_back(ScaleDim(in->dim(i), (*scales)[i]));
  ctx.SetOutputShape(0, Shape(out));
  return absl::OkStatus();
}

absl::Status GridSample(InferenceContext& ctx) {
  const Shape* x = ctx.input_shape(0);
  const Shape* grid = ctx.input_shape(1);
  if (x == nullptr && grid == nullptr) return absl::OkStatus();
  size_t rank = x != nullptr ? x->rank() : grid->rank();
  if (rank < 3) return ctx.Error("X and grid need rank 3 or more");
  std::vector<Dim> out(rank);
  if (x != nullptr) {
    out[0] = x->dim(0);
    out[1] = x->dim(1);
  }
  if (grid != nullptr) {
    if (grid->rank() != rank) return ctx.Error("X and grid differ in rank");
    out[0] = MergeDims(out[0], grid->dim(0));
    for (size_t i = 2; i < rank; ++i) out[i] = grid->dim(i - 1);
  }
  ctx.SetOutputShape(0, Shape(out));
  return absl::OkStatus();
}

absl::Status AffineGrid(InferenceContext& ctx) {
  auto size = ctx.input_shape_value(1);
  if (!size) {
    const Shape* s = ctx.input_shape(1);
    if (s != nullptr && s->rank() == 1 && s->dim(0).is_known()) {
      ctx.SetOutputRank(0, static_cast<size_t>(s->dim(0).value()));
    }
    return absl::OkStatus();
  }
  size_t n = size->elems.size();
  if (n != 4 && n != 5) return ctx.Error("size must have 4 or 5 values");
  std::vector<Dim> out;
  out.push_back(size->elems[0]);
  for (size_t i = 2; i < n; ++i) out.push_back(size->elems[i]);
  out.push_back(Dim::Known(static_cast<int64_t>(n - 2)));
  ctx.SetOutputShape(0, Shape(out));
  return absl::OkStatus();
}

absl::Status Col2Im(InferenceContext& ctx) {
  const Shape* in = ctx.input_shape(0);
  auto image = ctx.input_shape_value(1);
  auto block = ctx.input_ints(2);
  if (!image) return absl::OkStatus();
  std::vector<Dim> out;
  out.push_back(in != nullptr && in->rank() == 3 ? in->dim(0) : Dim::Unknown());
  Dim c = Dim::Unknown();
  if (in != nullptr && in->rank() == 3 && block) {
    int64_t prod = 1;
    for (int64_t b : *block) prod *= b;
    c = DimFloorDiv(in->dim(1), Dim::Known(prod));
  }
  out.push_back(c);
  out.insert(out.end(), image->elems.begin(), image->elems.end());
  ctx.SetOutputShape(0, Shape(out));
  return absl::OkStatus();
}

absl::Status BitCast(InferenceContext& ctx) {
  ASSIGN_OR_RETURN(auto to, DataTypeAttr(ctx, ctx.GetInt("to", 0)));
  ctx.SetOutputElemType(0, to);
  ctx.PropagateShape(0, 0);
  return absl::OkStatus();
}

}  // namespace

void RegisterTensorOps(InferenceRegistry& r) {
  r.Register("Transpose", Transpose);
  r.Register("Split", Split);
  r.Register("Pad", Pad);
  r.Register("GatherElements", GatherElements);
  r.Register("GatherND", GatherND);
  r.Register("Compress", Compress);
  r.Register("NonZero", NonZero);
  r.Register("OneHot", OneHot);
  r.Register("DepthToSpace", DepthToSpace);
  r.Register("SpaceToDepth", SpaceToDepth);
  r.Register("Unique", Unique);
  r.Register("CenterCropPad", CenterCropPad);
  r.Register("Resize", Resize);
  r.Register("Upsample", Upsample);
  r.Register("GridSample", GridSample);
  r.Register("AffineGrid", AffineGrid);
  r.Register("Col2Im", Col2Im);
  r.Register("TensorScatter", SameShapeAsInput0);
  r.Register("BitCast", BitCast);
}

}  // namespace onnx_opt::schema::inference
