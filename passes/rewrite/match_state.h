// What one attempt to match a pattern has found so far, and how to take back a failed branch.
#ifndef ONNX_OPT_PASSES_REWRITE_MATCH_STATE_H_
#define ONNX_OPT_PASSES_REWRITE_MATCH_STATE_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "ir/graph.h"
#include "ir/node.h"
#include "passes/rewrite/captures.h"

namespace onnx_opt::passes::rewrite {

class MatchState {
 public:
  MatchState(const ir::Graph& graph, int64_t opset) : graph_(&graph), opset_(opset) {}

  // The graph the pattern must stay in (operands produced in enclosing graphs do not match).
  const ir::Graph& graph() const { return *graph_; }
  int64_t opset() const { return opset_; }

  // Nodes matched by Op() patterns, each before the nodes producing its inputs (users first).
  const std::vector<ir::Node*>& matched() const { return matched_; }
  void AddMatched(ir::Node* n) { matched_.push_back(n); }

  // Binds `slot` in the captures, remembering the old binding so a failed branch can restore it.
  template <typename T>
  void Bind(const Slot<T>& slot, T value) {
    undo_.push_back({&slot, captures_.Find(&slot)});
    captures_.Set(&slot, Captures::Bound(value));
  }
  // What the slots are bound to so far.
  const Captures& captures() const { return captures_; }

  // A point to roll back to: commutative operands and alternatives try one branch after another.
  struct Mark {
    size_t undo;
    size_t matched;
  };
  Mark GetMark() const { return {undo_.size(), matched_.size()}; }
  void Rollback(Mark mark);
  // Forgets every match, keeping the memory: the driver reuses one state for all candidates.
  void Clear() {
    matched_.clear();
    captures_.Clear();
    undo_.clear();
  }

 private:
  const ir::Graph* graph_;
  int64_t opset_;
  std::vector<ir::Node*> matched_;
  Captures captures_;
  // A binding to restore: the slot and what it was bound to before (nothing: unbound).
  struct Undo {
    const void* slot;
    std::optional<Captures::Bound> old;
  };
  std::vector<Undo> undo_;
};

}  // namespace onnx_opt::passes::rewrite

#endif  // ONNX_OPT_PASSES_REWRITE_MATCH_STATE_H_
