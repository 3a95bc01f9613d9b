// Element-wise operators: unary math and activations (and the other operators whose output has
// their first input's shape: Softmax, normalizations, Scatter*, ...), broadcasting binary and
// variadic operators, comparisons and logic, Where, Cast and CastLike. Integer arithmetic is also
// carried out on tracked shape values, so Shape(x)[1] * 2 stays known.
#include <limits>

#include "absl/strings/ascii.h"
#include "schema/inference/legacy_broadcast.h"
#include "schema/inference/ops_util.h"

namespace onnx_opt::schema::inference {
namespace {

using ir::Dim;

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

// --- Shape value arithmetic (integers, negative values allowed) ---------------------------------

Dim SvAdd(const Dim& a, const Dim& b) {
  if (a.is_known() && b.is_known()) {
    int64_t r;
    if (__builtin_add_overflow(a.value(), b.value(), &r)) return Dim::Unknown();
    return Dim::Known(r);
  }
  if (b.is_known() && b.value() == 0) return a;
  if (a.is_known() && a.value() == 0) return b;
  return Dim::Unknown();
}

Dim SvSub(const Dim& a, const Dim& b) {
  if (a.is_known() && b.is_known()) {
    int64_t r;
    if (__builtin_sub_overflow(a.value(), b.value(), &r)) return Dim::Unknown();
    return Dim::Known(r);
  }
  if (b.is_known() && b.value() == 0) return a;
  if (a.is_symbolic() && b.is_symbolic() && a.symbol() == b.symbol()) return Dim::Known(0);
  return Dim::Unknown();
}

Dim SvMul(const Dim& a, const Dim& b) {
  if (a.is_known() && b.is_known()) {
    int64_t r;
    if (__builtin_mul_overflow(a.value(), b.value(), &r)) return Dim::Unknown();
    return Dim::Known(r);
  }
  if (b.is_known() && b.value() == 1) return a;
  if (a.is_known() && a.value() == 1) return b;
  if ((a.is_known() && a.value() == 0) || (b.is_known() && b.value() == 0)) return Dim::Known(0);
  return Dim::Unknown();
}

// Integer Div truncates toward zero (as C does and ONNX's reference does for integers).
Dim SvDiv(const Dim& a, const Dim& b) {
  if (a.is_known() && b.is_known()) {
    if (b.value() == 0 || (a.value() == kMin && b.value() == -1)) return Dim::Unknown();
    return Dim::Known(a.value() / b.value());
  }
  if (b.is_known() && b.value() == 1) return a;
  if (a.is_symbolic() && b.is_symbolic() && a.symbol() == b.symbol()) return Dim::Known(1);
  return Dim::Unknown();
}

Dim SvMax(const Dim& a, const Dim& b) {
  if (a.is_known() && b.is_known()) return Dim::Known(std::max(a.value(), b.value()));
  if (DimsSurelyEqual(a, b)) return a;
  // A symbolic size is never negative.
  if (a.is_symbolic() && b.is_known() && b.value() <= 0) return a;
  if (b.is_symbolic() && a.is_known() && a.value() <= 0) return b;
  return Dim::Unknown();
}

Dim SvMin(const Dim& a, const Dim& b) {
  if (a.is_known() && b.is_known()) return Dim::Known(std::min(a.value(), b.value()));
  if (DimsSurelyEqual(a, b)) return a;
  if (a.is_symbolic() && b.is_known() && b.value() <= 0) return b;
  if (b.is_symbolic() && a.is_known() && a.value() <= 0) return a;
  return Dim::Unknown();
}

// Booleans as 0/1.
Dim SvEqual(const Dim& a, const Dim& b) {
  if (a.is_known() && b.is_known()) return Dim::Known(a.value() == b.value() ? 1 : 0);
  if (DimsSurelyEqual(a, b)) return Dim::Known(1);
  // A symbolic size is never negative.
  if ((a.is_symbolic() && b.is_known() && b.value() < 0) ||
      (b.is_symbolic() && a.is_known() && a.value() < 0)) {
    return Dim::Known(0);
  }
  return Dim::Unknown();
}

Dim SvLess(const Dim& a, const Dim& b) {
  if (a.is_known() && b.is_known()) return Dim::Known(a.value() < b.value() ? 1 : 0);
  return Dim::Unknown();
}

Dim SvGreater(const Dim& a, const Dim& b) {
  if (a.is_known() && b.is_known()) return Dim::Known(a.value() > b.value() ? 1 : 0);
  return Dim::Unknown();
}

Dim SvMod(const Dim& a, const Dim& b) {
  if (a.is_known() && b.is_known() && b.value() != 0 && a.value() >= 0 && b.value() > 0) {
    return Dim::Known(a.value() % b.value());
  }
  return Dim::Unknown();
}

bool IsIntegerOrBool(ir::DataType t) {
  return ir::IsWholeByteInteger(t) || t == ir::DataType::kBool;
}

// Carries integer shape values through a binary operator, if both inputs have one.
void BinaryShapeValue(InferenceContext& ctx, SvBinary fn) {
  if (ctx.num_inputs() < 2) return;
  auto a = ctx.input_shape_value(0);
  auto b = ctx.input_shape_value(1);
  if (!a || !b) return;
  if (auto r = CombineShapeValues(*a, *b, fn)) ctx.SetOutputShapeValue(0, *std::move(r));
}

InferFn BroadcastWithValues(SvBinary fn) {
  return [fn](InferenceContext& ctx) -> absl::Status {
    RETURN_IF_ERROR(BroadcastAllInputs(ctx));
    if (IsIntegerOrBool(ctx.input_elem_type(0))) BinaryShapeValue(ctx, fn);
    return absl::OkStatus();
  };
}

// Before opset 7: "limited broadcast" (B broadcasts to A as `broadcast` and `axis` allow), so the
// result has A's shape; without broadcast=1 the shapes are equal, and B's dims fill A's unknown
// ones.
absl::Status LegacyBroadcast(InferenceContext& ctx) {
  RETURN_IF_ERROR(SameShape(ctx, 0, 0));
  const Shape* a = ctx.input_shape(0);
  const Shape* b = ctx.input_shape(1);
  if (a == nullptr || b == nullptr || !ctx.has_output(0)) return absl::OkStatus();
  std::optional<int64_t> axis;
  if (ctx.has_attr("axis")) axis = ctx.GetInt("axis");
  const bool broadcast = ctx.GetInt("broadcast", 0) != 0;
  if (absl::StatusOr<Shape> s = LegacyBroadcastShape(*a, *b, broadcast, axis); !s.ok()) {
    return ctx.Error(s.status().message());
  }
  if (!broadcast) {
    std::vector<Dim> out;
    for (size_t i = 0; i < a->rank(); ++i) out.push_back(MergeDims(a->dim(i), b->dim(i)));
    ctx.SetOutputShape(0, Shape(out));
  }
  return absl::OkStatus();
}

// PRelu before opset 7: the slope is shared or per channel (legacy_broadcast.h); Y has X's shape.
absl::Status LegacyPRelu(InferenceContext& ctx) {
  RETURN_IF_ERROR(SameShape(ctx, 0, 0));
  const Shape* x = ctx.input_shape(0);
  const Shape* slope = ctx.input_shape(1);
  if (x == nullptr || slope == nullptr) return absl::OkStatus();
  std::optional<Shape> aligned = LegacyPReluSlopeShape(*x, *slope);
  if (!aligned.has_value()) return absl::OkStatus();
  // The slope must not widen X.
  absl::StatusOr<Shape> y = BroadcastShapes(*x, *aligned);
  bool fits = y.ok() && y->rank() == x->rank();
  for (size_t i = 0; fits && i < x->rank(); ++i) fits = !DimsConflict(y->dim(i), x->dim(i));
  if (!fits) {
    return ctx.Error(absl::StrCat("slope of shape ", ir::ShapeToString(*slope),
                                  " is neither one value, one per channel of X of shape ",
                                  ir::ShapeToString(*x), ", nor broadcastable to X"));
  }
  return absl::OkStatus();
}

absl::Status Variadic(InferenceContext& ctx) { return BroadcastAllInputs(ctx); }

absl::Status VariadicWithValues(InferenceContext& ctx, SvBinary fn) {
  RETURN_IF_ERROR(BroadcastAllInputs(ctx));
  if (!ir::IsWholeByteInteger(ctx.input_elem_type(0))) return absl::OkStatus();
  std::optional<ShapeValue> acc;
  for (size_t i = 0; i < ctx.num_inputs(); ++i) {
    auto v = ctx.input_shape_value(i);
    if (!v) return absl::OkStatus();
    if (!acc) {
      acc = v;
    } else {
      acc = CombineShapeValues(*acc, *v, fn);
      if (!acc) return absl::OkStatus();
    }
  }
  if (acc) ctx.SetOutputShapeValue(0, *acc);
  return absl::OkStatus();
}

absl::Status Where(InferenceContext& ctx) {
  RETURN_IF_ERROR(BroadcastAllInputs(ctx));
  auto c = ctx.input_shape_value(0);
  auto x = ctx.input_shape_value(1);
  auto y = ctx.input_shape_value(2);
  if (!c || !x || !y) return absl::OkStatus();
  size_t n = std::max({c->elems.size(), x->elems.size(), y->elems.size()});
  auto at = [n](const ShapeValue& v, size_t i) -> const Dim* {
    if (v.elems.size() == n) return &v.elems[i];
    if (v.elems.size() == 1) return &v.elems[0];
    return nullptr;
  };
  ShapeValue out;
  out.scalar = c->scalar && x->scalar && y->scalar;
  for (size_t i = 0; i < n; ++i) {
    const Dim* ci = at(*c, i);
    const Dim* xi = at(*x, i);
    const Dim* yi = at(*y, i);
    if (ci == nullptr || xi == nullptr || yi == nullptr) return absl::OkStatus();
    if (ci->is_known()) {
      out.elems.push_back(ci->value() != 0 ? *xi : *yi);
    } else {
      out.elems.push_back(UnionDims(*xi, *yi));
    }
  }
  ctx.SetOutputShapeValue(0, std::move(out));
  return absl::OkStatus();
}

absl::Status Cast(InferenceContext& ctx) {
  ir::DataType to;
  const ir::Attribute* a = ctx.attr("to");
  if (a != nullptr && a->kind() == ir::AttributeKind::kString) {
    // Cast-1 names the type: "FLOAT", "INT64", ...
    std::string name = absl::AsciiStrToLower(a->s);
    auto t = ir::ParseDataTypeName(name);
    if (!t) return ctx.Error(absl::StrCat("unknown element type '", a->s, "'"));
    to = *t;
  } else {
    ASSIGN_OR_RETURN(auto t, DataTypeAttr(ctx, ctx.GetInt("to", 0)));
    to = t;
  }
  ctx.SetOutputElemType(0, to);
  ctx.PropagateShape(0, 0);
  if (ir::IsWholeByteInteger(to) && IsIntegerOrBool(ctx.input_elem_type(0))) {
    if (auto v = ctx.input_shape_value(0)) {
      bool ok = true;
      if (to == ir::DataType::kInt32 || to == ir::DataType::kInt64) {
        for (const Dim& d : v->elems) {
          if (d.is_known() && to == ir::DataType::kInt32 &&
              (d.value() > std::numeric_limits<int32_t>::max() ||
               d.value() < std::numeric_limits<int32_t>::min())) {
            ok = false;
          }
        }
        if (ok) ctx.SetOutputShapeValue(0, *v);
      }
    }
  }
  return absl::OkStatus();
}

absl::Status CastLike(InferenceContext& ctx) {
  ctx.PropagateElemType(1, 0);
  ctx.PropagateShape(0, 0);
  ir::DataType to = ctx.input_elem_type(1);
  if ((to == ir::DataType::kInt64 || to == ir::DataType::kInt32) &&
      ir::IsWholeByteInteger(ctx.input_elem_type(0))) {
    if (auto v = ctx.input_shape_value(0)) ctx.SetOutputShapeValue(0, *v);
  }
  return absl::OkStatus();
}

absl::Status Neg(InferenceContext& ctx) {
  RETURN_IF_ERROR(SameShapeAsInput0(ctx));
  if (!ir::IsWholeByteInteger(ctx.input_elem_type(0))) return absl::OkStatus();
  if (auto v = ctx.input_shape_value(0)) {
    ShapeValue out;
    out.scalar = v->scalar;
    for (const Dim& d : v->elems) {
      out.elems.push_back(d.is_known() && d.value() != kMin ? Dim::Known(-d.value())
                                                            : Dim::Unknown());
    }
    ctx.SetOutputShapeValue(0, std::move(out));
  }
  return absl::OkStatus();
}

absl::Status Abs(InferenceContext& ctx) {
  RETURN_IF_ERROR(SameShapeAsInput0(ctx));
  if (!ir::IsWholeByteInteger(ctx.input_elem_type(0))) return absl::OkStatus();
  if (auto v = ctx.input_shape_value(0)) {
    ShapeValue out;
    out.scalar = v->scalar;
    for (const Dim& d : v->elems) {
      if (d.is_known() && d.value() != kMin) {
        out.elems.push_back(Dim::Known(d.value() < 0 ? -d.value() : d.value()));
      } else {
        out.elems.push_back(d);  // a symbolic size is non-negative; unknown stays unknown
      }
    }
    ctx.SetOutputShapeValue(0, std::move(out));
  }
  return absl::OkStatus();
}

// Output 0's element type comes from the `dtype` attribute when given, else from input 0.
absl::Status LikeWithDtype(InferenceContext& ctx) {
  if (const ir::Attribute* a = ctx.attr("dtype")) {
    ASSIGN_OR_RETURN(auto t, DataTypeAttr(ctx, a->i));
    ctx.SetOutputElemType(0, t);
  } else {
    ctx.PropagateElemType(0, 0);
  }
  ctx.PropagateShape(0, 0);
  return absl::OkStatus();
}

}  // namespace

void RegisterElementwiseOps(InferenceRegistry& r) {
  for (const char* op : {"Acos",
                         "Acosh",
                         "Asin",
                         "Asinh",
                         "Atan",
                         "Atanh",
                         "Ceil",
                         "Cos",
                         "Cosh",
                         "Elu",
                         "Erf",
                         "Exp",
                         "Floor",
                         "HardSigmoid",
                         "HardSwish",
                         "IsInf",
                         "IsNaN",
                         "LeakyRelu",
                         "Log",
                         "Mish",
                         "Not",
                         "Reciprocal",
                         "Relu",
                         "Round",
                         "Selu",
                         "Shrink",
                         "Sigmoid",
                         "Sign",
                         "Sin",
                         "Sinh",
                         "Softplus",
                         "Softsign",
                         "Sqrt",
                         "Tan",
                         "Tanh",
                         "ThresholdedRelu",
                         "Celu",
                         "Gelu",
                         "Swish",
                         "BitwiseNot",
                         "Clip",
                         "Softmax",
                         "LogSoftmax",
                         "Hardmax",
                         "CumSum",
                         "CumProd",
                         "LpNormalization",
                         "MeanVarianceNormalization",
                         "Trilu",
                         "ReverseSequence",
                         "ScatterElements",
                         "Scatter",
                         "ScatterND",
                         "RotaryEmbedding",
                         "RMSNormalization",
                         "InstanceNormalization",
                         "LRN",
                         "GroupNormalization"}) {
    r.Register(op, SameShapeAsInput0);
  }
  r.Register("Abs", Abs);
  r.Register("Neg", Neg);
  r.Register("ai.onnx.ml", "Binarizer", 1, kLatest, SameShapeAsInput0);

  // Broadcasting binary operators; before opset 7 the arithmetic and logic ones broadcast B to A.
  struct Binary {
    const char* op;
    SvBinary fn;
    int numpy_since;
  };
  for (const Binary& b :
       std::initializer_list<Binary>{{"Add", SvAdd, 7},           {"Sub", SvSub, 7},
                                     {"Mul", SvMul, 7},           {"Div", SvDiv, 7},
                                     {"Mod", SvMod, 1},           {"Equal", SvEqual, 7},
                                     {"Less", SvLess, 7},         {"Greater", SvGreater, 7},
                                     {"And", SvMul, 7},           {"Or", SvMax, 7},
                                     {"Pow", nullptr, 7},         {"Xor", nullptr, 7},
                                     {"BitShift", nullptr, 1},    {"GreaterOrEqual", nullptr, 1},
                                     {"LessOrEqual", nullptr, 1}, {"BitwiseAnd", nullptr, 1},
                                     {"BitwiseOr", nullptr, 1},   {"BitwiseXor", nullptr, 1},
                                     {"PRelu", nullptr, 7},       {"StringConcat", nullptr, 1}}) {
    if (b.numpy_since > 1) {
      r.Register(b.op, 1, b.numpy_since - 1,
                 std::string_view(b.op) == "PRelu" ? LegacyPRelu : LegacyBroadcast);
    }
    if (b.fn != nullptr) {
      r.Register(b.op, b.numpy_since, kLatest, BroadcastWithValues(b.fn));
    } else {
      r.Register(b.op, b.numpy_since, kLatest, BroadcastAllInputs);
    }
  }
  // Variadic: all inputs had the same shape before opset 8; numpy broadcasting since.
  r.Register("Max", [](InferenceContext& ctx) { return VariadicWithValues(ctx, SvMax); });
  r.Register("Min", [](InferenceContext& ctx) { return VariadicWithValues(ctx, SvMin); });
  r.Register("Sum", [](InferenceContext& ctx) { return VariadicWithValues(ctx, SvAdd); });
  r.Register("Mean", Variadic);
  r.Register("Where", Where);

  r.Register("Cast", Cast);
  r.Register("CastLike", CastLike);
  r.Register("Bernoulli", LikeWithDtype);
  r.Register("RandomUniformLike", LikeWithDtype);
  r.Register("RandomNormalLike", LikeWithDtype);
  r.Register("EyeLike", LikeWithDtype);
}

}  // namespace onnx_opt::schema::inference
