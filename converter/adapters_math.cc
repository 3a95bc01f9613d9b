// Arithmetic, logic, comparison and elementwise math functions.
//
// Version changes handled here (from the change log of each operator):
//   opset 6: `consumed_inputs` (a legacy optimization hint without effect on results) removed;
//            integer types added to Abs/Add/Sub/Mul/Div/Neg.
//   opset 7: the legacy `broadcast`/`axis` attributes of binary operators removed in favour of
//            multidirectional (numpy) broadcasting (Add, Sub, Mul, Div, Pow, And, Or, Xor, Equal,
//            Greater, Less). Upgrades check B against the legacy rule (reading size-1 dims of B as
//            numpy does, with a warning: see legacy_broadcast.h) and make its alignment at
//            `axis` explicit with an Unsqueeze; downgrades set broadcast=1 (and axis, squeezing B's
//            broadcast 1s away) where the legacy rule computes the same thing, swap the operands of
//            symmetric ones, or repeat the inputs with Tile.
//   opset 8: Max/Min/Sum/Mean gained numpy broadcasting (before: all inputs of one shape).
//   opset 7/9/11/12/13/14/...: types added (bfloat16 at 13, small integers at 14, ...): compatible;
//            downgrades are refused by the schema validation when a value uses a missing type.
//   Erf-13 removed the integer types Erf-9 had (an upgrade of an integer Erf is refused).
//   Pow-12 lets the exponent have its own type (a downgrade needs both of one type).
//   Gemm-7 replaced `broadcast` with unidirectional broadcasting of C (which reads every C that
//            Gemm-6 broadcast the same way); Gemm-11 made C optional.
//   Clip-11 moved min/max from attributes to inputs; Clip-12 added integer types.
#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "converter/adapter_util.h"
#include "converter/families.h"
#include "ir/status_macros.h"
#include "schema/inference/legacy_broadcast.h"

