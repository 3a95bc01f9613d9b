// Control flow, optionals and sequences: If, Loop, Scan, OptionalGetElement, OptionalHasElement,
// SplitToSequence.
//
//   If-11 lets the branches return values of different shapes (a downgrade refuses known
//     differing shapes); Loop-11 clarified the loop-carried values; later versions add types.
//   Scan-9 removed the batch axis and sequence_lens of Scan-8 and added per-input/output axes and
//     directions: nodes with batch size 1 convert both ways (Squeeze/Unsqueeze around the node).
//   Scan-11 accepts negative axes.
//   OptionalGetElement/OptionalHasElement-18 also accept plain tensors and sequences (a downgrade
//     wraps them with Optional).
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "converter/adapter_util.h"
#include "converter/families.h"
#include "ir/status_macros.h"

namespace onnx_opt::converter {
namespace {

absl::Status IfDown11To1(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  const ir::Attribute* then_b = n.FindAttribute("then_branch");
  const ir::Attribute* else_b = n.FindAttribute("else_branch");
  if (then_b == nullptr || else_b == nullptr || !then_b->g || !else_b->g) return absl::OkStatus();
  const ir::Graph& t = *then_b->g;
  const ir::Graph& e = *else_b->g;
  for (size_t i = 0; i < t.outputs().size() && i < e.outputs().size(); ++i) {
    std::optional<ir::Shape> st = ctx.ShapeOf(t.outputs()[i]);
    std::optional<ir::Shape> se = ctx.ShapeOf(e.outputs()[i]);
    if (st.has_value() && se.has_value() && st->is_static() && se->is_static() && !(*st == *se)) {
      return ctx.Error(absl::StrCat("output ", i, " has shape ", ir::ShapeToString(*st),
                                    " in then_branch and ", ir::ShapeToString(*se),
                                    " in else_branch; If-1 needs the same shape"));
    }
  }
  return absl::OkStatus();
}

int64_t NumScanInputs(const AdapterContext& ctx) { return IntAttr(ctx, "num_scan_inputs", 0); }

// Adds `axes` (Squeeze or Unsqueeze of axis 0) after every used output.
absl::Status AroundOutputs(AdapterContext& ctx, const std::string& op) {
  ir::Node& n = ctx.node();
  for (size_t i = 0; i < n.num_outputs(); ++i) {
    if (n.output(i)->is_omitted() || !n.output(i)->has_uses()) continue;
    ASSIGN_OR_RETURN(ir::Node * t, InsertAfterOutput(ctx, i, op));
    t->SetAttribute(ir::Attribute::Ints("axes", {0}));
  }
  return absl::OkStatus();
}

absl::Status ScanUp8To9(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  if (n.has_input(0)) return ctx.Error("sequence_lens has no equivalent from opset 9 on");
  for (size_t i = 1; i < n.num_inputs(); ++i) {
    std::optional<ir::Shape> s = ctx.ShapeOf(n.input(i));
    if (!s.has_value() || s->rank() < 1 || !s->dim(0).is_known() || s->dim(0).value() != 1) {
      return ctx.Error(
          "Scan-8 has a batch axis that Scan-9 lacks; only a batch of size 1 (known) converts");
    }
  }
  std::vector<ir::Value*> ins;
  for (size_t i = 1; i < n.num_inputs(); ++i) {
    ins.push_back(MakeSqueeze(ctx, n.input(i), {0}, n.input(i)->name() + "_unbatched"));
  }
  ctx.RemoveInput(0);
  for (size_t i = 0; i < ins.size(); ++i) n.SetInput(i, ins[i]);
  if (const ir::Attribute* d = n.FindAttribute("directions")) {
    if (d->is_reference()) return ctx.Error("directions is a function attribute reference");
    n.SetAttribute(ir::Attribute::Ints("scan_input_directions", d->ints));
    n.RemoveAttribute("directions");
  }
  return AroundOutputs(ctx, "Unsqueeze");
}

absl::Status ScanDown9To8(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  for (const char* a : {"scan_input_axes", "scan_output_axes", "scan_output_directions"}) {
    const ir::Attribute* attr = n.FindAttribute(a);
    if (attr == nullptr) continue;
    if (attr->is_reference())
      return ctx.Error(absl::StrCat(a, " is a function attribute reference"));
    for (int64_t v : attr->ints) {
      if (v != 0) return ctx.Error(absl::StrCat(a, " other than 0 has no equivalent in Scan-8"));
    }
    n.RemoveAttribute(a);
  }
  if (const ir::Attribute* d = n.FindAttribute("scan_input_directions")) {
    if (d->is_reference())
      return ctx.Error("scan_input_directions is a function attribute reference");
    n.SetAttribute(ir::Attribute::Ints("directions", d->ints));
    n.RemoveAttribute("scan_input_directions");
  }
  std::vector<ir::Value*> ins;
  for (size_t i = 0; i < n.num_inputs(); ++i) {
    ins.push_back(MakeUnsqueeze(ctx, n.input(i), {0}, n.input(i)->name() + "_batched"));
  }
  for (size_t i = 0; i < ins.size(); ++i) n.SetInput(i, ins[i]);
  // Prepend the omitted sequence_lens.
  n.AddInput(nullptr);
  for (size_t i = n.num_inputs() - 1; i > 0; --i) {
    ir::Value* v = n.input(i - 1);
    n.SetInput(i - 1, nullptr);
    n.SetInput(i, v);
  }
  (void)NumScanInputs;
  return AroundOutputs(ctx, "Squeeze");
}

absl::Status ScanDown11To9(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  const int64_t m = NumScanInputs(ctx);
  const int64_t states = static_cast<int64_t>(n.num_inputs()) - m;
  if (ir::Attribute* a = n.FindMutableAttribute("scan_input_axes")) {
    if (a->is_reference()) return ctx.Error("scan_input_axes is a function attribute reference");
    for (size_t i = 0; i < a->ints.size(); ++i) {
      if (a->ints[i] >= 0) continue;
      const int64_t input = states + static_cast<int64_t>(i);
      ASSIGN_OR_RETURN(int64_t v, NormalizeAxis(ctx, a->ints[i],
                                                input < static_cast<int64_t>(n.num_inputs())
                                                    ? ctx.Rank(n.input(input))
                                                    : std::nullopt,
                                                "scan_input_axes"));
      a->ints[i] = v;
    }
  }
  if (const ir::Attribute* a = n.FindAttribute("scan_output_axes")) {
    for (int64_t v : a->ints) {
      if (v < 0) return ctx.Error("negative scan_output_axes have no equivalent before opset 11");
    }
  }
  return absl::OkStatus();
}

absl::Status OptionalInputDown18To15(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  if (!n.has_input(0)) return ctx.Error("an omitted input has no equivalent before opset 18");
  const ir::Type& t = ctx.TypeOf(n.input(0));
  if (t.kind() == ir::Type::Kind::kOptional) return absl::OkStatus();
  if (t.is_none()) {
    return ctx.Error("the input's type is unknown; before opset 18 it must be an optional");
  }
  ir::Node* wrap = ctx.InsertBefore("Optional", {n.input(0)}, 1, n.input(0)->name() + "_optional");
  wrap->output(0)->set_type(ir::Type::Optional(t));
  n.SetInput(0, wrap->output(0));
  return absl::OkStatus();
}

}  // namespace

void RegisterControlFlowAdapters(AdapterRegistry& registry) {
  Registrar r(registry);
  r.Both("If", 1, 11, AdapterKind::kAttribute, "If-11 lets the branches return different shapes",
         Nothing(), IfDown11To1);
  r.Compatible("Loop", 1, 11,
               "the description of loop-carried values and scan outputs was clarified");
  for (const char* op : {"If", "Loop"}) {
    r.Compatible(op, 11, 13, "sequence types added");
    r.Compatible(op, 13, 16, "bfloat16 and optional types added");
  }
  r.Both("Scan", 8, 9, AdapterKind::kRewrite,
         "Scan-9 removed the batch axis and sequence_lens and added per-input/output axes and "
         "directions",
         ScanUp8To9, ScanDown9To8);
  r.Both("Scan", 9, 11, AdapterKind::kAttribute, "Scan-11 accepts negative axes", Nothing(),
         ScanDown11To9);
  r.Compatible("Scan", 11, 16, "bfloat16 added");
  for (const char* op : {"If", "Loop", "Scan"}) {
    r.Compatible(op, 16, 19, "float8 types added");
    r.Compatible(op, 19, 21, "int4/uint4 added");
    r.Compatible(op, 21, 23, "float4e2m1 added");
    r.Compatible(op, 23, 24, "float8e8m0 added");
    r.Compatible(op, 24, 25, "int2/uint2 added");
  }
  r.Both("OptionalGetElement", 15, 18, AdapterKind::kRewrite,
         "OptionalGetElement-18 also accepts tensors and sequences", Nothing(),
         OptionalInputDown18To15);
  r.Both("OptionalHasElement", 15, 18, AdapterKind::kRewrite,
         "OptionalHasElement-18 also accepts tensors and sequences, and an omitted input",
         Nothing(), OptionalInputDown18To15);
  r.Compatible("SplitToSequence", 11, 24, "bfloat16 added");
}

}  // namespace onnx_opt::converter
