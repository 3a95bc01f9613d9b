// Reductions (Reduce*, with axes as an attribute or, in newer versions, an input), ArgMax/ArgMin
// and TopK.
#include <set>

#include "schema/inference/ops_util.h"

namespace onnx_opt::schema::inference {
namespace {

using ir::Dim;
using ir::Shape;

// axes_input_since: the first since_version that takes axes as input 1.
absl::Status Reduce(InferenceContext& ctx, int axes_input_since) {
  const Shape* in = ctx.input_shape(0);
  bool keepdims = ctx.GetInt("keepdims", 1) != 0;
  bool from_input = ctx.since_version() >= axes_input_since;
  std::optional<std::vector<int64_t>> axes;
  bool axes_unknown = false;
  if (from_input) {
    if (ctx.has_input(1)) {
      axes = ctx.input_ints(1);
      axes_unknown = !axes.has_value();
    }
  } else if (const ir::Attribute* a = ctx.attr("axes")) {
    axes = a->ints;
  }
  if (in == nullptr) return absl::OkStatus();
  int64_t rank = static_cast<int64_t>(in->rank());
  if (axes_unknown) {
    if (keepdims) {
      ctx.SetOutputRank(0, in->rank());
    } else if (const Shape* as = ctx.input_shape(1);
               as != nullptr && as->rank() == 1 && as->dim(0).is_known() &&
               as->dim(0).value() > 0 && as->dim(0).value() <= rank) {
      ctx.SetOutputRank(0, static_cast<size_t>(rank - as->dim(0).value()));
    }
    return absl::OkStatus();
  }
  if (!axes || axes->empty()) {
    if (from_input && ctx.GetInt("noop_with_empty_axes", 0) != 0) {
      ctx.SetOutputShape(0, *in);
      return absl::OkStatus();
    }
    axes.emplace();
    for (int64_t i = 0; i < rank; ++i) axes->push_back(i);
  }
  ASSIGN_OR_RETURN(auto norm, CheckAxes(ctx, *axes, rank));
  std::set<int64_t> reduce(norm.begin(), norm.end());
  std::vector<Dim> out;
  for (int64_t i = 0; i < rank; ++i) {
    if (reduce.count(i)) {
      if (keepdims) out.push_back(Dim::Known(1));
    } else {
      out.push_back(in->dim(static_cast<size_t>(i)));
    }
  }
  ctx.SetOutputShape(0, Shape(out));
  return absl::OkStatus();
}

InferFn ReduceFn(int axes_input_since) {
  return [axes_input_since](InferenceContext& ctx) { return Reduce(ctx, axes_input_since); };
}

absl::Status ArgReduce(InferenceContext& ctx) {
  const Shape* in = ctx.input_shape(0);
  if (in == nullptr) return absl::OkStatus();
  ASSIGN_OR_RETURN(auto axis,
                   CheckAxis(ctx, ctx.GetInt("axis", 0), static_cast<int64_t>(in->rank())));
  bool keepdims = ctx.GetInt("keepdims", 1) != 0;
  std::vector<Dim> out;
  for (size_t i = 0; i < in->rank(); ++i) {
    if (static_cast<int64_t>(i) == axis) {
      if (keepdims) out.push_back(Dim::Known(1));
    } else {
      out.push_back(in->dim(i));
    }
  }
  ctx.SetOutputShape(0, Shape(out));
  return absl::OkStatus();
}

absl::Status TopK(InferenceContext& ctx) {
  const Shape* in = ctx.input_shape(0);
  if (in == nullptr) return absl::OkStatus();
  ASSIGN_OR_RETURN(auto axis,
                   CheckAxis(ctx, ctx.GetInt("axis", -1), static_cast<int64_t>(in->rank())));
  Dim k;
  if (ctx.since_version() < 10) {
    k = Dim::Known(ctx.GetInt("k", 0));
  } else if (auto v = ctx.input_shape_value(1); v && v->elems.size() == 1) {
    k = v->elems[0];
  }
  if (k.is_known() && in->dim(static_cast<size_t>(axis)).is_known() &&
      k.value() > in->dim(static_cast<size_t>(axis)).value()) {
    return ctx.Error(absl::StrCat("k = ", k.value(), " exceeds the axis size ",
                                  in->dim(static_cast<size_t>(axis)).value()));
  }
  std::vector<Dim> out(in->dims());
  out[axis] = k;
  ctx.SetOutputShape(0, Shape(out));
  ctx.SetOutputShape(1, Shape(out));
  return absl::OkStatus();
}

}  // namespace

void RegisterReductionOps(InferenceRegistry& r) {
  r.Register("ReduceSum", ReduceFn(13));
  for (const char* op : {"ReduceMax", "ReduceMin", "ReduceMean", "ReduceProd", "ReduceL1",
                         "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceSumSquare"}) {
    r.Register(op, ReduceFn(18));
  }
  r.Register("ArgMax", ArgReduce);
  r.Register("ArgMin", ArgReduce);
  r.Register("TopK", TopK);
}

}  // namespace onnx_opt::schema::inference
