// Normalization and Dropout.
//
//   BatchNormalization: 6 drops consumed_inputs (required at 1: downgrades add an empty one);
//     7 drops is_test (only test mode, is_test=1, keeps its meaning: before 7 the default 0 means
//     training mode with batch statistics); 9 drops spatial (only spatial=1 is expressible);
//     14 adds training_mode and replaces the training outputs (mean, var, saved_mean, saved_var)
//     with running_mean/running_var: only inference nodes (one output) cross that step;
//     15 lets scale/B and mean/var have their own types (a downgrade needs matching types,
//     which the schema validation checks).
//   Dropout: 6 drops consumed_inputs; 7 drops is_test (as for BatchNormalization); 10 makes the
//     mask boolean (a Cast keeps consumers' types); 12 moves ratio to an input and adds the
//     training_mode input and the seed attribute (downgrades need inference mode).
//   GroupNormalization-18 scaled per group, GroupNormalization-21 per channel (ONNX deprecated 18);
//     below 21 it is expanded to InstanceNormalization between Reshapes.
//   LayerNormalization (17) and RMSNormalization (23) are expanded below their opsets.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "converter/adapter_util.h"
#include "converter/families.h"
#include "ir/constant_value.h"
#include "ir/status_macros.h"
#include "schema/fused_expr/fused_expr.h"

