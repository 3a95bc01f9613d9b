#include "schema/inference/legacy_broadcast.h"

#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace onnx_opt::schema::inference {
namespace {

// Both known and different (shape_utils.h has the same test; this library stays below it).
bool Conflict(const ir::Dim& a, const ir::Dim& b) {
  return a.is_known() && b.is_known() && a.value() != b.value();
}

bool SurelyEqual(const ir::Dim& a, const ir::Dim& b) {
  if (a.is_known() && b.is_known()) return a.value() == b.value();
  return a.is_symbolic() && b.is_symbolic() && a.symbol() == b.symbol();
}

bool IsOne(const ir::Dim& d) { return d.is_known() && d.value() == 1; }

bool SurelyOneElement(const ir::Shape& s) {
  for (const ir::Dim& d : s.dims()) {
    if (!IsOne(d)) return false;
  }
  return true;
}

}  // namespace

absl::StatusOr<ir::Shape> LegacyBroadcastShape(const ir::Shape& a, const ir::Shape& b,
                                               bool broadcast, std::optional<int64_t> axis,
                                               std::vector<int64_t>* expanded_axes) {
  if (expanded_axes != nullptr) expanded_axes->clear();
  const int64_t ra = static_cast<int64_t>(a.rank()), rb = static_cast<int64_t>(b.rank());
  if (!broadcast) {
    bool same = ra == rb;
    for (int64_t i = 0; same && i < ra; ++i) same = !Conflict(a.dim(i), b.dim(i));
    if (!same) {
      return absl::InvalidArgumentError(absl::StrCat(
          "without broadcast=1 the inputs must have the same shape before opset 7; A is ",
          ir::ShapeToString(a), " and B is ", ir::ShapeToString(b)));
    }
    return b;
  }
  if (rb > ra) {
    return absl::InvalidArgumentError(
        absl::StrCat("B of shape ", ir::ShapeToString(b), " has a higher rank than A of shape ",
                     ir::ShapeToString(a), "; before opset 7 only B broadcasts"));
  }
  std::vector<ir::Dim> aligned(ra, ir::Dim::Known(1));
  if (SurelyOneElement(b)) return ir::Shape(aligned);
  int64_t start = axis.value_or(ra - rb);
  if (start < 0) start += ra;
  if (start < 0 || start + rb > ra) {
    return absl::InvalidArgumentError(absl::StrCat("axis=", *axis, " leaves no room in A of shape ",
                                                   ir::ShapeToString(a), " for B of shape ",
                                                   ir::ShapeToString(b)));
  }
  std::vector<int64_t> expanded;
  for (int64_t i = 0; i < rb; ++i) {
    const ir::Dim& da = a.dim(start + i);
    const ir::Dim& db = b.dim(i);
    if (IsOne(db)) {
      if (!IsOne(da)) expanded.push_back(start + i);  // numpy's reading (see the header)
    } else if (Conflict(da, db)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "B of shape ", ir::ShapeToString(b), " does not match the dims of A of shape ",
          ir::ShapeToString(a), " from axis ", start,
          " (before opset 7, B's dims must equal a run of A's or be 1, or B must have one "
          "element)"));
    }
    aligned[start + i] = db;
  }
  if (expanded_axes != nullptr) *expanded_axes = std::move(expanded);
  return ir::Shape(aligned);
}

bool UsesLegacyBroadcast(std::string_view op_type, int since_version) {
  if (since_version >= 7) return false;
  for (std::string_view op :
       {"Add", "Sub", "Mul", "Div", "Pow", "And", "Or", "Xor", "Equal", "Greater", "Less"}) {
    if (op == op_type) return true;
  }
  return false;
}

std::string DescribeLegacyExpansion(const ir::Shape& a, const ir::Shape& b,
                                    const std::vector<int64_t>& expanded_axes) {
  return absl::StrCat(
      "B of shape ", ir::ShapeToString(b), " has size 1 where A of shape ", ir::ShapeToString(a),
      expanded_axes.size() == 1 ? " does not (axis " : " does not (axes ",
      absl::StrJoin(expanded_axes, ", "),
      "): read as numpy broadcasting reads it, as the exporters meant (the legacy rule "
      "says \"1-dim expansion doesn't work yet\")");
}

std::optional<ir::Shape> LegacyPReluSlopeShape(const ir::Shape& x, const ir::Shape& slope) {
  // On X of rank 2 the channel axis is the last one, where numpy broadcasting puts a 1-D slope too.
  if (slope.rank() != 1 || x.rank() < 3) return slope;
  const ir::Dim& s = slope.dim(0);
  const ir::Dim& c = x.dim(1);
  if (s.is_known() && s.value() == 1) return slope;
  if (SurelyEqual(s, c)) {
    std::vector<ir::Dim> per_channel(x.rank() - 1, ir::Dim::Known(1));
    per_channel[0] = s;
    return ir::Shape(per_channel);
  }
  if (Conflict(s, c)) return slope;
  return std::nullopt;
}

}  // namespace onnx_opt::schema::inference
