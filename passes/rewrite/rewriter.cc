#include "passes/rewrite/rewriter.h"

#include <memory>
#include <utility>

#include "absl/container/inlined_vector.h"
#include "ir/forward_value.h"
#include "ir/status_macros.h"

namespace onnx_opt::passes::rewrite {
namespace {

// A node's inputs, copied before an edit drops them: most nodes have few, kept inline.
using InputCopy = absl::InlinedVector<ir::Value*, 4>;

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
  ir::Node* fused = InsertOpBefore(old, op, inputs, names_.Fresh(out->name() + suffix));
  fused->output(0)->set_type(out->type());
  if (!ForwardUses(out, fused->output(0))) {
    // Undo: the new node has no users yet, only uses of its inputs.
    fused->RemoveAllInputs();
    RETURN_IF_ERROR(EraseNode(*fused));
    return nullptr;
  }
  RETURN_IF_ERROR(EraseNode(old));
  RETURN_IF_ERROR(EraseDeadMatched());
  return fused;
}

absl::StatusOr<bool> Rewriter::ReplaceWithValue(ir::Node& old, ir::Value* value) {
  if (!ForwardUses(old.output(0), value)) return false;
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
      RETURN_IF_ERROR(EraseNode(*n));
      erased = true;
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<bool> Rewriter::EraseIfDead(ir::Node& n) {
  if (n.is_erased() || !IsDead(n)) return false;
  RETURN_IF_ERROR(EraseNode(n));
  return true;
}

ir::Value* Rewriter::AddInitializer(ir::Tensor tensor, std::string_view base) {
  tensor.set_name(names_.Fresh(base));
  return graph_.AddInitializer(std::move(tensor));
}

void Rewriter::ReplaceInput(ir::Node& n, size_t i, ir::Value* v) {
  ir::Value* old = n.input(i);
  n.SetInput(i, v);
  Touch(&n);
  if (old != nullptr && old != v) TouchLostUse(old);
}

void Rewriter::AddInput(ir::Node& n, ir::Value* v) {
  n.AddInput(v);
  Touch(&n);
}

void Rewriter::RemoveAllInputs(ir::Node& n) {
  const InputCopy inputs(n.inputs().begin(), n.inputs().end());
  n.RemoveAllInputs();
  Touch(&n);
  for (ir::Value* v : inputs) {
    if (v != nullptr) TouchLostUse(v);
  }
}

ir::Node* Rewriter::InsertNodeBefore(ir::Node& pos, std::unique_ptr<ir::Node> node) {
  ir::Node* inserted = graph_.InsertBefore(&pos, std::move(node));
  Touch(inserted);
  return inserted;
}

ir::Node* Rewriter::InsertFirst(std::unique_ptr<ir::Node> node) {
  ir::Node* first = graph_.first_node();
  ir::Node* inserted = first != nullptr ? graph_.InsertBefore(first, std::move(node))
                                        : graph_.Append(std::move(node));
  Touch(inserted);
  return inserted;
}

ir::Node* Rewriter::InsertOpBefore(ir::Node& pos, const std::string& op,
                                   const std::vector<ir::Value*>& inputs,
                                   const std::string& output) {
  return InsertNodeBefore(pos, ir::Node::Create("", op, inputs, {output}));
}

bool Rewriter::ForwardUses(ir::Value* from, ir::Value* to) {
  // The users are noted before they move to `to` (and taken back if nothing moves), which spares
  // a copy of the use list.
  const size_t touched_before = touched_.size();
  TouchUsers(*from);
  if (!ir::ForwardValue(from, to)) {
    touched_.resize(touched_before);
    return false;
  }
  TouchLostUse(from);
  return true;
}

void Rewriter::ReplaceAllUsesWith(ir::Value* from, ir::Value* to) {
  TouchUsers(*from);
  from->ReplaceAllUsesWith(to);
  TouchLostUse(from);
}

absl::Status Rewriter::EraseNode(ir::Node& n) {
  const InputCopy inputs(n.inputs().begin(), n.inputs().end());
  RETURN_IF_ERROR(graph_.Erase(&n));
  for (ir::Value* v : inputs) {
    if (v != nullptr) TouchLostUse(v);
  }
  return absl::OkStatus();
}

void Rewriter::SetAttribute(ir::Node& n, ir::Attribute attr) {
  n.SetAttribute(std::move(attr));
  TouchWithUsers(&n);
}

void Rewriter::ChangeOpType(ir::Node& n, std::string op_type) {
  n.set_op_type(std::move(op_type));
  TouchWithUsers(&n);
}

ir::Value* Rewriter::AddOutput(ir::Node& n, std::string name) {
  ir::Value* out = n.AddOutput(std::move(name));
  Touch(&n);
  return out;
}

absl::Status Rewriter::RemoveLastOutput(ir::Node& n) {
  RETURN_IF_ERROR(n.RemoveLastOutput());
  Touch(&n);
  return absl::OkStatus();
}

absl::Status Rewriter::RemoveGraphInput(ir::Value* input) {
  // An initializer that is no longer an input is a constant: its users may fold or match now.
  // They are noted first, since an input without an initializer goes away with the call.
  const size_t touched_before = touched_.size();
  TouchUsers(*input);
  absl::Status removed = graph_.RemoveInput(input);
  if (!removed.ok()) touched_.resize(touched_before);
  return removed;
}

void Rewriter::TouchUsers(const ir::Value& v) {
  // Users of what the swept node computes come after it (a graph is in topological order): the
  // sweep visits them next anyway, and not loading them here was most of the driver's own cost on
  // graphs whose values have many users.
  if (!record_ || (swept_ != nullptr && v.producer() == swept_)) return;
  for (const ir::Use& u : v.uses()) {
    if (!u.is_graph_output()) Touch(u.node);
  }
}

void Rewriter::TouchWithUsers(ir::Node* n) {
  if (!record_) return;
  Touch(n);
  for (size_t i = 0; i < n->num_outputs(); ++i) TouchUsers(*n->output(i));
}

void Rewriter::Touch(ir::Node* n) {
  if (record_ && n != nullptr && n->graph() == &graph_) touched_.push_back(n);
}

void Rewriter::TouchLostUse(const ir::Value* v) {
  // As MLIR's greedy driver: only a value left with at most one use changes what a pattern sees
  // (its producer may be dead, or now the one user's own); a value still used twice or more does
  // not send its producer round again, which on graphs whose values have many users was most of
  // the revisits.
  if (!record_) return;
  const size_t uses = v->uses().size();
  if (uses > 1) return;
  Touch(v->producer());
  if (uses == 1 && !v->uses()[0].is_graph_output()) Touch(v->uses()[0].node);
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
