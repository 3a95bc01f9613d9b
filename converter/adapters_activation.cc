// Activations, and Softmax / LogSoftmax / Hardmax.
//
//   opset 6: consumed_inputs removed; Selu-6 changed the defaults of alpha and gamma (to more
//            precise constants), so the defaults in force are made explicit across the step.
//   opset 7: PRelu's slope broadcasts unidirectionally (before: one element shared, or one value
//   per
//            channel, X's dim 1); a per-channel [C] slope becomes [C, 1, ..., 1] and back.
//   opset 11: Softmax/LogSoftmax/Hardmax accept a negative axis (downgrades normalize it).
//   opset 13: Softmax/LogSoftmax/Hardmax work on one axis (default -1) instead of coercing the
//            input to 2-D at `axis` (default 1). Where the two agree (the axis is the last one)
//            only the attribute is made explicit; otherwise upgrades flatten at the axis and
//            reshape back, and downgrades move the axis last with Transposes.
//   bfloat16 (and other types) added at 13/16/22/28: compatible.
// Operators introduced later are expanded below their opset where they are functions of older ones:
// Celu (12), HardSwish (14), Mish (18), Gelu (20), Swish (24), ThresholdedRelu (10).
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "converter/adapter_util.h"
#include "converter/families.h"
#include "ir/status_macros.h"
#include "schema/fused_expr/fused_expr.h"
#include "schema/inference/legacy_broadcast.h"
#include "schema/inference/shape_utils.h"

