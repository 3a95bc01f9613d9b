// Indexing: Gather*, Scatter*, Compress, OneHot, TopK, NonZero.
//
//   Gather-11 accepts negative indices (constant negative indices are made positive on a
//     downgrade; indices computed at run time are assumed in range, as Gather-1 requires).
//   GatherND-12 adds batch_dims (default 0, the old behaviour).
//   Scatter (9) was replaced by ScatterElements (11) with the same semantics: the op is renamed.
//   ScatterElements/ScatterND-16 add reduction (default "none"); 18 adds reductions max and min.
//   Compress-11 and OneHot-11 accept negative axes.
//   TopK-10 moves k to an input; TopK-11 adds largest/sorted (defaults 1, the old behaviour) and
//     integer types.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "converter/adapter_util.h"
#include "converter/families.h"
#include "ir/constant_value.h"
#include "ir/status_macros.h"

namespace onnx_opt::converter {
namespace {

absl::Status GatherDown11To1(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  absl::StatusOr<ir::Tensor> t = ctx.ConstantInput(1, "indices");
  if (!t.ok())
    return absl::OkStatus();  // run-time indices: assumed within [0, s) as Gather-1 requires
  std::optional<std::vector<int64_t>> idx = ir::ConstantAsInts(*t);
  if (!idx.has_value()) return absl::OkStatus();
  bool negative = false;
  for (int64_t i : *idx) negative = negative || i < 0;
  if (!negative) return absl::OkStatus();
  std::optional<ir::Shape> shape = ctx.ShapeOf(n.input(0));
  int64_t axis = IntAttr(ctx, "axis", 0);
  if (!shape.has_value())
    return ctx.Error("negative indices need the data shape to be made positive");
  if (axis < 0) axis += static_cast<int64_t>(shape->rank());
  if (axis < 0 || axis >= static_cast<int64_t>(shape->rank()) || !shape->dim(axis).is_known()) {
    return ctx.Error("negative indices need the size of the gathered axis to be known");
  }
  const int64_t s = shape->dim(axis).value();
  std::vector<int64_t> fixed;
  for (int64_t i : *idx) fixed.push_back(i < 0 ? i + s : i);
  ir::Tensor out =
      t->data_type() == ir::DataType::kInt32
          ? ir::Tensor::FromVector<int32_t>(ir::DataType::kInt32, t->dims(),
                                            std::vector<int32_t>(fixed.begin(), fixed.end()))
          : ir::Tensor::FromVector<int64_t>(ir::DataType::kInt64, t->dims(), fixed);
  ctx.SetInput(1, ctx.AddConstant(std::move(out), "indices"));
  return absl::OkStatus();
}

AdapterFn RenameOp(std::string to) {
  return [to = std::move(to)](AdapterContext& ctx) {
    ctx.node().set_op_type(to);
    return absl::OkStatus();
  };
}

absl::Status OneHotDown11To9(AdapterContext& ctx) {
  const ir::Attribute* a = ctx.node().FindAttribute("axis");
  if (a == nullptr || a->is_reference() || a->i >= -1)
    return absl::OkStatus();  // -1 is OneHot-9's default
  std::optional<int64_t> r = ctx.Rank(ctx.node().input(0));
  ASSIGN_OR_RETURN(
      int64_t v,
      NormalizeAxis(ctx, a->i, r.has_value() ? std::optional<int64_t>(*r + 1) : std::nullopt,
                    "axis"));
  ctx.node().SetAttribute(ir::Attribute::Int("axis", v));
  return absl::OkStatus();
}

absl::Status TopKUp1To10(AdapterContext& ctx) {
  ASSIGN_OR_RETURN(const ir::Attribute* k, ctx.Attr("k"));
  if (k == nullptr) return ctx.Error("TopK-1 needs k");
  ctx.SetInput(1, ctx.AddInts({k->i}, "k"));
  ctx.node().RemoveAttribute("k");
  return absl::OkStatus();
}

absl::Status TopKDown10To1(AdapterContext& ctx) {
  ASSIGN_OR_RETURN(std::vector<int64_t> k, ctx.ConstantInts(1, "K"));
  if (k.size() != 1) return ctx.Error("K must hold one value");
  ctx.node().SetAttribute(ir::Attribute::Int("k", k.front()));
  ctx.SetInput(1, nullptr);
  ctx.TrimInputs();
  return absl::OkStatus();
}

}  // namespace

void RegisterIndexingAdapters(AdapterRegistry& registry) {
  Registrar r(registry);
  r.Both("Gather", 1, 11, AdapterKind::kAttribute, "Gather-11 accepts negative indices", Nothing(),
         GatherDown11To1);
  r.Compatible("Gather", 11, 13, "bfloat16 added");
  r.Compatible("GatherElements", 11, 13, "bfloat16 added");
  r.Both("GatherND", 11, 12, AdapterKind::kAttribute, "GatherND-12 added batch_dims (default 0)",
         Nothing(), DropAttrIfDefault("batch_dims"));
  r.Compatible("GatherND", 12, 13, "bfloat16 added");

  registry.Register(
      "ai.onnx", "Scatter", 9, kRemoved, AdapterKind::kRewrite,
      "Scatter was deprecated at opset 11 in favour of ScatterElements, which computes the same",
      RenameOp("ScatterElements"));
  r.Introduced("ScatterElements", 11, "is renamed to Scatter, which computes the same",
               RenameOp("Scatter"));
  for (const char* op : {"ScatterElements", "ScatterND"}) {
    r.Compatible(op, 11, 13, "bfloat16 added");
    r.Both(op, 13, 16, AdapterKind::kAttribute, "opset 16 added reduction (default \"none\")",
           Nothing(), DropAttrIfDefault("reduction"));
    r.Both(op, 16, 18, AdapterKind::kAttribute, "opset 18 added reductions \"max\" and \"min\"",
           Nothing(),
           RefuseStringValues("reduction", {"max", "min"},
                              "this reduction has no equivalent before opset 18"));
  }
  r.Both("Compress", 9, 11, AdapterKind::kAttribute, "Compress-11 accepts a negative axis",
         Nothing(), NonNegativeAxisAttr("axis", 0));
  r.Both("OneHot", 9, 11, AdapterKind::kAttribute, "OneHot-11 accepts negative axes (and indices)",
         Nothing(), OneHotDown11To9);
  r.Both("TopK", 1, 10, AdapterKind::kMove, "TopK-10 takes K as an input", TopKUp1To10,
         TopKDown10To1);
  r.Both(
      "TopK", 10, 11, AdapterKind::kAttribute,
      "TopK-11 added largest and sorted (defaults 1: as before), negative axis and integer types",
      Nothing(), Seq({DropAttrIfDefault("largest"), DropAttrIfDefault("sorted")}));
  r.Compatible("TopK", 11, 24, "bfloat16 added");
  r.Compatible("NonZero", 9, 13, "bfloat16 added");
}

}  // namespace onnx_opt::converter
