// Recurrent operators: RNN, GRU, LSTM.
//
//   GRU-3 added linear_before_reset (default 0, the old behaviour) and made Y_h optional.
//   opset 7 removed output_sequence (Y is simply an optional output).
//   opset 14 added layout (default 0: sequence-major); a downgrade of layout=1 transposes the
//   batch-major inputs and outputs.
//   bfloat16 at 22 is compatible.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "converter/adapter_util.h"
#include "converter/families.h"
#include "ir/status_macros.h"

namespace onnx_opt::converter {
namespace {

absl::Status OutputSequenceDown(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  if (n.num_outputs() > 0 && !n.output(0)->is_omitted() && n.output(0)->has_uses()) {
    n.SetAttribute(ir::Attribute::Int("output_sequence", 1));
  }
  return absl::OkStatus();
}

absl::Status GruDown3To1(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  RETURN_IF_ERROR(DropAttrIfDefault("linear_before_reset")(ctx));
  // Y_h is required in GRU-1.
  if (n.num_outputs() < 2) {
    n.AddOutput(ctx.names().Fresh(absl::StrCat(n.name().empty() ? "gru" : n.name(), "_Y_h")));
  } else if (n.output(1)->is_omitted()) {
    n.output(1)->set_name(
        ctx.names().Fresh(absl::StrCat(n.name().empty() ? "gru" : n.name(), "_Y_h")));
  }
  if (n.output(0)->is_omitted()) return absl::OkStatus();
  return OutputSequenceDown(ctx);
}

// layout=1 (batch-major) -> layout 0 with Transposes around the node.
absl::Status LayoutDown14To13(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  const int64_t layout = IntAttr(ctx, "layout", 0);
  n.RemoveAttribute("layout");
  if (layout == 0) return absl::OkStatus();
  const bool lstm = n.op_type() == "LSTM";
  // Inputs X (0), initial_h (5), initial_c (6, LSTM): swap the first two axes.
  std::vector<size_t> inputs = {0, 5};
  if (lstm) inputs.push_back(6);
  for (size_t i : inputs) {
    if (!n.has_input(i)) continue;
    n.SetInput(i, MakeTranspose(ctx, n.input(i), {1, 0, 2}, n.input(i)->name() + "_seq_major"));
  }
  // Outputs: Y [seq, dirs, batch, hidden] -> [batch, seq, dirs, hidden]; Y_h/Y_c swap the first
  // two.
  for (size_t i = 0; i < n.num_outputs(); ++i) {
    if (n.output(i)->is_omitted() || !n.output(i)->has_uses()) continue;
    ASSIGN_OR_RETURN(ir::Node * t, InsertAfterOutput(ctx, i, "Transpose"));
    t->SetAttribute(ir::Attribute::Ints(
        "perm", i == 0 ? std::vector<int64_t>{2, 0, 1, 3} : std::vector<int64_t>{1, 0, 2}));
  }
  return absl::OkStatus();
}

}  // namespace

void RegisterRnnAdapters(AdapterRegistry& registry) {
  Registrar r(registry);
  r.Both("GRU", 1, 3, AdapterKind::kAttribute,
         "GRU-3 added linear_before_reset (default 0) and made Y_h optional", Nothing(),
         GruDown3To1);
  r.Both("GRU", 3, 7, AdapterKind::kAttribute, "opset 7 removed output_sequence",
         DropAttr("output_sequence"), OutputSequenceDown);
  for (const char* op : {"RNN", "LSTM"}) {
    r.Both(op, 1, 7, AdapterKind::kAttribute, "opset 7 removed output_sequence",
           DropAttr("output_sequence"), OutputSequenceDown);
  }
  for (const char* op : {"RNN", "GRU", "LSTM"}) {
    r.Both(op, 7, 14, AdapterKind::kRewrite, "opset 14 added layout (default 0: sequence-major)",
           Nothing(), LayoutDown14To13);
    r.Compatible(op, 14, 22, "bfloat16 added");
  }
}

}  // namespace onnx_opt::converter
