// Operators that compute, consume or rearrange shapes: Shape, Size, Reshape, Flatten, Squeeze,
// Unsqueeze, Expand, Tile, Concat, Gather, Slice, ConstantOfShape, Constant, Range, Identity.
// Shape values (what Shape(x) produces) are tracked through them, symbolic dims included.
#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include "schema/inference/ops_util.h"

namespace onnx_opt::schema::inference {
namespace {

using ir::Dim;
using ir::Shape;

constexpr uint64_t kMaxValueElements = 1024;

// --- Shape / Size ------------------------------------------------------------------------------

absl::Status ShapeOp(InferenceContext& ctx) {
  const Shape* in = ctx.input_shape(0);
  if (in == nullptr) {
    ctx.SetOutputRank(0, 1);
    return absl::OkStatus();
  }
  int64_t rank = static_cast<int64_t>(in->rank());
  int64_t start = ctx.GetInt("start", 0);
  int64_t end = rank;
  if (const ir::Attribute* a = ctx.attr("end")) end = a->i;
  auto clamp = [rank](int64_t x) {
    if (x < 0) x += rank;
    return std::clamp<int64_t>(x, 0, rank);
  };
  start = clamp(start);
  end = clamp(end);
  ShapeValue sv;
  for (int64_t i = start; i < end; ++i) sv.elems.push_back(in->dim(static_cast<size_t>(i)));
  ctx.SetOutputShape(0, Shape::FromSizes({static_cast<int64_t>(sv.elems.size())}));
  ctx.SetOutputShapeValue(0, std::move(sv));
  return absl::OkStatus();
}

absl::Status Size(InferenceContext& ctx) {
  ctx.SetOutputShape(0, Shape());
  if (const Shape* in = ctx.input_shape(0)) {
    ShapeValue sv;
    sv.scalar = true;
    sv.elems.push_back(DimProduct(in->dims()));
    ctx.SetOutputShapeValue(0, std::move(sv));
  }
  return absl::OkStatus();
}

// --- Reshape -----------------------------------------------------------------------------------

absl::Status ReshapeTo(InferenceContext& ctx, const std::vector<Dim>& target, bool allowzero) {
  const Shape* in = ctx.input_shape(0);
  std::vector<Dim> out;
  int negative = -1;
  for (size_t i = 0; i < target.size(); ++i) {
    const Dim& e = target[i];
    if (!e.is_known()) {
      out.push_back(e);
      continue;
    }
    int64_t v = e.value();
    if (v == 0 && !allowzero) {
      if (in != nullptr && i >= in->rank()) {
        return ctx.Error(
            absl::StrCat("shape element ", i, " is 0 (copy) but the input has rank ", in->rank()));
      }
      out.push_back(in != nullptr ? in->dim(i) : Dim::Unknown());
    } else if (v == -1) {
      if (negative >= 0) return ctx.Error("shape has more than one -1");
      negative = static_cast<int>(i);
      out.push_back(Dim::Unknown());
    } else if (v < -1) {
      return ctx.Error(absl::StrCat("shape element ", i, " is ", v));
    } else {
      out.push_back(e);
    }
  }
  if (negative >= 0 && in != nullptr) {
    std::vector<Dim> others;
    for (size_t i = 0; i < out.size(); ++i) {
      if (static_cast<int>(i) != negative) others.push_back(out[i]);
    }
    out[negative] = DivideProducts(ProductOf(in->dims()), ProductOf(others));
  }
  if (in != nullptr) {
    auto n_in = in->num_elements();
    auto n_out = Shape(out).num_elements();
    if (n_in && n_out && *n_in != *n_out) {
      return ctx.Error(absl::StrCat("cannot reshape ", ir::ShapeToString(*in), " (", *n_in,
                                    " elements) to ", ir::ShapeToString(Shape(out))));
    }
  }
  ctx.SetOutputShape(0, Shape(out));
  // A shape value reshaped (to a scalar or a vector) keeps its elements.
  if (auto v = ctx.input_shape_value(0)) {
    if (out.size() <= 1) {
      ShapeValue r = *v;
      r.scalar = out.empty();
      if (!r.scalar || r.elems.size() == 1) ctx.SetOutputShapeValue(0, std::move(r));
    }
  }
  return absl::OkStatus();
}

absl::Status Reshape(InferenceContext& ctx) {
  bool allowzero = ctx.GetInt("allowzero", 0) != 0;
  if (ctx.since_version() < 5) {
    auto shape = ctx.FindInts("shape");
    if (!shape) return absl::OkStatus();
    std::vector<Dim> target;
    for (int64_t v : *shape) target.push_back(Dim::Known(v));
    return ReshapeTo(ctx, target, false);
  }
  if (auto sv = ctx.input_shape_value(1)) return ReshapeTo(ctx, sv->elems, allowzero);
  const Shape* s = ctx.input_shape(1);
  if (s != nullptr && s->rank() == 1 && s->dim(0).is_known()) {
    ctx.SetOutputRank(0, static_cast<size_t>(s->dim(0).value()));
  }
  return absl::OkStatus();
}

// --- Flatten -----------------------------------------------------------------------------------

absl::Status Flatten(InferenceContext& ctx) {
  const Shape* in = ctx.input_shape(0);
  if (in == nullptr) {
    ctx.SetOutputRank(0, 2);
    return absl::OkStatus();
  }
  int64_t rank = static_cast<int64_t>(in->rank());
  int64_t axis = ctx.GetInt("axis", 1);
  if (axis < 0) axis += rank;
  if (axis < 0 || axis > rank)
    return ctx.Error(absl::StrCat("axis is out of range for rank ", rank));
  std::vector<Dim> head(in->dims().begin(), in->dims().begin() + axis);
  std::vector<Dim> tail(in->dims().begin() + axis, in->dims().end());
  ctx.SetOutputShape(0, Shape({DimProduct(head), DimProduct(tail)}));
  return absl::OkStatus();
}

// --- Squeeze / Unsqueeze -------------------------------------------------------------------------

// The axes of Squeeze/Unsqueeze/Reduce*: an attribute up to `attr_until`, an input after.
// nullopt (with *given=true) when they are given but not known.
std::optional<std::vector<int64_t>> AxesOf(const InferenceContext& ctx, bool from_input,
                                           size_t input, bool* given) {
  *given = false;
  if (!from_input) {
    const ir::Attribute* a = ctx.attr("axes");
    if (a == nullptr) return std::nullopt;
    *given = true;
    return a->ints;
  }
  if (!ctx.has_input(input)) return std::nullopt;
  *given = true;
  return ctx.input_ints(input);
}

absl::Status Squeeze(InferenceContext& ctx) {
  const Shape* in = ctx.input_shape(0);
  bool given;
  auto axes = AxesOf(ctx, ctx.since_version() >= 13, 1, &given);
  if (in == nullptr) return absl::OkStatus();
  int64_t rank = static_cast<int64_t>(in->rank());
  std::vector<Dim> out;
  if (given) {
    if (!axes) return absl::OkStatus();
    ASSIGN_OR_RETURN(auto norm, CheckAxes(ctx, *axes, rank));
    std::set<int64_t> drop(norm.begin(), norm.end());
    for (int64_t i = 0; i < rank; ++i) {
      const Dim& d = in->dim(static_cast<size_t>(i));
      if (drop.count(i)) {
        if (d.is_known() && d.value() != 1) {
          return ctx.Error(absl::StrCat("cannot squeeze axis ", i, " of size ", d.value()));
        }
      } else {
        out.push_back(d);
      }
    }
  } else {
    for (const Dim& d : in->dims()) {
      if (!d.is_known()) return absl::OkStatus();  // whether it is 1 is not known
      if (d.value() != 1) out.push_back(d);
    }
  }
  ctx.SetOutputShape(0, Shape(out));
  if (auto v = ctx.input_shape_value(0)) {
    if (out.empty() && v->elems.size() == 1) {
      ShapeValue s = *v;
      s.scalar = true;
      ctx.SetOutputShapeValue(0, std::move(s));
    }
  }
  return absl::OkStatus();
}

absl::Status Unsqueeze(InferenceContext& ctx) {
  const Shape* in = ctx.input_shape(0);
  bool given;
  auto axes = AxesOf(ctx, ctx.since_version() >= 13, 1, &given);
  if (in == nullptr) return absl::OkStatus();
  if (!axes) {
    // Unknown axes: the number of them still fixes the rank.
    const Shape* as = ctx.input_shape(1);
    if (given && as != nullptr && as->rank() == 1 && as->dim(0).is_known()) {
      ctx.SetOutputRank(0, in->rank() + static_cast<size_t>(as->dim(0).value()));
    }
    return absl::OkStatus();
  }
  int64_t out_rank = static_cast<int64_t>(in->rank() + axes->size());
  ASSIGN_OR_RETURN(auto norm, CheckAxes(ctx, *axes, out_rank));
  std::set<int64_t> insert(norm.begin(), norm.end());
  if (insert.size() != norm.size()) return ctx.Error("axes has duplicates");
  std::vector<Dim> out;
  size_t j = 0;
  for (int64_t i = 0; i < out_rank; ++i) {
    if (insert.count(i)) {
      out.push_back(Dim::Known(1));
    } else {
      out.push_back(in->dim(j++));
    }
  }
  ctx.SetOutputShape(0, Shape(out));
  if (auto v = ctx.input_shape_value(0)) {
    if (out.size() == 1) {
      ShapeValue s = *v;
      s.scalar = false;
      ctx.SetOutputShapeValue(0, std::move(s));
    }
  }
  return absl::OkStatus();
}

// --- Expand / Tile -------------------------------------------------------------------------------

absl::Status Expand(InferenceContext& ctx) {
  const Shape* in = ctx.input_shape(0);
  auto sv = ctx.input_shape_value(1);
  if (in != nullptr && sv) {
    auto b = BroadcastShapes(*in, Shape(sv->elems));
    if (!b.ok()) return ctx.Error(b.status().message());
    ctx.SetOutputShape(0, *b);
    return absl::OkStatus();
  }
  const Shape* s = ctx.input_shape(1);
  if (in != nullptr && s != nullptr && s->rank() == 1 && s->dim(0).is_known()) {
    ctx.SetOutputRank(0, std::max<size_t>(in->rank(), static_cast<size_t>(s->dim(0).value())));
  }
  return absl::OkStatus();
}

// Tile-1: `tiles` copies along `axis` (both scalar inputs).
absl::Status TileV1(InferenceContext& ctx) {
  const Shape* in = ctx.input_shape(0);
  if (in == nullptr) return absl::OkStatus();
  auto tiles = ctx.input_ints(1);
  auto axis = ctx.input_ints(2);
  std::vector<Dim> out(in->rank());
  if (tiles && axis && tiles->size() == 1 && axis->size() == 1) {
    ASSIGN_OR_RETURN(auto a, CheckAxis(ctx, (*axis)[0], static_cast<int64_t>(in->rank())));
    out = in->dims();
    out[a] = DimMul(out[a], Dim::Known((*tiles)[0]));
  }
  ctx.SetOutputShape(0, Shape(out));
  return absl::OkStatus();
}

absl::Status Tile(InferenceContext& ctx) {
  const Shape* in = ctx.input_shape(0);
  if (in == nullptr) return absl::OkStatus();
  auto reps = ctx.input_shape_value(1);
  if (!reps) {
    ctx.SetOutputRank(0, in->rank());
    return absl::OkStatus();
  }
  if (reps->elems.size() != in->rank()) {
    return ctx.Error(
        absl::StrCat("repeats has ", reps->elems.size(), " values for rank ", in->rank()));
  }
  std::vector<Dim> out;
  for (size_t i = 0; i < in->rank(); ++i) out.push_back(DimMul(in->dim(i), reps->elems[i]));
  ctx.SetOutputShape(0, Shape(out));
  return absl::OkStatus();
}

// --- Concat ------------------------------------------------------------------------------------

absl::Status Concat(InferenceContext& ctx) {
  std::optional<int64_t> rank;
  for (size_t i = 0; i < ctx.num_inputs(); ++i) {
    if (auto r = ctx.input_rank(i)) {
      if (rank && *rank != *r) return ctx.Error("inputs have different ranks");
      rank = r;
    }
  }
  if (!rank) return absl::OkStatus();
  int64_t default_axis = ctx.since_version() < 4 ? 1 : 0;
  ASSIGN_OR_RETURN(auto axis, CheckAxis(ctx, ctx.GetInt("axis", default_axis), *rank));
  std::vector<Dim> out(static_cast<size_t>(*rank));
  bool all_known_rank = true;
  Dim sum = Dim::Known(0);
  for (size_t i = 0; i < ctx.num_inputs(); ++i) {
    const Shape* s = ctx.input_shape(i);
    if (s == nullptr) {
      all_known_rank = false;
      continue;
    }
    for (int64_t d = 0; d < *rank; ++d) {
      const Dim& di = s->dim(static_cast<size_t>(d));
      if (d == axis) {
        sum = DimAdd(sum, di);
      } else {
        if (DimsConflict(out[d], di)) {
          return ctx.Error(absl::StrCat("inputs differ in dimension ", d));
        }
        out[d] = MergeDims(out[d], di);
      }
    }
  }
  out[axis] = all_known_rank ? sum : Dim::Unknown();
  ctx.SetOutputShape(0, Shape(out));
  if (*rank == 1) {
    ShapeValue v;
    for (size_t i = 0; i < ctx.num_inputs(); ++i) {
      auto sv = ctx.input_shape_value(i);
      if (!sv) return absl::OkStatus();
      v.elems.insert(v.elems.end(), sv->elems.begin(), sv->elems.end());
    }
    ctx.SetOutputShapeValue(0, std::move(v));
  }
  return absl::OkStatus();
}

// --- Gather ------------------------------------------------------------------------------------

absl::Status Gather(InferenceContext& ctx) {
  const Shape* data = ctx.input_shape(0);
  const Shape* indices = ctx.input_shape(1);
  if (data == nullptr) return absl::OkStatus();
  int64_t rank = static_cast<int64_t>(data->rank());
  if (rank == 0) return ctx.Error("data must have rank >= 1");
  ASSIGN_OR_RETURN(auto axis, CheckAxis(ctx, ctx.GetInt("axis", 0), rank));
  auto iv = ctx.input_shape_value(1);
  if (indices != nullptr) {
    std::vector<Dim> out(data->dims().begin(), data->dims().begin() + axis);
    out.insert(out.end(), indices->dims().begin(), indices->dims().end());
    out.insert(out.end(), data->dims().begin() + axis + 1, data->dims().end());
    ctx.SetOutputShape(0, Shape(out));
  }
  // Gathering from a shape value.
  auto dv = ctx.input_shape_value(0);
  if (dv && !dv->scalar && iv && rank == 1) {
    bool scalar_index = indices != nullptr ? indices->rank() == 0 : iv->scalar;
    if (indices != nullptr && indices->rank() > 1) return absl::OkStatus();
    ShapeValue out;
    out.scalar = scalar_index;
    int64_t n = static_cast<int64_t>(dv->elems.size());
    for (const Dim& i : iv->elems) {
      if (!i.is_known()) {
        out.elems.push_back(Dim::Unknown());
        continue;
      }
      int64_t k = i.value() < 0 ? i.value() + n : i.value();
      if (k < 0 || k >= n) return ctx.Error(absl::StrCat("index ", i.value(), " is out of range"));
      out.elems.push_back(dv->elems[static_cast<size_t>(k)]);
    }
    ctx.SetOutputShapeValue(0, std::move(out));
  }
  return absl::OkStatus();
}

// --- Slice -------------------------------------------------------------------------------------

constexpr int64_t kBig = std::numeric_limits<int32_t>::max();

// The length of slicing a dimension of size `d`; ONNX's clamping rules.
int64_t SliceLength(int64_t d, int64_t start, int64_t end, int64_t step) {
  if (d <= 0) return 0;
  if (start < 0) start += d;
  if (end < 0) end += d;
  if (step > 0) {
    start = std::clamp<int64_t>(start, 0, d);
    end = std::clamp<int64_t>(end, 0, d);
    if (end <= start) return 0;
    return (end - start - 1) / step + 1;
  }
  start = std::clamp<int64_t>(start, 0, d - 1);
  end = std::clamp<int64_t>(end, -1, d - 1);
  if (start <= end) return 0;
  // -step without overflow: a step beyond the range takes one element.
  uint64_t magnitude = static_cast<uint64_t>(-(step + 1)) + 1;
  return static_cast<int64_t>(static_cast<uint64_t>(start - end - 1) / magnitude) + 1;
}

// Slicing [start, end, step) of a dim whose size is not known: only whole-axis slices are sure.
Dim SliceUnknown(const Dim& d, int64_t start, int64_t end, int64_t step) {
  if (step == 1 && start == 0 && end >= kBig) return d;
  if (step == -1 && (start == -1 || start >= kBig) && end <= -kBig) return d;
  return Dim::Unknown();
}

absl::Status Slice(InferenceContext& ctx) {
  const Shape* in = ctx.input_shape(0);
  std::optional<std::vector<int64_t>> starts, ends, axes, steps;
  bool axes_given = false;
  if (ctx.since_version() < 10) {
    starts = ctx.FindInts("starts");
    ends = ctx.FindInts("ends");
    axes = ctx.FindInts("axes");
    axes_given = axes.has_value();
  } else {
    starts = ctx.input_ints(1);
    ends = ctx.input_ints(2);
    if (ctx.has_input(3)) {
      axes_given = true;
      axes = ctx.input_ints(3);
    }
    if (ctx.has_input(4)) {
      steps = ctx.input_ints(4);
      if (!steps) starts.reset();  // unknown steps: lengths unknown
    }
  }
  if (in == nullptr) return absl::OkStatus();
  int64_t rank = static_cast<int64_t>(in->rank());
  if (!starts || !ends || (axes_given && !axes)) {
    // Dims outside known axes are preserved.
    std::vector<Dim> out(in->dims());
    if (axes_given && axes) {
      ASSIGN_OR_RETURN(auto norm, CheckAxes(ctx, *axes, rank));
      for (int64_t a : norm) out[a] = Dim::Unknown();
    } else {
      out.assign(in->rank(), Dim::Unknown());
    }
    ctx.SetOutputShape(0, Shape(out));
    return absl::OkStatus();
  }
  if (starts->size() != ends->size()) return ctx.Error("starts and ends differ in length");
  if (!axes) {
    axes.emplace();
    for (size_t i = 0; i < starts->size(); ++i) axes->push_back(static_cast<int64_t>(i));
  }
  if (!steps) steps = std::vector<int64_t>(starts->size(), 1);
  if (axes->size() != starts->size() || steps->size() != starts->size()) {
    return ctx.Error("starts, ends, axes and steps differ in length");
  }
  ASSIGN_OR_RETURN(auto norm, CheckAxes(ctx, *axes, rank));
  std::vector<Dim> out(in->dims());
  for (size_t i = 0; i < norm.size(); ++i) {
    int64_t step = (*steps)[i];
    if (step == 0) return ctx.Error("step is 0");
    const Dim& d = in->dim(static_cast<size_t>(norm[i]));
    if (d.is_known()) {
      out[norm[i]] = Dim::Known(SliceLength(d.value(), (*starts)[i], (*ends)[i], step));
    } else {
      out[norm[i]] = SliceUnknown(d, (*starts)[i], (*ends)[i], step);
    }
  }
  ctx.SetOutputShape(0, Shape(out));
  // Slicing a shape value.
  auto dv = ctx.input_shape_value(0);
  if (dv && !dv->scalar && rank == 1 && norm.size() == 1) {
    int64_t n = static_cast<int64_t>(dv->elems.size());
    int64_t start = (*starts)[0], end = (*ends)[0], step = (*steps)[0];
    int64_t len = SliceLength(n, start, end, step);
    if (start < 0) start += n;
    start = step > 0 ? std::clamp<int64_t>(start, 0, n) : std::clamp<int64_t>(start, 0, n - 1);
    ShapeValue v;
    for (int64_t k = 0; k < len; ++k) v.elems.push_back(dv->elems[start + k * step]);
    ctx.SetOutputShapeValue(0, std::move(v));
  }
  return absl::OkStatus();
}

// --- Constants ---------------------------------------------------------------------------------

std::optional<ShapeValue> SmallIntValue(const ir::Tensor& t) {
  if (t.dims().size() > 1) return std::nullopt;
  auto n = t.num_elements();
  if (!n || *n > kMaxValueElements) return std::nullopt;
  auto ints = TensorToInts(t);
  if (!ints) return std::nullopt;
  ShapeValue v;
  v.scalar = t.dims().empty();
  for (int64_t x : *ints) v.elems.push_back(Dim::Known(x));
  return v;
}

absl::Status ConstantOfShape(InferenceContext& ctx) {
  const ir::Attribute* value = ctx.attr("value");
  ir::DataType elem = ir::DataType::kFloat;
  if (value != nullptr && value->kind() == ir::AttributeKind::kTensor) elem = value->t->data_type();
  ctx.SetOutputElemType(0, elem);
  auto sv = ctx.input_shape_value(0);
  if (!sv) {
    const Shape* s = ctx.input_shape(0);
    if (s != nullptr && s->rank() == 1 && s->dim(0).is_known()) {
      ctx.SetOutputRank(0, static_cast<size_t>(s->dim(0).value()));
    }
    return absl::OkStatus();
  }
  for (const Dim& d : sv->elems) {
    if (d.is_known() && d.value() < 0) return ctx.Error("shape has a negative dimension");
  }
  Shape out(sv->elems);
  ctx.SetOutputShape(0, out);
  // A small integer fill is a shape value too.
  auto n = out.num_elements();
  if (out.rank() <= 1 && n && static_cast<uint64_t>(*n) <= kMaxValueElements) {
    int64_t fill = 0;
    if (value != nullptr && value->kind() == ir::AttributeKind::kTensor) {
      auto v = TensorToInts(value->t);
      if (!v || v->size() != 1) return absl::OkStatus();
      fill = (*v)[0];
    } else if (value != nullptr) {
      return absl::OkStatus();
    } else {
      return absl::OkStatus();  // float zeros
    }
    ShapeValue r;
    r.scalar = out.rank() == 0;
    r.elems.assign(static_cast<size_t>(*n), Dim::Known(fill));
    ctx.SetOutputShapeValue(0, std::move(r));
  }
  return absl::OkStatus();
}

absl::Status Constant(InferenceContext& ctx) {
  const ir::Node& node = ctx.node();
  if (node.attributes().empty()) return ctx.Error("has no value attribute");
  const ir::Attribute* a = ctx.attr(node.attributes()[0].name());
  if (a == nullptr) return absl::OkStatus();  // an unresolved reference
  const ir::Tensor* t = nullptr;
  switch (a->kind()) {
    case ir::AttributeKind::kTensor:
      t = &a->t.get();
      break;
    case ir::AttributeKind::kSparseTensor:
      ctx.SetOutputType(0, ir::Type::SparseTensor(a->sparse_tensor->values.data_type(),
                                                  Shape::FromSizes(a->sparse_tensor->dims)));
      return absl::OkStatus();
    case ir::AttributeKind::kInt:
      t = ctx.OwnTensor(ir::Tensor::FromVector<int64_t>(ir::DataType::kInt64, {}, {a->i}));
      break;
    case ir::AttributeKind::kInts:
      t = ctx.OwnTensor(ir::Tensor::FromVector<int64_t>(
          ir::DataType::kInt64, {static_cast<int64_t>(a->ints.size())}, a->ints));
      break;
    case ir::AttributeKind::kFloat:
      t = ctx.OwnTensor(ir::Tensor::FromVector<float>(ir::DataType::kFloat, {}, {a->f}));
      break;
    case ir::AttributeKind::kFloats:
      t = ctx.OwnTensor(ir::Tensor::FromVector<float>(
          ir::DataType::kFloat, {static_cast<int64_t>(a->floats.size())}, a->floats));
      break;
    case ir::AttributeKind::kString:
      ctx.SetOutputType(0, ir::Type::Tensor(ir::DataType::kString, Shape()));
      return absl::OkStatus();
    case ir::AttributeKind::kStrings:
      ctx.SetOutputType(
          0, ir::Type::Tensor(ir::DataType::kString,
                              Shape::FromSizes({static_cast<int64_t>(a->strings.size())})));
      return absl::OkStatus();
    default:
      return ctx.Error(absl::StrCat("unsupported attribute '", a->name(), "'"));
  }
  ctx.SetOutputType(0, ir::Type::Tensor(t->data_type(), Shape::FromSizes(t->dims())));
  ctx.SetOutputConstant(0, t);
  if (auto v = SmallIntValue(*t)) ctx.SetOutputShapeValue(0, *std::move(v));
  return absl::OkStatus();
}

absl::Status Range(InferenceContext& ctx) {
  ctx.SetOutputRank(0, 1);
  ir::DataType elem = ctx.input_elem_type(0);
  if (ir::IsWholeByteInteger(elem)) {
    auto s = ctx.input_ints(0), l = ctx.input_ints(1), d = ctx.input_ints(2);
    if (!s || !l || !d || s->size() != 1 || l->size() != 1 || d->size() != 1) {
      // Range(0, N, 1) has N elements, whatever N is.
      auto lv = ctx.input_shape_value(1);
      if (s && d && s->size() == 1 && d->size() == 1 && (*s)[0] == 0 && (*d)[0] == 1 && lv &&
          lv->elems.size() == 1 && lv->elems[0].is_symbolic()) {
        ctx.SetOutputShape(0, Shape({lv->elems[0]}));
      }
      return absl::OkStatus();
    }
    int64_t start = (*s)[0], limit = (*l)[0], delta = (*d)[0];
    if (delta == 0) return ctx.Error("delta is 0");
    int64_t span;
    if (__builtin_sub_overflow(limit, start, &span)) return absl::OkStatus();
    // ceil(span / delta), computed exactly.
    int64_t count = span / delta;
    if (span % delta != 0 && ((span < 0) == (delta < 0))) ++count;
    count = std::max<int64_t>(0, count);
    ctx.SetOutputShape(0, Shape::FromSizes({count}));
    if (static_cast<uint64_t>(count) <= kMaxValueElements) {
      ShapeValue v;
      for (int64_t i = 0; i < count; ++i) v.elems.push_back(Dim::Known(start + i * delta));
      ctx.SetOutputShapeValue(0, std::move(v));
    }
    return absl::OkStatus();
  }
  auto s = ctx.input_doubles(0), l = ctx.input_doubles(1), d = ctx.input_doubles(2);
  if (!s || !l || !d || s->size() != 1 || l->size() != 1 || d->size() != 1) {
    return absl::OkStatus();
  }
  if ((*d)[0] == 0) return ctx.Error("delta is 0");
  double n = std::ceil(((*l)[0] - (*s)[0]) / (*d)[0]);
  if (elem == ir::DataType::kFloat) {
    n = std::ceil(static_cast<float>((static_cast<float>((*l)[0]) - static_cast<float>((*s)[0])) /
                                     static_cast<float>((*d)[0])));
  }
  if (!(n < 9e18)) return absl::OkStatus();  // infinite or NaN: unknown
  ctx.SetOutputShape(0, Shape::FromSizes({std::max<int64_t>(0, static_cast<int64_t>(n))}));
  return absl::OkStatus();
}

absl::Status Identity(InferenceContext& ctx) {
  ctx.PropagateType(0, 0);
  if (auto v = ctx.input_shape_value(0)) ctx.SetOutputShapeValue(0, *v);
  if (const ir::Tensor* t = ctx.input_constant(0)) ctx.SetOutputConstant(0, t);
  return absl::OkStatus();
}

}  // namespace

void RegisterShapeOps(InferenceRegistry& r) {
  r.Register("Shape", ShapeOp);
  r.Register("Size", Size);
  r.Register("Reshape", Reshape);
  r.Register("Flatten", Flatten);
  r.Register("Squeeze", Squeeze);
  r.Register("Unsqueeze", Unsqueeze);
  r.Register("Expand", Expand);
  r.Register("Tile", 1, 5, TileV1);
  r.Register("Tile", 6, kLatest, Tile);
  r.Register("Concat", Concat);
  r.Register("Gather", Gather);
  r.Register("Slice", Slice);
  r.Register("ConstantOfShape", ConstantOfShape);
  r.Register("Constant", Constant);
  r.Register("Range", Range);
  r.Register("Identity", Identity);
}

}  // namespace onnx_opt::schema::inference
