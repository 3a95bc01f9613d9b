#include "ir/value.h"

#include <algorithm>

#include "glog/logging.h"
#include "ir/graph.h"
#include "ir/node.h"

namespace onnx_opt::ir {

Value::~Value() = default;

bool Value::is_graph_output() const {
  if (graph_output_uses_ == 0) return false;
  return std::any_of(uses_.begin(), uses_.end(), [this](const Use& u) {
    return u.is_graph_output() && u.graph == graph_;
  });
}

namespace {
// Below this many uses a linear search is as fast as hashing and keeps insertion order exactly.
constexpr size_t kIndexedUses = 16;
}  // namespace

void Value::AddUse(const Use& use) {
  graph_output_uses_ += use.is_graph_output();
  uses_.push_back(use);
  if (use_index_ != nullptr) {
    (*use_index_)[use] = uses_.size() - 1;
  } else if (uses_.size() > kIndexedUses) {
    use_index_ = std::make_unique<absl::flat_hash_map<Use, size_t>>();
    for (size_t i = 0; i < uses_.size(); ++i) (*use_index_)[uses_[i]] = i;
  }
}

void Value::RemoveUse(const Use& use) {
  graph_output_uses_ -= use.is_graph_output();
  if (use_index_ == nullptr) {
    auto it = std::find(uses_.begin(), uses_.end(), use);
    CHECK(it != uses_.end()) << "use-def chain broken for value '" << name_ << "'";
    uses_.erase(it);
    return;
  }
  auto it = use_index_->find(use);
  CHECK(it != use_index_->end()) << "use-def chain broken for value '" << name_ << "'";
  const size_t pos = it->second;
  use_index_->erase(it);
  if (pos + 1 != uses_.size()) {
    uses_[pos] = uses_.back();
    (*use_index_)[uses_[pos]] = pos;
  }
  uses_.pop_back();
  if (uses_.empty()) use_index_.reset();
}

void Value::RenumberUse(const Use& from, size_t new_index) {
  if (use_index_ == nullptr) {
    auto it = std::find(uses_.begin(), uses_.end(), from);
    CHECK(it != uses_.end()) << "use-def chain broken for value '" << name_ << "'";
    it->index = new_index;
    return;
  }
  auto it = use_index_->find(from);
  CHECK(it != use_index_->end()) << "use-def chain broken for value '" << name_ << "'";
  const size_t pos = it->second;
  use_index_->erase(it);
  uses_[pos].index = new_index;
  (*use_index_)[uses_[pos]] = pos;
}

void Value::ReplaceAllUsesWith(Value* other) {
  if (other == this) return;
  // Copy: SetInput/SetOutput edit uses_ while we walk.
  const UseList uses = uses_;
  for (const Use& u : uses) {
    if (u.is_graph_output()) {
      u.graph->SetOutput(u.index, other);
    } else {
      u.node->SetInput(u.index, other);
    }
  }
}

}  // namespace onnx_opt::ir
