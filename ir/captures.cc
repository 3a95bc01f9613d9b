#include "ir/captures.h"

#include "absl/container/flat_hash_set.h"

namespace onnx_opt::ir {

std::vector<Value*> CapturedValues(const Graph& graph) {
  std::vector<Value*> out;
  absl::flat_hash_set<Value*> seen;
  auto consider = [&](Value* v) {
    if (v != nullptr && v->graph() != nullptr && !v->graph()->IsWithin(&graph) &&
        seen.insert(v).second) {
      out.push_back(v);
    }
  };
  // Values defined in a nested graph are "within" `graph`, so only true outer values are kept.
  std::vector<const Graph*> stack = {&graph};
  while (!stack.empty()) {
    const Graph* g = stack.back();
    stack.pop_back();
    for (Node* node : g->nodes()) {
      for (Value* v : node->inputs()) consider(v);
      std::vector<Graph*> subs = node->subgraphs();
      for (auto it = subs.rbegin(); it != subs.rend(); ++it) stack.push_back(*it);
    }
    for (Value* v : g->outputs()) consider(v);
  }
  return out;
}

}  // namespace onnx_opt::ir
