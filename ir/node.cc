#include "ir/node.h"

#include <atomic>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "glog/logging.h"
#include "ir/graph.h"

namespace onnx_opt::ir {

uint64_t NewWalkStamp() {
  static std::atomic<uint64_t> next{0};
  return ++next;
}

std::unique_ptr<Node> Node::Create(std::string domain, std::string op_type,
                                   const std::vector<Value*>& inputs,
                                   const std::vector<std::string>& output_names) {
  std::unique_ptr<Node> node(new Node());
  node->set_domain(std::move(domain));
  node->op_type_ = std::move(op_type);
  for (Value* v : inputs) node->AddInput(v);
  for (const std::string& name : output_names) node->AddOutput(name);
  return node;
}

Node::~Node() {
  DropAllReferences();
  for (const auto& out : outputs_) {
    CHECK(!out->has_uses()) << "destroying " << Describe() << " while output '" << out->name()
                            << "' is still used";
  }
}

std::string Node::QualifiedOpType() const {
  if (is_onnx_domain()) return op_type_;
  return absl::StrCat(domain_, "::", op_type_);
}

std::string Node::Describe() const {
  if (!name_.empty()) return absl::StrCat("node '", name_, "' (", QualifiedOpType(), ")");
  if (!outputs_.empty() && !outputs_[0]->name().empty()) {
    return absl::StrCat("node producing '", outputs_[0]->name(), "' (", QualifiedOpType(), ")");
  }
  return absl::StrCat("unnamed node (", QualifiedOpType(), ")");
}

void Node::SetInput(size_t i, Value* v) {
  CHECK_LT(i, inputs_.size());
  Value* old = inputs_[i];
  if (old == v) return;
  if (old != nullptr) old->RemoveUse(Use{this, nullptr, i});
  inputs_[i] = v;
  if (v != nullptr) v->AddUse(Use{this, nullptr, i});
}

void Node::AddInput(Value* v) {
  inputs_.push_back(v);
  input_use_positions_.push_back(0);
  if (v != nullptr) v->AddUse(Use{this, nullptr, inputs_.size() - 1});
}

void Node::RemoveInput(size_t i) {
  CHECK_LT(i, inputs_.size());
  SetInput(i, nullptr);
  for (size_t j = i + 1; j < inputs_.size(); ++j) {
    if (inputs_[j] != nullptr) inputs_[j]->RenumberUse(Use{this, nullptr, j}, j - 1);
  }
  inputs_.erase(inputs_.begin() + i);
  input_use_positions_.erase(input_use_positions_.begin() + i);
}

void Node::RemoveAllInputs() {
  for (size_t i = 0; i < inputs_.size(); ++i) SetInput(i, nullptr);
  inputs_.clear();
  input_use_positions_.clear();
}

Value* Node::AddOutput(std::string name) {
  outputs_.push_back(
      std::unique_ptr<Value>(new Value(graph_, this, outputs_.size(), std::move(name))));
  return outputs_.back().get();
}

absl::Status Node::RemoveLastOutput() {
  if (outputs_.empty()) return absl::FailedPreconditionError(Describe() + " has no outputs");
  if (outputs_.back()->has_uses()) {
    return absl::FailedPreconditionError(absl::StrCat("cannot remove output '",
                                                      outputs_.back()->name(), "' of ", Describe(),
                                                      ": it is still used"));
  }
  if (graph_ != nullptr) graph_->RemoveValueInfo(outputs_.back().get());
  outputs_.pop_back();
  return absl::OkStatus();
}

const Attribute* Node::FindAttribute(std::string_view name) const {
  for (const Attribute& a : attributes_) {
    if (a.name() == name) return &a;
  }
  return nullptr;
}

Attribute* Node::FindMutableAttribute(std::string_view name) {
  for (Attribute& a : attributes_) {
    if (a.name() == name) {
      UpdateSubgraphFlag(/*force=*/true);
      return &a;
    }
  }
  return nullptr;
}

void Node::set_op_type(std::string t) {
  if (graph_ != nullptr && !erased_) graph_->CountOpTypeChange(op_type_, -1);
  op_type_ = std::move(t);
  if (graph_ != nullptr && !erased_) graph_->CountOpTypeChange(op_type_, +1);
}

void Node::UpdateSubgraphFlag(bool force) {
  bool holds = force;
  for (const Attribute& a : attributes_) holds |= a.g != nullptr || !a.graphs.empty();
  if (holds == may_have_subgraphs_) return;
  may_have_subgraphs_ = holds;
  if (graph_ != nullptr && !erased_) graph_->subgraph_holders_ += holds ? 1 : -1;
}

void Node::SetSubgraphParent(Attribute& attr) {
  if (attr.g) attr.g->parent_node_ = this;
  for (auto& g : attr.graphs) {
    if (g) g->parent_node_ = this;
  }
}

void Node::SetAttribute(Attribute attr) {
  SetSubgraphParent(attr);
  for (Attribute& a : attributes_) {
    if (a.name() == attr.name()) {
      a = std::move(attr);
      UpdateSubgraphFlag();
      return;
    }
  }
  attributes_.push_back(std::move(attr));
  UpdateSubgraphFlag();
}

bool Node::RemoveAttribute(std::string_view name) {
  for (auto it = attributes_.begin(); it != attributes_.end(); ++it) {
    if (it->name() == name) {
      attributes_.erase(it);
      UpdateSubgraphFlag();
      return true;
    }
  }
  return false;
}

int64_t Node::GetInt(std::string_view name, int64_t fallback) const {
  const Attribute* a = FindAttribute(name);
  return a != nullptr && a->kind() == AttributeKind::kInt ? a->i : fallback;
}

float Node::GetFloat(std::string_view name, float fallback) const {
  const Attribute* a = FindAttribute(name);
  return a != nullptr && a->kind() == AttributeKind::kFloat ? a->f : fallback;
}

std::string Node::GetString(std::string_view name, std::string fallback) const {
  const Attribute* a = FindAttribute(name);
  return a != nullptr && a->kind() == AttributeKind::kString ? a->s : fallback;
}

std::vector<int64_t> Node::GetInts(std::string_view name, std::vector<int64_t> fallback) const {
  const Attribute* a = FindAttribute(name);
  return a != nullptr && a->kind() == AttributeKind::kInts ? a->ints : fallback;
}

std::vector<Graph*> Node::subgraphs() const {
  std::vector<Graph*> out;
  if (!may_have_subgraphs_) return out;
  for (const Attribute& a : attributes_) {
    if (a.g) out.push_back(a.g.get());
    for (const auto& g : a.graphs) {
      if (g) out.push_back(g.get());
    }
  }
  return out;
}

Node* Node::next() const {
  Node* n = next_;
  while (n != nullptr && n->erased_) n = n->next_;
  return n;
}

Node* Node::prev() const {
  Node* n = prev_;
  while (n != nullptr && n->erased_) n = n->prev_;
  return n;
}

void Node::DropAllReferences() {
  for (size_t i = 0; i < inputs_.size(); ++i) SetInput(i, nullptr);
  for (Graph* g : subgraphs()) g->DropAllReferences();
}

}  // namespace onnx_opt::ir
