#include "ir/value.h"

#include <algorithm>

#include "glog/logging.h"
#include "ir/graph.h"
#include "ir/node.h"

namespace onnx_opt::ir {

Value::~Value() = default;

bool Value::is_graph_output() const {
  if (graph_output_uses_ == 0) return false;
  return std::any_of(uses_.begin(), uses_.end(),
                     [this](const Use& u) { return u.is_graph_output() && u.graph == graph_; });
}

namespace {
// Below this many uses a linear search is as fast as hashing and keeps insertion order exactly.
constexpr size_t kIndexedUses = 16;
}  // namespace

uint32_t& Value::UsePosition(const Use& use) {
  return use.is_graph_output() ? use.graph->output_use_positions_[use.index]
                               : use.node->input_use_positions_[use.index];
}

void Value::AddUse(const Use& use) {
  graph_output_uses_ += use.is_graph_output();
  uses_.push_back(use);
  CHECK_LE(uses_.size(), size_t{UINT32_MAX}) << "too many uses of value '" << name_ << "'";
  if (uses_indexed_) {
    UsePosition(use) = static_cast<uint32_t>(uses_.size() - 1);
  } else if (uses_.size() > kIndexedUses) {
    uses_indexed_ = true;
    for (size_t i = 0; i < uses_.size(); ++i) UsePosition(uses_[i]) = static_cast<uint32_t>(i);
  }
}

size_t Value::PositionOf(const Use& use) const {
  const size_t pos =
      uses_indexed_
          ? size_t{UsePosition(use)}
          : static_cast<size_t>(std::find(uses_.begin(), uses_.end(), use) - uses_.begin());
  CHECK(pos < uses_.size() && uses_[pos] == use)
      << "use-def chain broken for value '" << name_ << "'";
  return pos;
}

void Value::RemoveUse(const Use& use) {
  graph_output_uses_ -= use.is_graph_output();
  const size_t pos = PositionOf(use);
  if (!uses_indexed_) {
    uses_.erase(uses_.begin() + pos);  // few uses: keep their order
    return;
  }
  if (pos + 1 != uses_.size()) {
    uses_[pos] = uses_.back();
    UsePosition(uses_[pos]) = static_cast<uint32_t>(pos);
  }
  uses_.pop_back();
  if (uses_.empty()) uses_indexed_ = false;
}

void Value::RenumberUse(const Use& from, size_t new_index) {
  // The caller moves the position along with the use (it renumbers its own inputs or outputs).
  uses_[PositionOf(from)].index = new_index;
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