namespace onnx_opt::converter {
namespace {

constexpr char kConsumed[] = "consumed_inputs";
constexpr char kConsumedNote[] =
    "opset 6 removed the legacy attribute consumed_inputs, which never affected results";

bool HasUsedOutputsBeyond(const ir::Node& n, size_t first) {
  for (size_t i = first; i < n.num_outputs(); ++i) {
    if (!n.output(i)->is_omitted() && n.output(i)->has_uses()) return true;
  }
  return false;
}

// Drops trailing outputs nothing uses (so an inference node looks like one).
void DropUnusedTrailingOutputs(ir::Node& n, size_t keep) {
  while (n.num_outputs() > keep && !n.output(n.num_outputs() - 1)->has_uses()) {
    if (!n.RemoveLastOutput().ok()) break;
  }
}

absl::Status RequireTestMode(AdapterContext& ctx) {
  const int64_t is_test = IntAttr(ctx, "is_test", 0);
  if (is_test == 0) {
    return ctx.Error(
        "is_test=0 (the default before opset 7) selects training mode, which later versions "
        "do not express in the graph");
  }
  ctx.node().RemoveAttribute("is_test");
  return absl::OkStatus();
}

absl::Status SetTestMode(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  if (HasUsedOutputsBeyond(n, 1)) {
    return ctx.Error(
        "the node produces training outputs, which the older version computes only with is_test=0");
  }
  DropUnusedTrailingOutputs(n, n.op_type() == "Dropout" ? 2 : 1);
  n.SetAttribute(ir::Attribute::Int("is_test", 1));
  return absl::OkStatus();
}

absl::Status BatchNormUp9To14(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  if (HasUsedOutputsBeyond(n, 1)) {
    return ctx.Error(
        "training outputs (mean, var, saved_mean, saved_var) changed meaning at opset 14");
  }
  DropUnusedTrailingOutputs(n, 1);
  return absl::OkStatus();
}

absl::Status BatchNormDown14To9(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  if (IntAttr(ctx, "training_mode", 0) != 0) {
    return ctx.Error("training_mode=1 has no equivalent before opset 14");
  }
  n.RemoveAttribute("training_mode");
  if (HasUsedOutputsBeyond(n, 1))
    return ctx.Error("running_mean/running_var outputs have no equivalent");
  DropUnusedTrailingOutputs(n, 1);
  return absl::OkStatus();
}

absl::Status BatchNormUp7To9(AdapterContext& ctx) {
  if (IntAttr(ctx, "spatial", 1) != 1) {
    return ctx.Error("spatial=0 (statistics per activation) has no equivalent from opset 9 on");
  }
  ctx.node().RemoveAttribute("spatial");
  return absl::OkStatus();
}

absl::Status BatchNormDown6To1(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  if (n.FindAttribute(kConsumed) == nullptr) {
    n.SetAttribute(ir::Attribute::Ints(kConsumed, std::vector<int64_t>(n.num_inputs(), 0)));
  }
  return absl::OkStatus();
}

// The node's own mask output changed element type (Dropout-10's is bool, Dropout-7's the data's).
// What was declared for it (value_info, as IR 3 exporters typed every value, or a graph output)
// keeps its shape with the new element type, or is dropped when that type is unknown; what
// inference said before the step is forgotten. Without this an unused mask kept its old type into
// the new version, which refuses it.
void RetypeMask(AdapterContext& ctx, ir::Value* mask, std::optional<ir::DataType> elem) {
  ctx.ForgetType(mask);
  ir::Type t = mask->type();
  if (t.is_none()) return;
  if (t.is_tensor() && elem.has_value()) {
    t.set_elem_type(*elem);
    mask->set_type(std::move(t));
  } else {
    mask->set_type(ir::Type());
  }
}

// Dropout-10 mask is bool, Dropout-7's has the data type: a Cast after a mask that is used keeps
// the type its consumers (or the graph output) see; an unused mask only changes type.
absl::Status DropoutMaskUp7To10(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  if (n.num_outputs() < 2 || n.output(1)->is_omitted()) return absl::OkStatus();
  if (n.output(1)->has_uses()) {
    std::optional<ir::DataType> t = ctx.ElemType(n.input(0));
    if (!t.has_value())
      return ctx.Error("the mask output is used and the data type (its old type) is unknown");
    ASSIGN_OR_RETURN(ir::Node * cast, InsertAfterOutput(ctx, 1, "Cast"));
    cast->SetAttribute(ir::Attribute::Int("to", static_cast<int64_t>(*t)));
  }
  RetypeMask(ctx, n.output(1), ir::DataType::kBool);
  return absl::OkStatus();
}

absl::Status DropoutMaskDown10To7(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  if (n.num_outputs() < 2 || n.output(1)->is_omitted()) return absl::OkStatus();
  if (n.output(1)->has_uses()) {
    ASSIGN_OR_RETURN(ir::Node * cast, InsertAfterOutput(ctx, 1, "Cast"));
    cast->SetAttribute(ir::Attribute::Int("to", static_cast<int64_t>(ir::DataType::kBool)));
  }
  RetypeMask(ctx, n.output(1), ctx.ElemType(n.input(0)));
  return absl::OkStatus();
}

absl::Status DropoutUp10To12(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  const ir::Attribute* ratio = n.FindAttribute("ratio");
  if (ratio != nullptr) {
    if (ratio->is_reference()) return ctx.Error("ratio is a function attribute reference");
    ctx.SetInput(1, ctx.AddConstant(ir::MakeFloatTensor(ir::DataType::kFloat, {}, {ratio->f}),
                                    "dropout_ratio"));
    n.RemoveAttribute("ratio");
  }
  return absl::OkStatus();
}

absl::Status DropoutDown12To10(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  if (n.has_input(2)) {
    absl::StatusOr<ir::Tensor> t = ctx.ConstantInput(2, "training_mode");
    if (!t.ok()) {
      return ctx.Error(
          "training_mode is computed at run time; before opset 12 the mode is not part of the "
          "graph");
    }
    std::optional<std::vector<double>> v = ir::ConstantAsDoubles(*t);
    bool is_false =
        t->data_type() == ir::DataType::kBool && t->raw_size() == 1 && t->raw_data()[0] == 0;
    if (!is_false && !(v.has_value() && v->size() == 1 && v->front() == 0)) {
      return ctx.Error("training_mode is true; before opset 12 the mode is not part of the graph");
    }
    ctx.SetInput(2, nullptr);
  }
  if (n.has_input(1)) {
    absl::StatusOr<std::vector<double>> r = ctx.ConstantDoubles(1, "ratio");
    if (r.ok() && r->size() == 1)
      n.SetAttribute(ir::Attribute::Float("ratio", static_cast<float>(r->front())));
    // In inference mode the ratio has no effect, so a computed ratio can be dropped.
    ctx.SetInput(1, nullptr);
  }
  ctx.TrimInputs();
  n.RemoveAttribute("seed");
  return absl::OkStatus();
}

// A ReduceMean over `axes` with keepdims=1 in the target opset's form.
ir::Value* MakeReduceMean(AdapterContext& ctx, ir::Value* x, const std::vector<int64_t>& axes,
                          std::string_view base) {
  ir::Node* n;
  if (ctx.to_opset() >= 18) {
    n = ctx.InsertBefore("ReduceMean",
                         {x, ctx.AddInts(axes, absl::StrCat(std::string(base), "_axes"))}, 1, base);
  } else {
    n = ctx.InsertBefore("ReduceMean", {x}, 1, base);
    n->SetAttribute(ir::Attribute::Ints("axes", axes));
  }
  n->SetAttribute(ir::Attribute::Int("keepdims", 1));
  return n->output(0);
}

absl::StatusOr<ir::DataType> NeedType(AdapterContext& ctx, const ir::Value* v) {
  std::optional<ir::DataType> t = ctx.ElemType(v);
  if (!t.has_value())
    return ctx.Error("the input's element type must be known to expand the operator");
  return *t;
}

// The axes [axis, rank) as negative numbers when the rank is unknown.
absl::StatusOr<std::vector<int64_t>> TrailingAxes(AdapterContext& ctx, int64_t axis,
                                                  const ir::Value* x) {
  // An axis list is spelled out one entry per axis, so a hostile axis must not make it huge: with
  // the rank known the axis must lie in it; without, no real tensor has more than this many dims.
  constexpr int64_t kMaxAxesOfUnknownRank = 256;
  std::vector<int64_t> axes;
  std::optional<int64_t> r = ctx.Rank(x);
  if (r.has_value() ? (axis < -*r || axis >= *r) : axis < -kMaxAxesOfUnknownRank) {
    return ctx.Error(absl::StrCat("axis ", axis, " is out of range for the input's rank"));
  }
  if (axis < 0) {
    for (int64_t a = axis; a < 0; ++a) axes.push_back(a);
    return axes;
  }
  if (!r.has_value()) return ctx.Error("axis is non-negative and the input rank is unknown");
  for (int64_t a = axis; a < *r; ++a) axes.push_back(a);
  return axes;
}

// Builds a shared normalization core (schema/fused_expr/fused_expr.h), which fusion passes match to
// put the operator back, over `x` in the stash type `c`: constants of type c, ReduceMean over
// `axes`.
std::vector<ir::Value*> ExpandCore(AdapterContext& ctx, const fused_expr::Expr& core, ir::Value* x,
                                   double eps, ir::DataType c, const std::vector<int64_t>& axes,
                                   const std::string& base) {
  const fused_expr::ExpandHooks hooks{
      .scalar = [&](double value, const char* name) { return MakeScalar(ctx, c, value, name); },
      .node =
          [&](const fused_expr::ExprStep& step, const std::vector<ir::Value*>& inputs,
              const std::string& name) {
            if (std::string_view(step.op) == "ReduceMean")
              return MakeReduceMean(ctx, inputs[0], axes, name);
            return ctx.InsertBefore(step.op, inputs, 1, name)->output(0);
          }};
  return fused_expr::Expand(core, {x}, {eps}, base, hooks);
}

// LayerNormalization-17 as its function body computes it (in the stash type).
absl::Status ExpandLayerNorm(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  ir::Value* x = n.input(0);
  ASSIGN_OR_RETURN(ir::DataType t, NeedType(ctx, x));
  const ir::DataType c = static_cast<ir::DataType>(IntAttr(ctx, "stash_type", 1));
  const ir::Attribute* eps_attr = n.FindAttribute("epsilon");
  const double eps = eps_attr != nullptr ? eps_attr->f : 1e-5f;
  ASSIGN_OR_RETURN(std::vector<int64_t> axes, TrailingAxes(ctx, IntAttr(ctx, "axis", -1), x));
  const std::string base = n.output(0)->name();
  ir::Value* xc = t == c ? x : MakeCast(ctx, x, c, base + "_stash");
  const std::vector<ir::Value*> steps =
      ExpandCore(ctx, fused_expr::LayerNormCore(), xc, eps, c, axes, base);
  ir::Value* norm = steps[fused_expr::layer_norm::kNormalized];
  if (t != c) norm = MakeCast(ctx, norm, t, base + "_normt");
  ir::Value* y = MakeBinary(ctx, "Mul", norm, n.input(1), n.has_input(2) ? base + "_scaled" : base);
  if (n.has_input(2)) y = MakeBinary(ctx, "Add", y, n.input(2), base);
  ir::Value* mean = steps[fused_expr::layer_norm::kMean];
  ir::Value* inv = steps[fused_expr::layer_norm::kInvStdDev];
  for (auto [i, v] : std::vector<std::pair<size_t, ir::Value*>>{{0, y}, {1, mean}, {2, inv}}) {
    if (i < n.num_outputs() && !n.output(i)->is_omitted()) {
      RETURN_IF_ERROR(ctx.ReplaceOutput(i, v));
    }
  }
  return ctx.EraseNode();
}

// RMSNormalization-23: X / sqrt(mean(X^2) + epsilon) * scale, in the stash type.
absl::Status ExpandRmsNorm(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  ir::Value* x = n.input(0);
  ASSIGN_OR_RETURN(ir::DataType t, NeedType(ctx, x));
  const ir::DataType c = static_cast<ir::DataType>(IntAttr(ctx, "stash_type", 1));
  const ir::Attribute* eps_attr = n.FindAttribute("epsilon");
  const double eps = eps_attr != nullptr ? eps_attr->f : 1e-5f;
  ASSIGN_OR_RETURN(std::vector<int64_t> axes, TrailingAxes(ctx, IntAttr(ctx, "axis", -1), x));
  const std::string base = n.output(0)->name();
  ir::Value* xc = t == c ? x : MakeCast(ctx, x, c, base + "_stash");
  ir::Value* norm = ExpandCore(ctx, fused_expr::RmsNormCore(), xc, eps, c, axes, base).back();
  if (t != c) norm = MakeCast(ctx, norm, t, base + "_normt");
  RETURN_IF_ERROR(ctx.ReplaceOutput(0, MakeBinary(ctx, "Mul", norm, n.input(1), base)));
  return ctx.EraseNode();
}

// GroupNormalization as InstanceNormalization over (N, G, -1). With `per_channel` (opset 21) the
// scale and bias apply per channel after reshaping back; otherwise (opset 18) per group inside.
absl::Status ExpandGroupNorm(AdapterContext& ctx, bool per_channel) {
  ir::Node& n = ctx.node();
  ir::Value* x = n.input(0);
  ASSIGN_OR_RETURN(ir::DataType t, NeedType(ctx, x));
  const int64_t groups = IntAttr(ctx, "num_groups", -1);
  if (groups <= 0) return ctx.Error("num_groups must be a known positive number");
  const ir::Attribute* eps_attr = n.FindAttribute("epsilon");
  const float eps = eps_attr != nullptr ? eps_attr->f : 1e-5f;
  const std::string base = n.output(0)->name();
  ir::DataType c = t;
  if (per_channel) c = static_cast<ir::DataType>(IntAttr(ctx, "stash_type", 1));
  ir::Value* xc = c == t ? x : MakeCast(ctx, x, c, base + "_stash");
  ir::Value* grouped =
      MakeReshape(ctx, xc, ctx.AddInts({0, groups, -1}, base + "_group_shape"), base + "_grouped");
  ir::Value* scale;
  ir::Value* bias;
  if (per_channel) {
    std::vector<double> ones(groups, 1.0), zeros(groups, 0.0);
    scale = ctx.AddConstant(TypedTensor(c, {groups}, ones), "gn_ones");
    bias = ctx.AddConstant(TypedTensor(c, {groups}, zeros), "gn_zeros");
  } else {
    scale = n.input(1);
    bias = n.input(2);
  }
  ir::Node* in =
      ctx.InsertBefore("InstanceNormalization", {grouped, scale, bias}, 1, base + "_normed");
  in->SetAttribute(ir::Attribute::Float("epsilon", eps));
  ir::Value* shape = MakeUnary(ctx, "Shape", x, base + "_shape");
  ir::Value* y = MakeReshape(ctx, in->output(0), shape, per_channel ? base + "_ungrouped" : base);
  if (per_channel) {
    if (c != t) y = MakeCast(ctx, y, t, base + "_cast");
    std::optional<int64_t> rank = ctx.Rank(x);
    if (!rank.has_value())
      return ctx.Error("the input rank must be known to apply the per-channel scale");
    std::vector<int64_t> axes;
    for (int64_t i = 1; i < *rank - 1; ++i) axes.push_back(i);
    ir::Value* s =
        axes.empty() ? n.input(1) : MakeUnsqueeze(ctx, n.input(1), axes, base + "_scale_c");
    ir::Value* b =
        axes.empty() ? n.input(2) : MakeUnsqueeze(ctx, n.input(2), axes, base + "_bias_c");
    y = MakeBinary(ctx, "Add", MakeBinary(ctx, "Mul", y, s, base + "_scaled"), b, base);
  }
  RETURN_IF_ERROR(ctx.ReplaceOutput(0, y));
  return ctx.EraseNode();
}

// GroupNormalization-18 (scale and bias per group) -> 21 (per channel): repeat each group's value
// C/G times; needs the channel count.
absl::Status GroupNormUp18To21(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  const int64_t groups = IntAttr(ctx, "num_groups", -1);
  std::optional<std::vector<int64_t>> shape = ctx.StaticShape(n.input(0));
  std::optional<ir::Shape> s = ctx.ShapeOf(n.input(0));
  if (groups <= 0 || !s.has_value() || s->rank() < 2 || !s->dim(1).is_known()) {
    return ctx.Error(
        "the channel count (dim 1 of X) must be known to turn per-group scale and bias into "
        "per-channel ones");
  }
  const int64_t channels = s->dim(1).value();
  if (channels % groups != 0) return ctx.Error("the channel count is not a multiple of num_groups");
  for (size_t i : {size_t{1}, size_t{2}}) {
    ir::Value* v = n.input(i);
    ir::Value* col = MakeReshape(ctx, v, ctx.AddInts({groups, 1}, "gn_col"), v->name() + "_col");
    ir::Value* wide =
        MakeBinary(ctx, "Expand", col, ctx.AddInts({groups, channels / groups}, "gn_wide"),
                   v->name() + "_wide");
    n.SetInput(
        i, MakeReshape(ctx, wide, ctx.AddInts({channels}, "gn_flat"), v->name() + "_per_channel"));
  }
  return absl::OkStatus();
}

}  // namespace

void RegisterNormalizationAdapters(AdapterRegistry& registry) {
  Registrar r(registry);
  r.Both("BatchNormalization", 1, 6, AdapterKind::kAttribute, kConsumedNote, DropAttr(kConsumed),
         BatchNormDown6To1);
  r.Both("BatchNormalization", 6, 7, AdapterKind::kAttribute,
         "opset 7 removed is_test: the graph no longer selects training mode", RequireTestMode,
         SetTestMode);
  r.Both("BatchNormalization", 7, 9, AdapterKind::kAttribute, "opset 9 removed spatial (always 1)",
         BatchNormUp7To9, Nothing());
  r.Both("BatchNormalization", 9, 14, AdapterKind::kAttribute,
         "opset 14 added training_mode and replaced the training outputs; bfloat16 added",
         BatchNormUp9To14, BatchNormDown14To9);
  r.Compatible("BatchNormalization", 14, 15,
               "scale/B and mean/var may have types of their own (downgrades check they match)");

  for (const char* op : {"Dropout", "InstanceNormalization"}) {
    r.Both(op, 1, 6, AdapterKind::kAttribute, kConsumedNote, DropAttr(kConsumed), Nothing());
  }
  r.Both("Dropout", 6, 7, AdapterKind::kAttribute, "opset 7 removed is_test", RequireTestMode,
         SetTestMode);
  r.Both("Dropout", 7, 10, AdapterKind::kRewrite, "the mask output became boolean",
         DropoutMaskUp7To10, DropoutMaskDown10To7);
  r.Both("Dropout", 10, 12, AdapterKind::kMove,
         "ratio became an input; training_mode input and seed attribute added", DropoutUp10To12,
         DropoutDown12To10);
  r.Compatible("Dropout", 12, 13, "bfloat16 added");
  r.Compatible("Dropout", 13, 22, "float8 types added");

  r.Compatible("InstanceNormalization", 6, 22, "bfloat16 added");
  r.Compatible("LRN", 1, 13, "bfloat16 added");
  r.Compatible("LpNormalization", 1, 22, "bfloat16 added");
  r.Compatible("MeanVarianceNormalization", 9, 13, "bfloat16 added");

  r.Up("GroupNormalization", 18, 21, AdapterKind::kRewrite,
       "GroupNormalization-21 scales per channel; the deprecated version 18 scaled per group",
       GroupNormUp18To21);
  registry.Register(
      "ai.onnx", "GroupNormalization", 21, kRemoved, AdapterKind::kRewrite,
      "below opset 21 (where the deprecated version 18 is in force) it is expanded to "
      "InstanceNormalization over (N, G, -1) with a per-channel scale",
      [](AdapterContext& ctx) { return ExpandGroupNorm(ctx, /*per_channel=*/true); });
  registry.Register(
      "ai.onnx", "GroupNormalization", 18, kNotDefined, AdapterKind::kRewrite,
      "the deprecated GroupNormalization-18 is expanded to InstanceNormalization over (N, G, -1)",
      [](AdapterContext& ctx) { return ExpandGroupNorm(ctx, /*per_channel=*/false); });
  r.Introduced("LayerNormalization", 17, "is expanded as its function body", ExpandLayerNorm);
  r.Introduced("RMSNormalization", 23, "is expanded as its function body", ExpandRmsNorm);
}

}  // namespace onnx_opt::converter
