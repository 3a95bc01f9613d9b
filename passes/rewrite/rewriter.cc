#include "passes/rewrite/rewriter.h"

#include <memory>
#include <utility>

#include "ir/forward_value.h"
#include "ir/status_macros.h"

namespace onnx_opt::passes::rewrite {
namespace {

bool IsDead(const ir::Node& n) {
  for (size_t i = 0; i < n.num_outputs(); ++i) {
    if (n.output(i)->has_uses()) return false;
  }
  return true;
}

}  // namespace

absl::StatusOr<ir::Node*> Rewriter::ReplaceWithNode(ir::Node& old, const std::string& op,
                                                    const std::vector<ir::Value*>& inputs,
                                                    std::string_view name_suffix) {
  ir::Value* out = old.output(0);
  const std::string suffix = name_suffix.empty() ? "_" + op : std::string(name_suffix);
  ir::Node* fused = graph_.InsertBefore(&old, ir::Node::Create("", op, inputs, {names_.Fresh(out->name() + suffix)}));
  fused->output(0)->set_type(out->type());
  if (!ir::ForwardValue(out, fused->output(0))) {
    // Undo: the new node has no users yet, only uses of its inputs.
    fused->RemoveAllInputs();
    RETURN_IF_ERROR(graph_.Erase(fused));
    return nullptr;
  }
  RETURN_IF_ERROR(graph_.Erase(&old));
  RETURN_IF_ERROR(EraseDeadMatched());
  return fused;
}

absl::StatusOr<bool> Rewriter::ReplaceWithValue(ir::Node& old, ir::Value* value) {
  if (!ir::ForwardValue(old.output(0), value)) return false;
  RETURN_IF_ERROR(EraseIfDead(old).status());
  RETURN_IF_ERROR(EraseDeadMatched(/*keep=*/value->producer()));
  return true;
}

absl::Status Rewriter::EraseDeadMatched(const ir::Node* keep) {
  // Repeat until nothing changes: a matched node may feed another matched node listed before it.
  bool erased = true;
  while (erased) {
    erased = false;
    for (ir::Node* n : state_.matched()) {
      if (n == keep || n->is_erased() || !IsDead(*n)) continue;
      RETURN_IF_ERROR(graph_.Erase(n));
      erased = true;
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<bool> Rewriter::EraseIfDead(ir::Node& n) {
  if (n.is_erased() || !IsDead(n)) return false;
  RETURN_IF_ERROR(graph_.Erase(&n));
  return true;
}

ir::Value* Rewriter::AddInitializer(ir::Tensor tensor, std::string_view base) {
  tensor.set_name(names_.Fresh(base));
  return graph_.AddInitializer(std::move(tensor));
}

absl::StatusOr<int64_t> OneIfReplaced(const absl::StatusOr<ir::Node*>& replaced) {
  if (!replaced.ok()) return replaced.status();
  return *replaced != nullptr ? 1 : 0;
}

absl::StatusOr<int64_t> OneIfReplaced(const absl::StatusOr<bool>& replaced) {
  if (!replaced.ok()) return replaced.status();
  return *replaced ? 1 : 0;
}

}  // namespace onnx_opt::passes::rewrite
