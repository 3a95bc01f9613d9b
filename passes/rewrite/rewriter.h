// The one place where a pass changes a graph's nodes: a pattern's replacement is built and the
// matched nodes go (insert, forward the old result to the new one, undoing the insert when that is
// impossible, erase what is dead), and in-place edits (an input set, a node inserted or erased, a
// value forwarded, an attribute or op type changed, an output added or dropped) are made. Every
// change records the nodes it touched, which the driver revisits; a pass edits nodes in a graph
// only through a Rewriter (a node it has built and not inserted yet is its own to set up).
#ifndef ONNX_OPT_PASSES_REWRITE_REWRITER_H_
#define ONNX_OPT_PASSES_REWRITE_REWRITER_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "ir/attribute.h"
#include "ir/graph.h"
#include "ir/name_generator.h"
#include "ir/node.h"
#include "ir/tensor.h"
#include "ir/value.h"
#include "passes/rewrite/match_state.h"
#include "passes/rewrite/value_pattern.h"

namespace onnx_opt::passes::rewrite {

// What a rewriter does with the nodes its edits touch: records them for the PatternPass driver's
// worklist, or not (a GraphPass walks its whole graph itself, and recording cost dead-nodes a few
// percent on large graphs).
enum class TouchedNodes { kRecord, kIgnore };

class Rewriter {
 public:
  Rewriter(ir::Graph& graph, int64_t opset, ir::NameGenerator& names,
           TouchedNodes touched = TouchedNodes::kRecord)
      : graph_(graph),
        names_(names),
        state_(graph, opset),
        record_(touched == TouchedNodes::kRecord) {}

  ir::Graph& graph() { return graph_; }
  int64_t opset() const { return state_.opset(); }
  ir::NameGenerator& names() { return names_; }

  // Matches `pattern` against `v`: the captures of the match (with those of earlier matches through
  // this rewriter), or null when it does not match. The nodes it matched are erased by the Replace*
  // calls below once they are dead.
  const Captures* Match(const ValuePattern& pattern, ir::Value* v) {
    return pattern.Matches(v, state_) ? &state_.captures() : nullptr;
  }
  // Adds a node found outside a pattern (e.g. a user followed downstream) to those erased when
  // dead.
  void Track(ir::Node* n) { state_.AddMatched(n); }

  // Replaces single-output `old` by a new ai.onnx `op` node over `inputs` (placed before `old`)
  // that takes over its result (name when it is a graph output, and type), then erases `old` and
  // every matched node left dead. Returns the new node (its output named `old`'s + `name_suffix`,
  // "_op" by default) for the caller to set attributes on, or null, changing nothing, when the
  // result cannot be taken over (see ForwardUses).
  absl::StatusOr<ir::Node*> ReplaceWithNode(ir::Node& old, const std::string& op,
                                            const std::vector<ir::Value*>& inputs,
                                            std::string_view name_suffix = "");
  // Makes every use of `old`'s first output use `value` instead, then erases `old` and every
  // matched node left dead except `value`'s producer (the replacement, even when `old` had no
  // users). False, changing nothing, when `value` cannot take `old`'s place.
  absl::StatusOr<bool> ReplaceWithValue(ir::Node& old, ir::Value* value);
  // Erases the matched nodes other than `keep` whose outputs nothing uses any more.
  absl::Status EraseDeadMatched(const ir::Node* keep = nullptr);
  // Erases `n` when none of its outputs is used; says whether it did.
  absl::StatusOr<bool> EraseIfDead(ir::Node& n);

  // A new initializer holding `tensor`, named freshly after `base`.
  ir::Value* AddInitializer(ir::Tensor tensor, std::string_view base);

