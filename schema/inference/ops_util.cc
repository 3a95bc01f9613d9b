#include "schema/inference/ops_util.h"

#include "ir/data_type.h"

namespace onnx_opt::schema::inference {

absl::Status SameShape(InferenceContext& ctx, size_t in, size_t out) {
  if (!ctx.has_output(out)) return absl::OkStatus();
  if (ctx.output_type(out).is_none()) ctx.PropagateElemType(in, out);
  ctx.PropagateShape(in, out);
  return absl::OkStatus();
}

absl::Status BroadcastInputs(InferenceContext& ctx, size_t first, size_t count, size_t out) {
  std::optional<ir::Shape> result;
  bool any = false;
  for (size_t i = first; i < first + count && i < ctx.num_inputs(); ++i) {
    if (!ctx.has_input(i)) continue;
    const ir::Shape* s = ctx.input_shape(i);
    if (s == nullptr) return absl::OkStatus();  // unknown rank: unknown result
    if (!any) {
      result = *s;
      any = true;
      continue;
    }
    auto b = BroadcastShapes(*result, *s);
    if (!b.ok()) return ctx.Error(b.status().message());
    result = *std::move(b);
  }
  if (any) ctx.SetOutputShape(out, std::move(result));
  return absl::OkStatus();
}

absl::StatusOr<int64_t> CheckAxis(const InferenceContext& ctx, int64_t axis, int64_t rank,
                                  std::string_view what) {
  auto a = NormalizeAxis(axis, rank);
  if (!a) {
    return ctx.Error(
        absl::StrCat(std::string(what), " ", axis, " is out of range for rank ", rank));
  }
  return *a;
}

absl::StatusOr<std::vector<int64_t>> CheckAxes(const InferenceContext& ctx,
                                               const std::vector<int64_t>& axes, int64_t rank) {
  std::vector<int64_t> out;
  for (int64_t a : axes) {
    ASSIGN_OR_RETURN(auto n, CheckAxis(ctx, a, rank, "axis"));
    out.push_back(n);
  }
  return out;
}

absl::StatusOr<ir::DataType> DataTypeAttr(const InferenceContext& ctx, int64_t value) {
  auto t = static_cast<ir::DataType>(value);
  if (value <= 0 || !ir::IsKnownDataType(t)) {
    return ctx.Error(absl::StrCat("unknown element type ", value));
  }
  return t;
}

ir::Shape UnknownShape(size_t rank) { return ir::Shape(std::vector<ir::Dim>(rank)); }

std::optional<ShapeValue> CombineShapeValues(const ShapeValue& a, const ShapeValue& b,
                                             SvBinary fn) {
  size_t n = a.elems.size();
  size_t m = b.elems.size();
  if (n != m && n != 1 && m != 1) return std::nullopt;
  ShapeValue out;
  out.scalar = a.scalar && b.scalar;
  size_t len = std::max(n, m);
  if (n == 0 || m == 0) len = 0;
  for (size_t i = 0; i < len; ++i) {
    out.elems.push_back(fn(a.elems[n == 1 ? 0 : i], b.elems[m == 1 ? 0 : i]));
  }
  return out;
}

}  // namespace onnx_opt::schema::inference
