#include "ir/graph.h"

#include <algorithm>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "glog/logging.h"
#include "ir/function.h"

namespace onnx_opt::ir {

namespace {

// How far ahead of the node being visited a walk streams memory in, and at most how many lines it
// asks for per step (a walk that jumped restarts its stream without a burst).
constexpr uintptr_t kStreamAhead = 4096;
constexpr int kMaxLinesPerStep = 16;

// Asks for the lines from `front` up to kStreamAhead bytes past `at` in the walk's direction;
// `front` restarts next to `at` when the walk turned or leapt past it. Plain addresses: the lines
// ahead may lie outside any one object.
template <bool kForward>
void Stream(uintptr_t& front, const void* at) {
  const auto here = reinterpret_cast<uintptr_t>(at);
  if constexpr (kForward) {
    const uintptr_t want = here + kStreamAhead;
    if (front <= here || front > want) front = here + 64;
    for (int k = 0; k < kMaxLinesPerStep && front < want; ++k, front += 64) {
      __builtin_prefetch(reinterpret_cast<const void*>(front));
    }
  } else {
    const uintptr_t want = here - kStreamAhead;
    if (front >= here || front < want) front = here - 64;
    for (int k = 0; k < kMaxLinesPerStep && front > want; ++k, front -= 64) {
      __builtin_prefetch(reinterpret_cast<const void*>(front));
    }
  }
}

}  // namespace

template <bool kForward>
Graph::BasicNodeIterator<kForward>& Graph::BasicNodeIterator<kForward>::operator++() {
  auto step = [](const Node* n) { return kForward ? n->next_ : n->prev_; };
  // An erased node keeps its old links, so a walk that erased the node it stands on continues.
  Node* n = step(node_);
  while (n != nullptr && n->erased_) n = step(n);
  node_ = n;
  if (n == nullptr) return *this;
  // On a large graph each step would wait for memory: the next node is known only once this one
  // has arrived. Under the tools' slab pools (ir/object_allocator.h), nodes and their output values
  // sit in creation order, so the nodes ahead in the list are nearly always ahead in memory too,
  // and the walk streams that memory in. The hardware does so by itself on a freshly built graph,
  // but not once passes have freed most of the slots between live nodes (a walk over the 40% of a
  // 10^6-node DAG left after the default pipeline took ~97 ns per node, against ~20 before).
  // The next node's inputs come from anywhere earlier in the list: those are asked for one by one.
  Stream<kForward>(node_stream_, n);
  if (!n->outputs_.empty()) Stream<kForward>(value_stream_, n->outputs_[0].get());
  if (const Node* after = step(n); after != nullptr) {
    for (const Value* v : after->inputs_) __builtin_prefetch(v);
  }
  return *this;
}

template class Graph::BasicNodeIterator<true>;
template class Graph::BasicNodeIterator<false>;

Graph::Graph(std::string name) : name_(std::move(name)) {}

Graph::~Graph() {
  DropAllReferences();
  erased_.clear();
  // The live list owns its nodes. Every use is gone by now, so the order does not matter.
  for (Node* n = head_; n != nullptr;) {
    Node* next = n->next_;
    delete n;
    n = next;
  }
  head_ = tail_ = nullptr;
}

void Graph::DropAllReferences() {
  for (size_t i = 0; i < outputs_.size(); ++i) {
    if (outputs_[i] != nullptr) outputs_[i]->RemoveUse(Use{nullptr, this, i});
    outputs_[i] = nullptr;
  }
  outputs_.clear();
  output_use_positions_.clear();
  output_info_.clear();
  for (Node* n = head_; n != nullptr; n = n->next_) n->DropAllReferences();
  for (auto& n : erased_) n->DropAllReferences();
}

Value* Graph::NewOwnedValue(std::string name) {
  owned_values_.push_back(std::unique_ptr<Value>(new Value(this, nullptr, 0, std::move(name))));
  return owned_values_.back().get();
}

Value* Graph::AddInput(std::string name, Type type) {
  Value* v = NewOwnedValue(std::move(name));
  v->type_ = std::move(type);
  v->is_graph_input_ = true;
  inputs_.push_back(v);
  return v;
}

absl::Status Graph::RemoveInput(Value* input) {
  auto it = std::find(inputs_.begin(), inputs_.end(), input);
  if (it == inputs_.end()) {
    return absl::NotFoundError(
        absl::StrCat("'", input->name(), "' is not an input of graph '", name_, "'"));
  }
  if (!input->is_initializer() && input->has_uses()) {
    return absl::FailedPreconditionError(
        absl::StrCat("cannot remove graph input '", input->name(), "': it is still used"));
  }
  inputs_.erase(it);
  input->is_graph_input_ = false;
  if (!input->is_initializer()) {
    RemoveValueInfo(input);
    owned_values_.erase(std::find_if(owned_values_.begin(), owned_values_.end(),
                                     [input](const auto& p) { return p.get() == input; }));
  }
  return absl::OkStatus();
}

Value* Graph::AddInitializer(Tensor tensor) {
  Value* v = NewOwnedValue(tensor.name());
  v->type_ = Type::Tensor(tensor.data_type(), Shape::FromSizes(tensor.dims()));
  v->initializer_ = std::make_unique<Tensor>(std::move(tensor));
  initializers_.push_back(v);
  return v;
}

Value* Graph::AddSparseInitializer(std::string name, SparseTensor tensor) {
  Value* v = NewOwnedValue(std::move(name));
  v->type_ = Type::SparseTensor(tensor.values.data_type(), Shape::FromSizes(tensor.dims));
  v->sparse_initializer_ = std::make_unique<SparseTensor>(std::move(tensor));
  sparse_initializers_.push_back(v);
  return v;
}

void Graph::SetInitializer(Value* input, Tensor tensor) {
  CHECK(input->graph_ == this && input->producer_ == nullptr);
  if (input->initializer_ == nullptr) initializers_.push_back(input);
  input->initializer_ = std::make_unique<Tensor>(std::move(tensor));
}

absl::Status Graph::RemoveInitializer(Value* value) {
  auto& list = value->sparse_initializer_ ? sparse_initializers_ : initializers_;
  auto it = std::find(list.begin(), list.end(), value);
  if (it == list.end()) {
    return absl::NotFoundError(
        absl::StrCat("'", value->name(), "' is not an initializer of graph '", name_, "'"));
  }
  if (value->is_graph_input_) {
    // Only the default goes; the input stays.
    list.erase(it);
    value->initializer_.reset();
    value->sparse_initializer_.reset();
    return absl::OkStatus();
  }
  if (value->has_uses()) {
    return absl::FailedPreconditionError(
        absl::StrCat("cannot remove initializer '", value->name(), "': it is still used"));
  }
  list.erase(it);
  RemoveValueInfo(value);
  owned_values_.erase(std::find_if(owned_values_.begin(), owned_values_.end(),
                                   [value](const auto& p) { return p.get() == value; }));
  return absl::OkStatus();
}

absl::Status Graph::RemoveInitializers(const std::vector<Value*>& values) {
  absl::flat_hash_set<const Value*> doomed;
  for (Value* value : values) {
    if (value->graph() != this || (!value->initializer_ && !value->sparse_initializer_)) {
      return absl::NotFoundError(
          absl::StrCat("'", value->name(), "' is not an initializer of graph '", name_, "'"));
    }
    if (!value->is_graph_input_ && value->has_uses()) {
      return absl::FailedPreconditionError(
          absl::StrCat("cannot remove initializer '", value->name(), "': it is still used"));
    }
    doomed.insert(value);
  }
  if (doomed.empty()) return absl::OkStatus();
  auto gone = [&](const Value* v) { return doomed.contains(v); };
  initializers_.erase(std::remove_if(initializers_.begin(), initializers_.end(), gone),
                      initializers_.end());
  sparse_initializers_.erase(
      std::remove_if(sparse_initializers_.begin(), sparse_initializers_.end(), gone),
      sparse_initializers_.end());
  for (Value* value : values) {
    if (value->is_graph_input_) {
      // Only the default goes; the input stays.
      value->initializer_.reset();
      value->sparse_initializer_.reset();
      doomed.erase(value);
    } else {
      RemoveValueInfo(value);
    }
  }
  owned_values_.erase(
      std::remove_if(owned_values_.begin(), owned_values_.end(),
                     [&](const std::unique_ptr<Value>& p) { return doomed.contains(p.get()); }),
      owned_values_.end());
  return absl::OkStatus();
}

void Graph::AddOutput(Value* v) {
  CHECK(v != nullptr);
  outputs_.push_back(v);
  output_use_positions_.push_back(0);
  v->AddUse(Use{nullptr, this, outputs_.size() - 1});
}

void Graph::SetOutput(size_t i, Value* v) {
  CHECK_LT(i, outputs_.size());
  CHECK(v != nullptr);
  if (outputs_[i] == v) return;
  outputs_[i]->RemoveUse(Use{nullptr, this, i});
  outputs_[i] = v;
  v->AddUse(Use{nullptr, this, i});
  if (i < output_info_.size()) output_info_[i].reset();
}

void Graph::RemoveOutput(size_t i) {
  CHECK_LT(i, outputs_.size());
  outputs_[i]->RemoveUse(Use{nullptr, this, i});
  for (size_t j = i + 1; j < outputs_.size(); ++j) {
    outputs_[j]->RenumberUse(Use{nullptr, this, j}, j - 1);
  }
  outputs_.erase(outputs_.begin() + i);
  output_use_positions_.erase(output_use_positions_.begin() + i);
  if (i < output_info_.size()) output_info_.erase(output_info_.begin() + i);
}

const std::optional<OutputInfo>& Graph::output_info(size_t i) const {
  static const std::optional<OutputInfo> kNone;
  return i < output_info_.size() ? output_info_[i] : kNone;
}

void Graph::set_output_info(size_t i, std::optional<OutputInfo> info) {
  CHECK_LT(i, outputs_.size());
  if (output_info_.size() <= i) output_info_.resize(i + 1);
  output_info_[i] = std::move(info);
}

void Graph::Link(Node* node, Node* before) {
  node->graph_ = this;
  for (auto& out : node->outputs_) out->graph_ = this;
  if (before == nullptr) {
    node->prev_ = tail_;
    node->next_ = nullptr;
    if (tail_ != nullptr)
      tail_->next_ = node;
    else
      head_ = node;
    tail_ = node;
  } else {
    CHECK(before->graph_ == this && !before->erased_);
    node->next_ = before;
    node->prev_ = before->prev_;
    if (before->prev_ != nullptr)
      before->prev_->next_ = node;
    else
      head_ = node;
    before->prev_ = node;
  }
  ++num_nodes_;
  CountOpTypeChange(node->op_type_, +1);
  if (node->may_have_subgraphs_) ++subgraph_holders_;
}

void Graph::Unlink(Node* node) {
  // Keep node->next_ so iterators standing on the node can advance.
  if (node->prev_ != nullptr)
    node->prev_->next_ = node->next_;
  else
    head_ = node->next_;
  if (node->next_ != nullptr)
    node->next_->prev_ = node->prev_;
  else
    tail_ = node->prev_;
  --num_nodes_;
  CountOpTypeChange(node->op_type_, -1);
  if (node->may_have_subgraphs_) --subgraph_holders_;
}

void Graph::CountOpTypeChange(const std::string& op, int64_t delta) {
  auto it = op_type_counts_.try_emplace(op, 0).first;
  it->second += delta;
  CHECK_GE(it->second, 0) << "op type count of '" << op << "' went negative";
  if (it->second == 0) op_type_counts_.erase(it);
}

int64_t Graph::CountOpType(std::string_view op) const {
  // absl::string_view need not be std::string_view in Debian's abseil build.
  auto it = op_type_counts_.find(absl::string_view(op.data(), op.size()));
  return it == op_type_counts_.end() ? 0 : it->second;
}

Node* Graph::Append(std::unique_ptr<Node> node) {
  CHECK(node->graph_ == nullptr);
  Node* n = node.release();  // owned by the live list from here on
  Link(n, nullptr);
  return n;
}

Node* Graph::InsertBefore(Node* pos, std::unique_ptr<Node> node) {
  CHECK(node->graph_ == nullptr);
  Node* n = node.release();  // owned by the live list from here on
  Link(n, pos);
  return n;
}

Node* Graph::InsertAfter(Node* pos, std::unique_ptr<Node> node) {
  CHECK(pos->graph_ == this && !pos->erased_);
  return InsertBefore(pos->next_, std::move(node));
}

Node* Graph::AddNode(std::string op_type, const std::vector<Value*>& inputs,
                     const std::vector<std::string>& output_names, std::string domain) {
  return Append(Node::Create(std::move(domain), std::move(op_type), inputs, output_names));
}

void Graph::MoveBefore(Node* node, Node* pos) {
  CHECK(node->graph_ == this && !node->erased_);
  if (node == pos) return;
  Unlink(node);
  Link(node, pos);
}

void Graph::MoveAfter(Node* node, Node* pos) {
  CHECK(node->graph_ == this && !node->erased_ && pos->graph_ == this);
  if (node == pos) return;
  Unlink(node);
  Link(node, pos->next_);
}

absl::Status Graph::Erase(Node* node) {
  if (node->graph_ != this || node->erased_) {
    return absl::FailedPreconditionError(
        absl::StrCat("cannot erase ", node->Describe(), ": it is not a live node of this graph"));
  }
  for (const auto& out : node->outputs_) {
    if (out->has_uses()) {
      return absl::FailedPreconditionError(absl::StrCat(
          "cannot erase ", node->Describe(), ": output '", out->name(), "' is still used"));
    }
  }
  node->DropAllReferences();
  for (const auto& out : node->outputs_) RemoveValueInfo(out.get());
  Unlink(node);
  node->erased_ = true;
  erased_.push_back(std::unique_ptr<Node>(node));
  return absl::OkStatus();
}

void Graph::ReleaseErased() {
  // Erased nodes are cold by now, and destroying one reads every line of it and of its outputs:
  // ask for them a few nodes ahead, so that the misses overlap instead of coming one at a time.
  constexpr size_t kNodesAhead = 8;
  constexpr size_t kValuesAhead = 4;
  auto prefetch_lines = [](const void* p, size_t bytes) {
    for (size_t offset = 0; offset < bytes; offset += 64)
      __builtin_prefetch(static_cast<const char*>(p) + offset);
  };
  for (size_t i = 0; i < erased_.size(); ++i) {
    if (i + kNodesAhead < erased_.size())
      prefetch_lines(erased_[i + kNodesAhead].get(), sizeof(Node));
    if (i + kValuesAhead < erased_.size()) {
      for (const auto& out : erased_[i + kValuesAhead]->outputs_)
        prefetch_lines(out.get(), sizeof(Value));
    }
    erased_[i].reset();
  }
  erased_.clear();
}

std::unique_ptr<Node> Graph::Detach(Node* node) {
  CHECK(node->graph_ == this && !node->erased_);
  Unlink(node);
  std::unique_ptr<Node> owned(node);
  owned->graph_ = nullptr;
  owned->prev_ = owned->next_ = nullptr;
  for (auto& out : owned->outputs_) out->graph_ = nullptr;
  return owned;
}

void Graph::Reorder(const std::vector<Node*>& order) {
  CHECK_EQ(order.size(), num_nodes_);
  // The list owns the nodes: `order` must name each live node exactly once, or some would be lost.
  const uint64_t seen = NewWalkStamp();
  for (Node* n : order) {
    CHECK(n->graph_ == this && !n->erased_ && n->walk_stamp() != seen)
        << "Reorder needs each live node once";
    n->set_walk_stamp(seen);
  }
  head_ = tail_ = nullptr;
  num_nodes_ = 0;
  op_type_counts_.clear();
  subgraph_holders_ = 0;
  for (Node* n : order) Link(n, nullptr);
}

Graph* Graph::parent_graph() const {
  return parent_node_ != nullptr ? parent_node_->graph() : nullptr;
}

bool Graph::IsWithin(const Graph* other) const {
  for (const Graph* g = this; g != nullptr; g = g->parent_graph()) {
    if (g == other) return true;
  }
  return false;
}

void Graph::AddValueInfo(Value* v) { v->value_info_order_ = NextValueInfoOrder(); }

void Graph::RemoveValueInfo(Value* v) { v->value_info_order_ = 0; }

}  // namespace onnx_opt::ir