  // In-place edits, each recording what it touched (see touched()).
  // Sets input `i` of `n` to `v` (null: omitted).
  void ReplaceInput(ir::Node& n, size_t i, ir::Value* v);
  // Appends `v` to `n`'s inputs.
  void AddInput(ir::Node& n, ir::Value* v);
  // Leaves `n` without inputs.
  void RemoveAllInputs(ir::Node& n);
  // Inserts `node` before `pos` (in `pos`'s graph, which is this rewriter's) and returns it.
  ir::Node* InsertNodeBefore(ir::Node& pos, std::unique_ptr<ir::Node> node);
  // Puts `node` first in the graph and returns it.
  ir::Node* InsertFirst(std::unique_ptr<ir::Node> node);
  // A new ai.onnx `op` node over `inputs` with one output named `output`, inserted before `pos`.
  ir::Node* InsertOpBefore(ir::Node& pos, const std::string& op,
                           const std::vector<ir::Value*>& inputs, const std::string& output);
  // Makes every use of `from` use `to` (ir::ForwardValue: a graph output keeps its name); false,
  // changing nothing, when impossible.
  bool ForwardUses(ir::Value* from, ir::Value* to);
  // ir::Value::ReplaceAllUsesWith: every use of `from`, graph outputs included, becomes a use of
  // `to`.
  void ReplaceAllUsesWith(ir::Value* from, ir::Value* to);
  // Erases `n`, whose outputs must be unused.
  absl::Status EraseNode(ir::Node& n);

  // In-place changes to a node that keep its inputs: `n` and its users are revisited (a user's
  // pattern may read its producer's attributes or op type).
  // Sets (or replaces) attribute `attr` of `n`.
  void SetAttribute(ir::Node& n, ir::Attribute attr);
  // Makes `n` an `op_type` node of its domain (its attributes stay; the caller sets what differs).
  void ChangeOpType(ir::Node& n, std::string op_type);
  // Appends an output named `name` to `n` and returns it.
  ir::Value* AddOutput(ir::Node& n, std::string name);
  // Drops `n`'s last output, which must be unused.
  absl::Status RemoveLastOutput(ir::Node& n);
  // Any other change `edit` makes to `n` itself (not to its inputs, nor to other nodes), notified
  // as the ones above.
  template <typename Edit>
  void ModifyInPlace(ir::Node& n, Edit&& edit) {
    edit(n);
    TouchWithUsers(&n);
  }
  // Removes graph input `input` (see ir::Graph::RemoveInput: one with an initializer stays as a
  // constant, and its users are revisited).
  absl::Status RemoveGraphInput(ir::Value* input);

  // The nodes the edits so far touched (new nodes, nodes whose inputs or attributes changed, users
  // of forwarded values and of changed nodes; for a value that lost a use and has at most one
  // left, its producer and that one user), in the order touched, with repeats; some may be erased
  // since. A value gaining uses sends nobody round: more uses match fewer patterns. Empty with
  // TouchedNodes::kIgnore.
  const std::vector<ir::Node*>& touched() const { return touched_; }

  // Forgets the matches and touched nodes so far, keeping their memory: the driver reuses one
  // rewriter for every candidate of a graph, so that a failed match allocates nothing.
  void Clear() {
    state_.Clear();
    touched_.clear();
  }
  // For the driver: the node its first sweep is at (null after the sweep). That sweep visits every
  // node after it, so the users of its outputs are not recorded.
  void set_swept(const ir::Node* n) { swept_ = n; }

 private:
  void Touch(ir::Node* n);
  // `n` and the users of its outputs.
  void TouchWithUsers(ir::Node* n);
  // The nodes using `v` (graph outputs are not nodes).
  void TouchUsers(const ir::Value& v);
  // After `v` lost a use: with one use or none left, its producer and its one user may match now.
  void TouchLostUse(const ir::Value* v);

  ir::Graph& graph_;
  ir::NameGenerator& names_;
  MatchState state_;
  bool record_;
  const ir::Node* swept_ = nullptr;
  std::vector<ir::Node*> touched_;
};

// For a pattern's result: 1 rewrite when `replaced` is a node (ReplaceWithNode took over), 0 when
// it is null, the error as is.
absl::StatusOr<int64_t> OneIfReplaced(const absl::StatusOr<ir::Node*>& replaced);
absl::StatusOr<int64_t> OneIfReplaced(const absl::StatusOr<bool>& replaced);

}  // namespace onnx_opt::passes::rewrite

#endif  // ONNX_OPT_PASSES_REWRITE_REWRITER_H_
