#include "ir/value.h"

#include <algorithm>

#include "glog/logging.h"
#include "ir/graph.h"
#include "ir/node.h"

namespace onnx_opt::ir {

Value::~Value() = default;

bool Value::is_graph_output() const {
  return std::any_of(uses_.begin(), uses_.end(), [this](const Use& u) {
    return u.is_graph_output() && u.graph == graph_;
  });
}

void Value::RemoveUse(const Use& use) {
  auto it = std::find(uses_.begin(), uses_.end(), use);
  CHECK(it != uses_.end()) << "use-def chain broken for value '" << name_ << "'";
  uses_.erase(it);
}

void Value::RenumberUse(const Use& from, size_t new_index) {
  auto it = std::find(uses_.begin(), uses_.end(), from);
  CHECK(it != uses_.end()) << "use-def chain broken for value '" << name_ << "'";
  it->index = new_index;
}

void Value::ReplaceAllUsesWith(Value* other) {
  if (other == this) return;
  // Copy: SetInput/SetOutput edit uses_ while we walk.
  const std::vector<Use> uses = uses_;
  for (const Use& u : uses) {
    if (u.is_graph_output()) {
      u.graph->SetOutput(u.index, other);
    } else {
      u.node->SetInput(u.index, other);
    }
  }
}

}  // namespace onnx_opt::ir