namespace onnx_opt::converter {
namespace {

constexpr char kConsumed[] = "consumed_inputs";
constexpr char kConsumedNote[] =
    "opset 6 removed the legacy attribute consumed_inputs, which never affected results";

// Dims equal when both known and equal, or the same symbol.
bool SameDim(const ir::Dim& a, const ir::Dim& b) {
  if (a.is_known() && b.is_known()) return a.value() == b.value();
  if (a.is_symbolic() && b.is_symbolic()) return a.symbol() == b.symbol();
  return false;
}

bool SameShape(const ir::Shape& a, const ir::Shape& b) {
  if (a.rank() != b.rank()) return false;
  for (size_t i = 0; i < a.rank(); ++i) {
    if (!SameDim(a.dim(i), b.dim(i))) return false;
  }
  return true;
}

bool IsSingleElement(const ir::Shape& s) {
  for (const ir::Dim& d : s.dims()) {
    if (!d.is_known() || d.value() != 1) return false;
  }
  return true;
}

// B as the legacy rule (opset < 7, broadcast=1) reads it: B's dims squeezed away, and the axis
// where the rest starts in A (nullopt: it ends at A's last dim, the legacy default).
struct LegacyForm {
  std::vector<int64_t> squeeze_axes;  // of B
  std::optional<int64_t> axis;
};

// The legacy form in which B broadcasts to A as numpy broadcasting does, when there is one: B's 1s
// outside the run of its dims that equal A's (right-aligned) go. nullopt when B has a higher rank
// than A, a broadcast 1 inside that run, or a dim that A would broadcast to.
std::optional<LegacyForm> LegacyFormOf(const ir::Shape& a, const ir::Shape& b) {
  if (b.rank() > a.rank()) return std::nullopt;
  if (IsSingleElement(b)) return LegacyForm{};
  auto is_one = [](const ir::Dim& d) { return d.is_known() && d.value() == 1; };
  const int64_t rb = static_cast<int64_t>(b.rank()), off = static_cast<int64_t>(a.rank()) - rb;
  int64_t first = 0, last = rb - 1;
  while (is_one(b.dim(first))) ++first;
  while (is_one(b.dim(last))) --last;
  for (int64_t i = first; i <= last; ++i) {
    if (!SameDim(a.dim(off + i), b.dim(i))) return std::nullopt;
  }
  LegacyForm form;
  for (int64_t i = 0; i < rb; ++i) {
    if (i < first || i > last) form.squeeze_axes.push_back(i);
  }
  if (last != rb - 1) form.axis = off + first;
  return form;
}

// Squeezes the node's input `b` (B, or Gemm's C) to the legacy form and sets broadcast=1 (and
// axis).
void ApplyLegacyForm(AdapterContext& ctx, size_t b, const LegacyForm& form) {
  ir::Node& n = ctx.node();
  if (!form.squeeze_axes.empty()) {
    n.SetInput(b, MakeSqueeze(ctx, n.input(b), form.squeeze_axes,
                              absl::StrCat(n.input(b)->name(), "_squeezed")));
  }
  n.SetAttribute(ir::Attribute::Int("broadcast", 1));
  if (form.axis.has_value()) n.SetAttribute(ir::Attribute::Int("axis", *form.axis));
}

// True when the declared shapes of A and B show B's size-1 dims expanding (see BroadcastUp).
bool DeclaredShapesExpand(const ir::Node& n, bool broadcast, std::optional<int64_t> axis) {
  const std::optional<ir::Shape>& a = n.input(0)->type().shape();
  const std::optional<ir::Shape>& b = n.input(1)->type().shape();
  if (!a.has_value() || !b.has_value()) return false;
  std::vector<int64_t> expanded;
  return schema::inference::LegacyBroadcastShape(*a, *b, broadcast, axis, &expanded).ok() &&
         !expanded.empty();
}

// Legacy broadcast (opset 1..6) -> numpy broadcast (opset 7). B is checked against the legacy rule
// where the shapes are known (a model it refuses is not converted into one that runs), and B
// aligned at an axis before A's end gets trailing 1s (Unsqueeze) so that numpy broadcasting aligns
// it there.
absl::Status BroadcastUp(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  const bool broadcast = IntAttr(ctx, "broadcast", 0) != 0;
  const ir::Attribute* axis_attr = n.FindAttribute("axis");
  if (axis_attr != nullptr && axis_attr->is_reference())
    return ctx.Error("axis is a function attribute reference");
  std::optional<int64_t> axis;
  if (axis_attr != nullptr) axis = axis_attr->i;
  std::optional<ir::Shape> sa = ctx.ShapeOf(n.input(0));
  std::optional<ir::Shape> sb = ctx.ShapeOf(n.input(1));
  if (sa.has_value() && sb.has_value()) {
    std::vector<int64_t> expanded;
    absl::StatusOr<ir::Shape> s =
        schema::inference::LegacyBroadcastShape(*sa, *sb, broadcast, axis, &expanded);
    if (!s.ok()) return ctx.Error(std::string(s.status().message()));
    // Size-1 dims of B expanded as numpy does. The checker warns where the declared shapes show it
    // (every tool prints its warnings on the input); inferred shapes show it in the report.
    if (!expanded.empty() && !DeclaredShapesExpand(n, broadcast, axis)) {
      ctx.Warn(schema::inference::DescribeLegacyExpansion(*sa, *sb, expanded));
    }
  }
  const bool b_single = sb.has_value() && IsSingleElement(*sb);
  // Without an axis B is a suffix of A (or equal, without broadcast), as numpy aligns it.
  if (broadcast && axis.has_value() && !b_single) {
    if (!sa.has_value() || !sb.has_value()) {
      return ctx.Error(absl::StrCat("broadcast=1 with axis=", *axis,
                                    " aligns B at an axis; the ranks of A and B must be known to "
                                    "express that with numpy broadcasting"));
    }
    const int64_t ra = static_cast<int64_t>(sa->rank()), rb = static_cast<int64_t>(sb->rank());
    const int64_t start = *axis < 0 ? *axis + ra : *axis;  // in range: checked above
    std::vector<int64_t> axes;
    for (int64_t i = rb; i < ra - start; ++i) axes.push_back(i);
    if (!axes.empty()) {
      n.SetInput(
          1, MakeUnsqueeze(ctx, n.input(1), axes, absl::StrCat(n.input(1)->name(), "_aligned")));
    }
  }
  n.RemoveAttribute("broadcast");
  n.RemoveAttribute("axis");
  return absl::OkStatus();
}

// Numpy broadcasting spelled out for static shapes: each input whose shape differs from the
// broadcast shape gets leading axes (Unsqueeze) and is repeated (Tile-6) to that shape, so the node
// needs no broadcasting at all. Only on steps to opset 6..7, where Tile takes a repeats input.
absl::StatusOr<bool> TileToCommonShape(AdapterContext& ctx, const std::vector<size_t>& inputs) {
  ir::Node& n = ctx.node();
  if (ctx.to_opset() < 6) return false;
  std::vector<std::vector<int64_t>> shapes;
  size_t rank = 0;
  for (size_t i : inputs) {
    std::optional<std::vector<int64_t>> s = ctx.StaticShape(n.input(i));
    if (!s.has_value()) return false;
    rank = std::max(rank, s->size());
    shapes.push_back(*s);
  }
  std::vector<int64_t> out(rank, 1);
  for (const auto& s : shapes) {
    const size_t off = rank - s.size();
    for (size_t j = 0; j < s.size(); ++j) {
      if (s[j] == out[off + j] || s[j] == 1) continue;
      if (out[off + j] != 1) return false;  // not broadcastable: leave it to the error
      out[off + j] = s[j];
    }
  }
  for (size_t k = 0; k < inputs.size(); ++k) {
    std::vector<int64_t> s = shapes[k];
    if (s == out) continue;
    ir::Value* v = n.input(inputs[k]);
    const std::string base = v->name() + "_tiled";
    if (s.size() < rank) {
      std::vector<int64_t> axes;
      for (size_t j = 0; j < rank - s.size(); ++j) axes.push_back(static_cast<int64_t>(j));
      v = MakeUnsqueeze(ctx, v, axes, v->name() + "_ranked");
      s.insert(s.begin(), rank - s.size(), 1);
    }
    std::vector<int64_t> repeats(rank);
    for (size_t j = 0; j < rank; ++j) repeats[j] = s[j] == out[j] ? 1 : out[j];
    v = ctx.InsertBefore("Tile", {v, ctx.AddInts(repeats, base + "_repeats")}, 1, base)->output(0);
    n.SetInput(inputs[k], v);
  }
  return true;
}

// The comparison with its operands swapped (A op B == B swapped(op) A).
std::string SwappedOp(const std::string& op) {
  if (op == "Greater") return "Less";
  if (op == "Less") return "Greater";
  if (op == "Add" || op == "Mul" || op == "And" || op == "Or" || op == "Xor" || op == "Equal")
    return op;
  return "";
}

// numpy broadcast (opset 7) -> legacy broadcast (opset 6).
absl::Status BroadcastDown(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  std::optional<ir::Shape> sa = ctx.ShapeOf(n.input(0));
  std::optional<ir::Shape> sb = ctx.ShapeOf(n.input(1));
  if (!sa.has_value() || !sb.has_value()) {
    return ctx.Error(
        "the shapes of both inputs must be known to express numpy broadcasting with the "
        "legacy broadcast attribute");
  }
  if (SameShape(*sa, *sb)) return absl::OkStatus();
  if (std::optional<LegacyForm> form = LegacyFormOf(*sa, *sb)) {
    ApplyLegacyForm(ctx, 1, *form);
    return absl::OkStatus();
  }
  const std::string swapped = SwappedOp(n.op_type());
  if (std::optional<LegacyForm> form = swapped.empty() ? std::nullopt : LegacyFormOf(*sb, *sa)) {
    ir::Value* a = n.input(0);
    ir::Value* b = n.input(1);
    n.SetInput(0, b);
    n.SetInput(1, a);
    n.set_op_type(swapped);
    ApplyLegacyForm(ctx, 1, *form);
    return absl::OkStatus();
  }
  ASSIGN_OR_RETURN(bool tiled, TileToCommonShape(ctx, {0, 1}));
  if (tiled) return absl::OkStatus();
  return ctx.Error(
      absl::StrCat("inputs of shapes ", ir::ShapeToString(*sa), " and ", ir::ShapeToString(*sb),
                   " broadcast in a way the legacy rule (B's dims a run of A's, or one "
                   "element) cannot express"));
}

// Max/Min/Sum/Mean before opset 8: all inputs of the same shape.
absl::Status SameShapeInputs(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  if (n.num_inputs() <= 1) return absl::OkStatus();
  std::optional<ir::Shape> first = ctx.ShapeOf(n.input(0));
  for (size_t i = 1; i < n.num_inputs(); ++i) {
    std::optional<ir::Shape> s = ctx.ShapeOf(n.input(i));
    if (!first.has_value() || !s.has_value() || !SameShape(*first, *s)) {
      std::vector<size_t> all;
      for (size_t k = 0; k < n.num_inputs(); ++k) all.push_back(k);
      ASSIGN_OR_RETURN(bool tiled, TileToCommonShape(ctx, all));
      if (tiled) return absl::OkStatus();
      return ctx.Error(
          "before opset 8 all inputs must have the same shape (no broadcasting), and that "
          "is not known to hold here");
    }
  }
  return absl::OkStatus();
}

// Gemm-6 and older: C broadcast when broadcast=1, else of shape M x N. Upgrades drop the attribute
// (Gemm-7 reads every C Gemm-6 broadcast the same way) after checking that a C not broadcast has A
// * B's shape, where the shapes are known.
absl::Status GemmUp6To7(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  std::optional<ir::Shape> sa = ctx.ShapeOf(n.input(0));
  std::optional<ir::Shape> sb = ctx.ShapeOf(n.input(1));
  std::optional<ir::Shape> sc = n.has_input(2) ? ctx.ShapeOf(n.input(2)) : std::nullopt;
  if (IntAttr(ctx, "broadcast", 0) == 0 && sa.has_value() && sb.has_value() && sc.has_value() &&
      sa->rank() == 2 && sb->rank() == 2) {
    const ir::Dim m = IntAttr(ctx, "transA", 0) ? sa->dim(1) : sa->dim(0);
    const ir::Dim nn = IntAttr(ctx, "transB", 0) ? sb->dim(0) : sb->dim(1);
    const ir::Shape y({m, nn});
    if (!schema::inference::LegacyBroadcastShape(y, *sc, false, std::nullopt).ok()) {
      return ctx.Error(
          absl::StrCat("without broadcast=1, C must have the shape of A * B before opset 7; C is ",
                       ir::ShapeToString(*sc), ", A * B is ", ir::ShapeToString(y)));
    }
  }
  n.RemoveAttribute("broadcast");
  return absl::OkStatus();
}

absl::Status GemmDown7To6(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  std::optional<ir::Shape> sa = ctx.ShapeOf(n.input(0));
  std::optional<ir::Shape> sb = ctx.ShapeOf(n.input(1));
  std::optional<ir::Shape> sc = ctx.ShapeOf(n.input(2));
  if (!sa.has_value() || !sb.has_value() || !sc.has_value() || sa->rank() != 2 || sb->rank() != 2) {
    return ctx.Error(
        "the shapes of A, B and C must be known to express C's unidirectional broadcasting "
        "with the legacy broadcast attribute");
  }
  const ir::Dim m = IntAttr(ctx, "transA", 0) ? sa->dim(1) : sa->dim(0);
  const ir::Dim nn = IntAttr(ctx, "transB", 0) ? sb->dim(0) : sb->dim(1);
  ir::Shape y({m, nn});
  if (SameShape(y, *sc)) {
    n.SetAttribute(ir::Attribute::Int("broadcast", 0));
    return absl::OkStatus();
  }
  // Gemm has no axis: only a C that ends at N's axis.
  if (std::optional<LegacyForm> form = LegacyFormOf(y, *sc);
      form.has_value() && !form->axis.has_value()) {
    ApplyLegacyForm(ctx, 2, *form);
    return absl::OkStatus();
  }
  if (sc->is_static() && y.is_static()) {
    // Repeat C to (M, N).
    std::vector<int64_t> c, yy = {y.dim(0).value(), y.dim(1).value()};
    for (const ir::Dim& d : sc->dims()) c.push_back(d.value());
    ir::Value* v = n.input(2);
    if (c.size() < 2) {
      std::vector<int64_t> axes = c.empty() ? std::vector<int64_t>{0, 1} : std::vector<int64_t>{0};
      v = MakeUnsqueeze(ctx, v, axes, v->name() + "_ranked");
      c.insert(c.begin(), 2 - c.size(), 1);
    }
    std::vector<int64_t> repeats = {c[0] == yy[0] ? 1 : yy[0], c[1] == yy[1] ? 1 : yy[1]};
    v = ctx.InsertBefore("Tile", {v, ctx.AddInts(repeats, "gemm_c_repeats")}, 1,
                         v->name() + "_tiled")
            ->output(0);
    n.SetInput(2, v);
    n.SetAttribute(ir::Attribute::Int("broadcast", 0));
    return absl::OkStatus();
  }
  return ctx.Error(absl::StrCat("C of shape ", ir::ShapeToString(*sc), " broadcasts to ",
                                ir::ShapeToString(y), " in a way the legacy rule cannot express"));
}

// Gemm-11 made C optional; older versions need one: a scalar zero of A's type.
absl::Status GemmDown11To9(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  if (n.has_input(2)) return absl::OkStatus();
  std::optional<ir::DataType> t = ctx.ElemType(n.input(0));
  if (!t.has_value())
    return ctx.Error("C is omitted and A's element type is unknown, so no zero C can be made");
  ctx.SetInput(2, MakeScalar(ctx, *t, 0.0, "gemm_zero_c"));
  return absl::OkStatus();
}

// Clip-6 min/max attributes <-> Clip-11 inputs.
absl::Status ClipUp6To11(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  const ir::Attribute* mn = n.FindAttribute("min");
  const ir::Attribute* mx = n.FindAttribute("max");
  if (mn == nullptr && mx == nullptr) return absl::OkStatus();
  if ((mn != nullptr && mn->is_reference()) || (mx != nullptr && mx->is_reference())) {
    return ctx.Error("min/max refer to function attributes; they cannot become constant inputs");
  }
  std::optional<ir::DataType> t = ctx.ElemType(n.input(0));
  if (!t.has_value())
    return ctx.Error("the input's element type must be known to make min/max inputs");
  if (mn != nullptr) ctx.SetInput(1, MakeScalar(ctx, *t, mn->f, "clip_min"));
  if (mx != nullptr) ctx.SetInput(2, MakeScalar(ctx, *t, mx->f, "clip_max"));
  n.RemoveAttribute("min");
  n.RemoveAttribute("max");
  return absl::OkStatus();
}

absl::Status ClipDown11To6(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  for (size_t i : {size_t{1}, size_t{2}}) {
    if (!n.has_input(i)) continue;
    ASSIGN_OR_RETURN(std::vector<double> v, ctx.ConstantDoubles(i, i == 1 ? "min" : "max"));
    if (v.size() != 1) return ctx.Error("min/max must be scalars");
    n.SetAttribute(ir::Attribute::Float(i == 1 ? "min" : "max", static_cast<float>(v.front())));
  }
  ctx.SetInput(1, nullptr);
  if (n.num_inputs() > 2) ctx.SetInput(2, nullptr);
  ctx.TrimInputs();
  return absl::OkStatus();
}

// Pow-12 (and the separate types of other ops): both inputs must share one type before.
absl::Status SameElemType(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  std::optional<ir::DataType> a = ctx.ElemType(n.input(0));
  std::optional<ir::DataType> b = ctx.ElemType(n.input(1));
  if (a.has_value() && b.has_value() && *a != *b) {
    return ctx.Error(absl::StrCat("the base is ", ir::DataTypeName(*a), " and the exponent ",
                                  ir::DataTypeName(*b),
                                  "; the older version needs one type for both"));
  }
  if (!a.has_value() || !b.has_value()) {
    return ctx.Error(
        "the older version needs base and exponent of one type, and their types are unknown");
  }
  return absl::OkStatus();
}

// GreaterOrEqual(a, b) = Or(Greater(a, b), Equal(a, b)) (also false for NaN, as required).
AdapterFn CompareOrEqual(std::string strict) {
  return [strict = std::move(strict)](AdapterContext& ctx) -> absl::Status {
    ir::Node& n = ctx.node();
    ir::Value* gt = MakeBinary(ctx, strict, n.input(0), n.input(1),
                               absl::StrCat(n.output(0)->name(), "_strict"));
    ir::Value* eq =
        MakeBinary(ctx, "Equal", n.input(0), n.input(1), absl::StrCat(n.output(0)->name(), "_eq"));
    ir::Value* out = MakeBinary(ctx, "Or", gt, eq, n.output(0)->name());
    RETURN_IF_ERROR(ctx.ReplaceOutput(0, out));
    return ctx.EraseNode();
  };
}

}  // namespace

void RegisterMathAdapters(AdapterRegistry& registry) {
  Registrar r(registry);
  // consumed_inputs removed at 6 (with types added for some).
  for (const char* op : {"Abs", "Add", "Sub", "Mul", "Div", "Ceil", "Exp", "Floor", "Log", "Neg",
                         "Reciprocal", "Sqrt", "Max", "Min", "Sum", "Mean"}) {
    r.Both(op, 1, 6, AdapterKind::kAttribute, kConsumedNote, DropAttr(kConsumed), Nothing());
  }
  // Binary operators: legacy broadcast -> numpy broadcast at 7.
  for (auto [op, older] : std::vector<std::pair<const char*, int>>{{"Add", 6},
                                                                   {"Sub", 6},
                                                                   {"Mul", 6},
                                                                   {"Div", 6},
                                                                   {"Pow", 1},
                                                                   {"And", 1},
                                                                   {"Or", 1},
                                                                   {"Xor", 1},
                                                                   {"Equal", 1},
                                                                   {"Greater", 1},
                                                                   {"Less", 1}}) {
    r.Both(op, older, 7, AdapterKind::kAttribute,
           "opset 7 replaced the broadcast/axis attributes with multidirectional broadcasting",
           BroadcastUp, BroadcastDown);
  }
  r.CompatibleAll({"Add", "Sub", "Mul", "Div"}, 7, 13, "bfloat16 added");
  r.CompatibleAll({"Add", "Sub", "Mul", "Div"}, 13, 14, "uint8, int8, uint16, int16 added");
  r.CompatibleAll({"Abs", "Ceil", "Exp", "Floor", "Log", "Neg", "Reciprocal", "Sqrt"}, 6, 13,
                  "bfloat16 added");
  r.CompatibleAll({"Sin", "Cos", "Tan", "Asin", "Acos", "Atan"}, 7, 22, "bfloat16 added");
  r.CompatibleAll({"Sinh", "Cosh", "Asinh", "Acosh", "Atanh"}, 9, 22, "bfloat16 added");
  // Variadic.
  for (const char* op : {"Max", "Min", "Sum", "Mean"}) {
    r.Both(op, 6, 8, AdapterKind::kAttribute,
           "opset 8 added multidirectional broadcasting of the inputs", Nothing(), SameShapeInputs);
  }
  r.CompatibleAll({"Max", "Min"}, 8, 12, "integer types added");
  r.CompatibleAll({"Max", "Min"}, 12, 13, "bfloat16 added");
  r.CompatibleAll({"Sum", "Mean"}, 8, 13, "bfloat16 added");
  // Pow.
  r.Both("Pow", 7, 12, AdapterKind::kAttribute,
         "Pow-12 added int32/int64 bases and an exponent type of its own", Nothing(), SameElemType);
  r.Compatible("Pow", 12, 13, "bfloat16 base added");
  r.Compatible("Pow", 13, 15, "bfloat16 exponent added");
  r.Compatible("Mod", 10, 13, "bfloat16 added");
  // Logic and comparison.
  r.Compatible("Equal", 7, 11, "more numeric types added");
  r.Compatible("Equal", 11, 13, "bfloat16 added");
  r.Compatible("Equal", 13, 19, "string added");
  r.CompatibleAll({"Greater", "Less"}, 7, 9, "integer types added");
  r.CompatibleAll({"Greater", "Less"}, 9, 13, "bfloat16 added");
  r.CompatibleAll({"GreaterOrEqual", "LessOrEqual"}, 12, 16, "bfloat16 added");
  r.Introduced("GreaterOrEqual", 12, "is expanded to Or(Greater, Equal)",
               CompareOrEqual("Greater"));
  r.Introduced("LessOrEqual", 12, "is expanded to Or(Less, Equal)", CompareOrEqual("Less"));
  r.Compatible("IsNaN", 9, 13, "bfloat16 added");
  r.Compatible("IsNaN", 13, 20, "float8 types added");
  r.Compatible("IsInf", 10, 20, "bfloat16, float16 and float8 types added");
  r.Compatible("Sign", 9, 13, "bfloat16 added");
  r.Compatible("Round", 11, 22, "bfloat16 added");
  r.Compatible("Where", 9, 16, "bfloat16 added");
  r.Compatible("Expand", 8, 13, "bfloat16 added");
  r.Compatible("CumSum", 11, 14, "float16 and bfloat16 added");
  r.Compatible("Det", 11, 22, "bfloat16 added");
  r.Compatible("Erf", 9, 13,
               "bfloat16 added and the integer types removed (an integer Erf cannot be upgraded)");
  // Matrix products.
  r.Compatible("MatMul", 1, 9, "integer types added");
  r.Compatible("MatMul", 9, 13, "bfloat16 added");
  r.Compatible("Gemm", 1, 6, "clarified the description; no change in behaviour");
  r.Both("Gemm", 6, 7, AdapterKind::kAttribute,
         "Gemm-7 replaced the broadcast attribute with unidirectional broadcasting of C",
         GemmUp6To7, GemmDown7To6);
  r.Compatible("Gemm", 7, 9, "integer types added");
  r.Both("Gemm", 9, 11, AdapterKind::kAttribute, "Gemm-11 made C optional", Nothing(),
         GemmDown11To9);
  r.Compatible("Gemm", 11, 13, "bfloat16 added");
  // Clip.
  r.Both("Clip", 1, 6, AdapterKind::kAttribute,
         "consumed_inputs removed; min/max got the float limits as defaults (same behaviour as "
         "absent)",
         DropAttr(kConsumed), Nothing());
  r.Both("Clip", 6, 11, AdapterKind::kMove, "Clip-11 takes min and max as optional inputs",
         ClipUp6To11, ClipDown11To6);
  r.Compatible("Clip", 11, 12, "integer types added");
  r.Compatible("Clip", 12, 13, "bfloat16 added");
}

}  // namespace onnx_opt::converter
