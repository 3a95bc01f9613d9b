#include "passes/rewrite/rewriter.h"

#include <memory>
#include <utility>

#include "ir/forward_value.h"
#include "ir/status_macros.h"

namespace onnx_opt::passes::rewrite {
namespace {

std::vector<ir::Node*> UsersOf(const ir::Value& v) {
  std::vector<ir::Node*> users;
  for (const ir::Use& u : v.uses()) {
    if (!u.is_graph_output()) users.push_back(u.node);
  }
  return users;
}

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
  if (v != nullptr) Touch(v->producer());
  if (old != nullptr && old != v) TouchLostUse(old);
}

void Rewriter::AddInput(ir::Node& n, ir::Value* v) {
  n.AddInput(v);
  Touch(&n);
}

void Rewriter::RemoveAllInputs(ir::Node& n) {
  std::vector<ir::Value*> inputs(n.inputs().begin(), n.inputs().end());
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
  ir::Node* inserted = first != nullptr ? graph_.InsertBefore(first, std::move(node)) : graph_.Append(std::move(node));
  Touch(inserted);
  return inserted;
}

ir::Node* Rewriter::InsertOpBefore(ir::Node& pos, const std::string& op, const std::vector<ir::Value*>& inputs,
                                   const std::string& output) {
  return InsertNodeBefore(pos, ir::Node::Create("", op, inputs, {output}));
}

bool Rewriter::ForwardUses(ir::Value* from, ir::Value* to) {
  const std::vector<ir::Node*> users = UsersOf(*from);
  if (!ir::ForwardValue(from, to)) return false;
  for (ir::Node* n : users) Touch(n);
  Touch(to->producer());
  TouchLostUse(from);
  return true;
}

void Rewriter::ReplaceAllUsesWith(ir::Value* from, ir::Value* to) {
  const std::vector<ir::Node*> users = UsersOf(*from);
  from->ReplaceAllUsesWith(to);
  for (ir::Node* n : users) Touch(n);
  Touch(to->producer());
  TouchLostUse(from);
}

absl::Status Rewriter::EraseNode(ir::Node& n) {
  std::vector<ir::Value*> inputs(n.inputs().begin(), n.inputs().end());
  RETURN_IF_ERROR(graph_.Erase(&n));
  for (ir::Value* v : inputs) {
    if (v != nullptr) TouchLostUse(v);
  }
  return absl::OkStatus();
}

void Rewriter::Touch(ir::Node* n) {
  if (n != nullptr && n->graph() == &graph_) touched_.push_back(n);
}

void Rewriter::TouchLostUse(const ir::Value* v) {
  Touch(v->producer());
  if (v->uses().size() == 1 && !v->uses()[0].is_graph_output()) Touch(v->uses()[0].node);
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
