// cse: when two deterministic nodes compute the same op on the same inputs with the same attributes,
// the later one's outputs are replaced by the earlier one's.
#include "absl/container/flat_hash_set.h"
#include "optimizer/pass_registry.h"
#include "passes/forward_value.h"
#include "passes/graph_walk.h"
#include "passes/node_key.h"
#include "passes/op_traits.h"

namespace onnx_opt::passes {
namespace {

class CommonSubexpressionElimination final : public optimizer::Pass {
 public:
  std::string_view name() const override { return "cse"; }

  absl::StatusOr<bool> Run(ir::Model& model, optimizer::PassContext& ctx) override {
    return ForEachGraphOuterFirst(model, [&](ir::Graph& g) -> absl::StatusOr<bool> {
      absl::flat_hash_set<Seen, SeenHash, SeenEq> seen;
      seen.reserve(g.num_nodes());  // one allocation instead of a rehash at every doubling
      bool changed = false;
      for (ir::Node* n : g.nodes()) {
        // Only ops whose meaning we know; function calls are left alone (their bodies may be random).
        if (!(n->is_onnx_domain() || n->domain() == "ai.onnx.ml") || IsNondeterministic(*n)) continue;
        std::optional<size_t> hash = NodeHash(*n);
        if (!hash.has_value()) continue;
        auto [it, inserted] = seen.insert(Seen{*hash, n});
        if (inserted) continue;
        ir::Node* first = it->node;
        if (!Merge(first, n)) continue;
        if (absl::Status s = g.Erase(n); !s.ok()) return s;
        ctx.CountRewrite();
        changed = true;
      }
      g.ReleaseErased();
      return changed;
    });
  }

 private:
  // A node met earlier in the walk, with its hash (computed once: the set rehashes as it grows).
  struct Seen {
    size_t hash;
    ir::Node* node;
  };
  struct SeenHash {
    size_t operator()(const Seen& s) const { return s.hash; }
  };
  struct SeenEq {
    bool operator()(const Seen& a, const Seen& b) const {
      return a.hash == b.hash && ComputeSame(*a.node, *b.node);
    }
  };

  // Moves every use of `dup`'s outputs to `first`'s. All or nothing.
  static bool Merge(ir::Node* first, ir::Node* dup) {
    for (size_t i = 0; i < dup->num_outputs(); ++i) {
      ir::Value* a = first->output(i);
      ir::Value* b = dup->output(i);
      if (b->has_uses() && a->is_omitted()) return false;
      if (b->is_graph_output() && a->is_graph_output()) return false;
    }
    for (size_t i = 0; i < dup->num_outputs(); ++i) {
      ir::Value* b = dup->output(i);
      if (b->has_uses() && !ForwardValue(b, first->output(i))) {
        // Only possible for graph outputs, which were screened above.
        return false;
      }
    }
    return true;
  }
};

}  // namespace

REGISTER_PASS(CommonSubexpressionElimination, "cse", "merge nodes that compute the same thing");

}  // namespace onnx_opt::passes
