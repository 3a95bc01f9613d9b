// Reductions: Reduce* and ArgMax/ArgMin.
//
//   opset 11: negative axes accepted (downgrades normalize them with the input rank).
//   opset 12: ArgMax/ArgMin select_last_index (default 0 keeps the old behaviour); ReduceMax/Min
//   int8/uint8. opset 13: bfloat16; ReduceSum takes axes as an optional input and adds
//   noop_with_empty_axes. opset 18: the other Reduce ops do the same as ReduceSum-13. opset 20:
//   ReduceMax/ReduceMin accept bool.
// Downgrades need the axes input to be a compile-time constant; with noop_with_empty_axes=1 and no
// axes the node is an Identity.
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "converter/adapter_util.h"
#include "converter/families.h"
#include "ir/status_macros.h"

namespace onnx_opt::converter {
namespace {

absl::Status AxesAttrToInput(AdapterContext& ctx) {
  ASSIGN_OR_RETURN(const ir::Attribute* a, ctx.Attr("axes"));
  if (a != nullptr) {
    ctx.SetInput(1, ctx.AddInts(a->ints, "axes"));
    ctx.node().RemoveAttribute("axes");
  }
  return absl::OkStatus();
}

absl::Status AxesInputToAttr(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  const int64_t noop = IntAttr(ctx, "noop_with_empty_axes", 0);
  std::vector<int64_t> axes;
  if (n.has_input(1)) {
    ASSIGN_OR_RETURN(std::vector<int64_t> v, ctx.ConstantInts(1, "axes"));
    axes = v;
  }
  ctx.SetInput(1, nullptr);
  ctx.TrimInputs();
  n.RemoveAttribute("noop_with_empty_axes");
  if (axes.empty() && noop != 0) {
    // Nothing to reduce: the node passes its input through.
    n.set_op_type("Identity");
    n.RemoveAttribute("keepdims");
    return absl::OkStatus();
  }
  if (!axes.empty()) n.SetAttribute(ir::Attribute::Ints("axes", axes));
  return absl::OkStatus();
}

// select_last_index=1 before opset 12: reverse the axis (Slice with step -1), take the first
// extreme there, and map the index back: last = dim - 1 - first_in_reversed.
absl::Status SelectLastIndexDown12To11(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  if (IntAttr(ctx, "select_last_index", 0) == 0) {
    n.RemoveAttribute("select_last_index");
    return absl::OkStatus();
  }
  const int64_t axis = IntAttr(ctx, "axis", 0);
  ir::Value* x = n.input(0);
  const std::string base = n.output(0)->name();
  ir::Node* rev = ctx.InsertBefore(
      "Slice",
      {x, ctx.AddInts({-1}, base + "_rev_start"),
       ctx.AddInts({std::numeric_limits<int64_t>::min()}, base + "_rev_end"),
       ctx.AddInts({axis}, base + "_rev_axes"), ctx.AddInts({-1}, base + "_rev_step")},
      1, base + "_reversed");
  n.SetInput(0, rev->output(0));
  n.RemoveAttribute("select_last_index");
  // dim - 1, from the static shape or computed.
  ir::Value* last;
  std::optional<ir::Shape> shape = ctx.ShapeOf(x);
  int64_t a = axis;
  if (shape.has_value() && a < 0) a += static_cast<int64_t>(shape->rank());
  if (shape.has_value() && a >= 0 && a < static_cast<int64_t>(shape->rank()) &&
      shape->dim(a).is_known()) {
    last = ctx.AddScalarInt(shape->dim(a).value() - 1, base + "_last");
  } else {
    ir::Value* dims = MakeUnary(ctx, "Shape", x, base + "_dims");
    ir::Value* dim =
        MakeBinary(ctx, "Gather", dims, ctx.AddScalarInt(axis, base + "_axis"), base + "_dim");
    last = MakeBinary(ctx, "Sub", dim, ctx.AddScalarInt(1, base + "_one"), base + "_last");
  }
  ASSIGN_OR_RETURN(ir::Node * s, InsertAfterOutput(ctx, 0, "Sub"));
  // Sub(last, index): the new node's first input is the old output; swap the operands.
  ir::Value* index = s->input(0);
  s->SetInput(0, last);
  s->AddInput(index);
  return absl::OkStatus();
}

}  // namespace

void RegisterReductionAdapters(AdapterRegistry& registry) {
  Registrar r(registry);
  for (const char* op : {"ArgMax", "ArgMin"}) {
    r.Both(op, 1, 11, AdapterKind::kAttribute, "opset 11 accepts a negative axis", Nothing(),
           NonNegativeAxisAttr("axis", 0));
    r.Both(op, 11, 12, AdapterKind::kAttribute,
           "opset 12 added select_last_index (default 0: the first extreme, as before; 1 is "
           "rewritten by "
           "reversing the axis)",
           Nothing(), SelectLastIndexDown12To11);
    r.Compatible(op, 12, 13, "bfloat16 added");
  }
  const std::vector<const char*> reduce_ops = {
      "ReduceL1",   "ReduceL2",  "ReduceLogSum", "ReduceLogSumExp", "ReduceMax",
      "ReduceMean", "ReduceMin", "ReduceProd",   "ReduceSum",       "ReduceSumSquare"};
  for (const char* op : reduce_ops) {
    const std::string name = op;
    r.Both(op, 1, 11, AdapterKind::kAttribute, "opset 11 accepts negative axes", Nothing(),
           NonNegativeAxisAttr("axes", 0));
    const bool minmax = name == "ReduceMax" || name == "ReduceMin";
    if (minmax) {
      r.Compatible(op, 11, 12, "int8 and uint8 added");
      r.Compatible(op, 12, 13, "bfloat16 added");
    }
    if (name == "ReduceSum") {
      r.Both(op, 11, 13, AdapterKind::kMove,
             "ReduceSum-13 takes axes as an optional input and adds noop_with_empty_axes; bfloat16 "
             "added",
             AxesAttrToInput, AxesInputToAttr);
      continue;
    }
    if (!minmax) r.Compatible(op, 11, 13, "bfloat16 added");
    r.Both(op, 13, 18, AdapterKind::kMove,
           "opset 18 takes axes as an optional input and adds noop_with_empty_axes",
           AxesAttrToInput, AxesInputToAttr);
    if (minmax) r.Compatible(op, 18, 20, "bool added");
  }
}

}  // namespace onnx_opt::converter