namespace onnx_opt::converter {
namespace {

constexpr char kConsumed[] = "consumed_inputs";
constexpr char kConsumedNote[] =
    "opset 6 removed the legacy attribute consumed_inputs, which never affected results";

// Selu defaults: opset 1 had alpha=1.6732, gamma=1.0507; opset 6 has 1.67326319..., 1.05070102....
constexpr float kSeluAlpha1 = 1.6732f;
constexpr float kSeluGamma1 = 1.0507f;
constexpr float kSeluAlpha6 = 1.67326319217681884765625f;
constexpr float kSeluGamma6 = 1.05070102214813232421875f;

using schema::inference::DimsSurelyEqual;

bool IsOne(const ir::Dim& d) { return d.is_known() && d.value() == 1; }

// PRelu-6's slope is shared or per channel (schema/inference/legacy_broadcast.h); PRelu-7's
// broadcasts as numpy does. Upgrades give a per-channel [C] slope trailing 1s ([C, 1, ..., 1]) so
// that numpy aligns it with X's channel axis; other slopes are read alike by both versions.
absl::Status PReluUp6To7(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  std::optional<ir::Shape> sx = ctx.ShapeOf(n.input(0));
  std::optional<ir::Shape> ss = ctx.ShapeOf(n.input(1));
  // Only a 1-D slope of more than one value on X of rank 3 or more can be per channel.
  if (ss.has_value() && (ss->rank() != 1 || IsOne(ss->dim(0)))) return absl::OkStatus();
  if (sx.has_value() && sx->rank() < 3) return absl::OkStatus();
  if (!sx.has_value() || !ss.has_value()) {
    return ctx.Error(
        "the ranks of X and the slope must be known to tell whether the slope holds one value per "
        "channel, which PRelu-7 would broadcast along X's last axis instead");
  }
  std::optional<ir::Shape> aligned = schema::inference::LegacyPReluSlopeShape(*sx, *ss);
  if (!aligned.has_value()) {
    return ctx.Error(absl::StrCat("whether the slope of shape ", ir::ShapeToString(*ss),
                                  " holds one value per channel of X of shape ",
                                  ir::ShapeToString(*sx), " depends on dims that are not known"));
  }
  if (aligned->rank() == ss->rank()) return absl::OkStatus();
  std::vector<int64_t> axes;
  for (size_t i = 1; i < aligned->rank(); ++i) axes.push_back(static_cast<int64_t>(i));
  n.SetInput(
      1, MakeUnsqueeze(ctx, n.input(1), axes, absl::StrCat(n.input(1)->name(), "_per_channel")));
  return absl::OkStatus();
}

// Downgrades keep a slope of one element or of X's shape, and squeeze a slope that varies along X's
// channel axis only ([C, 1, 1] on [N, C, H, W], say) to the per-channel [C]; others are refused.
absl::Status PReluDown7To6(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  std::optional<ir::Shape> sx = ctx.ShapeOf(n.input(0));
  std::optional<ir::Shape> ss = ctx.ShapeOf(n.input(1));
  if (ss.has_value()) {
    bool single = true;
    for (const ir::Dim& d : ss->dims()) single = single && IsOne(d);
    if (single) return absl::OkStatus();
  }
  if (sx.has_value() && ss.has_value() && sx->rank() >= ss->rank()) {
    bool same = sx->rank() == ss->rank();
    for (size_t i = 0; same && i < sx->rank(); ++i) same = DimsSurelyEqual(sx->dim(i), ss->dim(i));
    if (same) return absl::OkStatus();
    // The slope right-aligned with X: its channel dim, and 1s elsewhere.
    const int64_t channel = 1 - static_cast<int64_t>(sx->rank() - ss->rank());
    bool per_channel =
        sx->rank() >= 2 && channel >= 0 && DimsSurelyEqual(ss->dim(channel), sx->dim(1));
    std::vector<int64_t> squeeze;
    for (int64_t i = 0; per_channel && i < static_cast<int64_t>(ss->rank()); ++i) {
      if (i == channel) continue;
      per_channel = IsOne(ss->dim(i));
      squeeze.push_back(i);
    }
    if (per_channel) {
      if (!squeeze.empty()) {
        n.SetInput(1, MakeSqueeze(ctx, n.input(1), squeeze,
                                  absl::StrCat(n.input(1)->name(), "_per_channel")));
      }
      return absl::OkStatus();
    }
  }
  return ctx.Error(
      "before opset 7 the slope must have one element, X's shape, or one value per channel (X's "
      "dim 1), and that is not known to hold");
}

// Softmax-family axis before opset 13: the input is coerced to 2-D [prod(d0..d{a-1}), prod(da..)].
// Upgrade: when the axis is the last one, the semantics coincide; otherwise Flatten at the axis,
// normalize the last axis of the 2-D tensor, and reshape back.
absl::Status SoftmaxUp11To13(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  ir::Value* x = n.input(0);
  int64_t axis = IntAttr(ctx, "axis", 1);
  std::optional<int64_t> rank = ctx.Rank(x);
  if (rank.has_value()) {
    if (axis < 0) axis += *rank;
    if (axis == *rank - 1) {
      n.SetAttribute(ir::Attribute::Int("axis", -1));
      return absl::OkStatus();
    }
    if (*rank == 0) {
      n.SetAttribute(ir::Attribute::Int("axis", -1));
      return absl::OkStatus();
    }
  }
  // General rewrite: Flatten(x, axis) -> op(axis=-1) -> Reshape(., Shape(x)).
  ir::Node* flat = ctx.InsertBefore("Flatten", {x}, 1, absl::StrCat(x->name(), "_2d"));
  flat->SetAttribute(ir::Attribute::Int("axis", axis));
  ir::Value* shape = MakeUnary(ctx, "Shape", x, absl::StrCat(x->name(), "_shape"));
  n.SetInput(0, flat->output(0));
  n.SetAttribute(ir::Attribute::Int("axis", -1));
  // The node's output becomes 2-D; a Reshape after it restores the shape for every use.
  ASSIGN_OR_RETURN(ir::Node * reshape, InsertAfterOutput(ctx, 0, "Reshape"));
  reshape->AddInput(shape);
  return absl::OkStatus();
}

// Downgrade: the single-axis semantics of opset 13 equal the 2-D coercion when the axis is the
// last; otherwise transpose the axis to the end and back.
absl::Status SoftmaxDown13To11(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  ir::Value* x = n.input(0);
  int64_t axis = IntAttr(ctx, "axis", -1);
  std::optional<int64_t> rank = ctx.Rank(x);
  if (axis == -1) {
    n.SetAttribute(ir::Attribute::Int("axis", -1));
    return absl::OkStatus();
  }
  if (!rank.has_value()) {
    return ctx.Error(absl::StrCat("axis=", axis,
                                  " may not be the last axis and the input rank is unknown; "
                                  "the older version normalizes over all axes from `axis` on"));
  }
  if (axis < 0) axis += *rank;
  if (axis == *rank - 1) {
    n.SetAttribute(ir::Attribute::Int("axis", axis));
    return absl::OkStatus();
  }
  std::vector<int64_t> perm;
  for (int64_t i = 0; i < *rank; ++i) {
    if (i != axis) perm.push_back(i);
  }
  perm.push_back(axis);
  std::vector<int64_t> inverse(*rank);
  for (int64_t i = 0; i < *rank; ++i) inverse[perm[i]] = i;
  ir::Value* t = MakeTranspose(ctx, x, perm, absl::StrCat(x->name(), "_axis_last"));
  n.SetInput(0, t);
  n.SetAttribute(ir::Attribute::Int("axis", *rank - 1));
  ASSIGN_OR_RETURN(ir::Node * back, InsertAfterOutput(ctx, 0, "Transpose"));
  back->SetAttribute(ir::Attribute::Ints("perm", inverse));
  return absl::OkStatus();
}

// Replaces the node by `out` (computed by nodes inserted before it).
absl::Status ReplaceBy(AdapterContext& ctx, ir::Value* out) {
  RETURN_IF_ERROR(ctx.ReplaceOutput(0, out));
  return ctx.EraseNode();
}

absl::StatusOr<ir::DataType> NeedElemType(AdapterContext& ctx, const ir::Value* v) {
  std::optional<ir::DataType> t = ctx.ElemType(v);
  if (!t.has_value())
    return ctx.Error("the input's element type must be known to expand the operator");
  return *t;
}

// Replaces the node by the shared definition of its expression (schema/fused_expr/fused_expr.h),
// which fusion passes match to put it back; constants get the element type `scalar_type` (needed
// when the definition has any).
absl::Status ExpandByDefinition(AdapterContext& ctx, const fused_expr::Expr& expr,
                                std::optional<ir::DataType> scalar_type = std::nullopt) {
  ir::Node& n = ctx.node();
  const fused_expr::ExpandHooks hooks{
      .scalar = [&](double value,
                    const char* name) { return MakeScalar(ctx, *scalar_type, value, name); },
      .node =
          [&](const fused_expr::ExprStep& step, const std::vector<ir::Value*>& inputs,
              const std::string& name) {
            return ctx.InsertBefore(step.op, inputs, 1, name)->output(0);
          }};
  return ReplaceBy(ctx,
                   fused_expr::Expand(expr, {n.input(0)}, {}, n.output(0)->name(), hooks).back());
}

absl::Status ExpandHardSwish(AdapterContext& ctx) {
  return ExpandByDefinition(ctx, fused_expr::HardSwish());
}

absl::Status ExpandMish(AdapterContext& ctx) { return ExpandByDefinition(ctx, fused_expr::Mish()); }

// Celu(x) = max(0, x) + min(0, alpha * (exp(x / alpha) - 1)) = alpha * Elu(x / alpha) (Elu alpha
// 1).
absl::Status ExpandCelu(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  ir::Value* x = n.input(0);
  ASSIGN_OR_RETURN(ir::DataType t, NeedElemType(ctx, x));
  const ir::Attribute* a = n.FindAttribute("alpha");
  if (a != nullptr && a->is_reference())
    return ctx.Error("alpha is a function attribute reference");
  const double alpha = a != nullptr ? a->f : 1.0;
  ir::Value* al = MakeScalar(ctx, t, alpha, "celu_alpha");
  ir::Value* scaled = MakeBinary(ctx, "Div", x, al, absl::StrCat(n.output(0)->name(), "_scaled"));
  ir::Value* elu = MakeUnary(ctx, "Elu", scaled, absl::StrCat(n.output(0)->name(), "_elu"));
  return ReplaceBy(ctx, MakeBinary(ctx, "Mul", elu, al, n.output(0)->name()));
}

// Gelu(x) = 0.5 x (1 + erf(x / sqrt(2))) (the shared definition, which fuse-gelu puts back), or
// with approximate="tanh": 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))), which no pass fuses.
absl::Status ExpandGelu(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  ir::Value* x = n.input(0);
  ASSIGN_OR_RETURN(ir::DataType t, NeedElemType(ctx, x));
  const std::string approx = StringAttr(ctx, "approximate", "none");
  if (approx == "none") return ExpandByDefinition(ctx, fused_expr::Gelu(), t);
  if (approx != "tanh") return ctx.Error(absl::StrCat("unknown approximate=\"", approx, "\""));
  const std::string base = n.output(0)->name();
  ir::Value* x3 =
      MakeBinary(ctx, "Mul", MakeBinary(ctx, "Mul", x, x, base + "_x2"), x, base + "_x3");
  ir::Value* poly =
      MakeBinary(ctx, "Add", x,
                 MakeBinary(ctx, "Mul", x3, MakeScalar(ctx, t, 0.044715, "gelu_c"), base + "_cx3"),
                 base + "_poly");
  ir::Value* arg = MakeBinary(ctx, "Mul", poly, MakeScalar(ctx, t, std::sqrt(2.0 / M_PI), "gelu_k"),
                              base + "_arg");
  ir::Value* inner = MakeUnary(ctx, "Tanh", arg, base + "_tanh");
  ir::Value* one_plus =
      MakeBinary(ctx, "Add", inner, MakeScalar(ctx, t, 1.0, "gelu_one"), base + "_1p");
  ir::Value* half_x = MakeBinary(ctx, "Mul", x, MakeScalar(ctx, t, 0.5, "gelu_half"), base + "_hx");
  return ReplaceBy(ctx, MakeBinary(ctx, "Mul", half_x, one_plus, base));
}

// Swish(x) = x * sigmoid(alpha * x).
absl::Status ExpandSwish(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  ir::Value* x = n.input(0);
  const ir::Attribute* a = n.FindAttribute("alpha");
  if (a != nullptr && a->is_reference())
    return ctx.Error("alpha is a function attribute reference");
  const double alpha = a != nullptr ? a->f : 1.0;
  ir::Value* arg = x;
  if (alpha != 1.0) {
    ASSIGN_OR_RETURN(ir::DataType t, NeedElemType(ctx, x));
    arg = MakeBinary(ctx, "Mul", x, MakeScalar(ctx, t, alpha, "swish_alpha"),
                     n.output(0)->name() + "_ax");
  }
  ir::Value* sig = MakeUnary(ctx, "Sigmoid", arg, n.output(0)->name() + "_sig");
  return ReplaceBy(ctx, MakeBinary(ctx, "Mul", x, sig, n.output(0)->name()));
}

// ThresholdedRelu(x) = x if x > alpha else 0  ->  Where(Greater(x, alpha), x, 0).
absl::Status ExpandThresholdedRelu(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  ir::Value* x = n.input(0);
  ASSIGN_OR_RETURN(ir::DataType t, NeedElemType(ctx, x));
  const ir::Attribute* a = n.FindAttribute("alpha");
  if (a != nullptr && a->is_reference())
    return ctx.Error("alpha is a function attribute reference");
  const double alpha = a != nullptr ? a->f : 1.0;
  ir::Value* cond = MakeBinary(ctx, "Greater", x, MakeScalar(ctx, t, alpha, "thr_alpha"),
                               n.output(0)->name() + "_gt");
  ir::Node* w = ctx.InsertBefore("Where", {cond, x, MakeScalar(ctx, t, 0.0, "thr_zero")}, 1,
                                 n.output(0)->name());
  return ReplaceBy(ctx, w->output(0));
}

}  // namespace

void RegisterActivationAdapters(AdapterRegistry& registry) {
  Registrar r(registry);
  for (const char* op : {"Relu", "Sigmoid", "Tanh", "Elu", "HardSigmoid", "LeakyRelu", "PRelu"}) {
    r.Both(op, 1, 6, AdapterKind::kAttribute, kConsumedNote, DropAttr(kConsumed), Nothing());
  }
  r.Both(
      "Selu", 1, 6, AdapterKind::kAttribute,
      "consumed_inputs removed; the defaults of alpha and gamma changed, so they are made explicit",
      Seq({DropAttr(kConsumed), SetFloatIfAbsent("alpha", kSeluAlpha1),
           SetFloatIfAbsent("gamma", kSeluGamma1)}),
      Seq({SetFloatIfAbsent("alpha", kSeluAlpha6), SetFloatIfAbsent("gamma", kSeluGamma6)}));
  r.CompatibleAll({"Relu", "Sigmoid", "Tanh"}, 6, 13, "bfloat16 added");
  r.Compatible("Relu", 13, 14, "signed integer types added");
  r.CompatibleAll({"Elu", "HardSigmoid", "Selu"}, 6, 22, "bfloat16 added");
  r.Compatible("LeakyRelu", 6, 16, "bfloat16 added");
  r.CompatibleAll({"Softplus", "Softsign"}, 1, 22, "bfloat16 added");
  r.Compatible("ThresholdedRelu", 10, 22, "bfloat16 added");
  r.Compatible("HardSwish", 14, 22, "bfloat16 added");
  r.Compatible("Mish", 18, 22, "bfloat16 added");
  r.Compatible("Celu", 12, 28, "float16, bfloat16 and double added");
  r.Both("PRelu", 6, 7, AdapterKind::kAttribute,
         "PRelu-7 broadcasts the slope unidirectionally (before: shared or per channel)",
         PReluUp6To7, PReluDown7To6);
  r.Compatible("PRelu", 7, 9, "integer types added");
  r.Compatible("PRelu", 9, 16, "bfloat16 added");

  for (const char* op : {"Softmax", "LogSoftmax", "Hardmax"}) {
    r.Both(op, 1, 11, AdapterKind::kAttribute, "opset 11 accepts a negative axis", Nothing(),
           NonNegativeAxisAttr("axis", 0));
    r.Both(op, 11, 13, AdapterKind::kRewrite,
           "opset 13 normalizes along one axis (default -1) instead of coercing the input to 2-D "
           "at axis "
           "(default 1)",
           SoftmaxUp11To13, SoftmaxDown13To11);
  }

  r.Introduced("ThresholdedRelu", 10, "is expanded to Where(Greater(x, alpha), x, 0)",
               ExpandThresholdedRelu);
  r.Introduced("Celu", 12, "is expanded to alpha * Elu(x / alpha)", ExpandCelu);
  r.Introduced("HardSwish", 14, "is expanded to x * HardSigmoid(x, 1/6, 0.5)", ExpandHardSwish);
  r.Introduced("Mish", 18, "is expanded to x * Tanh(Softplus(x))", ExpandMish);
  r.Introduced("Gelu", 20, "is expanded with Erf (or Tanh for approximate=\"tanh\")", ExpandGelu);
  r.Introduced("Swish", 24, "is expanded to x * Sigmoid(alpha * x)", ExpandSwish);
}

}  // namespace onnx_opt::converter
