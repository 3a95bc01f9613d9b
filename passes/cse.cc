// cse: when two deterministic nodes compute the same op on the same inputs with the same
// attributes, the later one's outputs are replaced by the earlier one's.
#include "absl/container/flat_hash_set.h"
#include "ir/node.h"
#include "ir/status_macros.h"
#include "optimizer/pass_registry.h"
#include "passes/node_key.h"
#include "passes/rewrite/graph_pass.h"
#include "passes/rewrite/rewriter.h"
#include "schema/nondeterministic.h"

namespace onnx_opt::passes {
namespace {

class CommonSubexpressionElimination final : public rewrite::GraphPass {
 public:
  static constexpr char kName[] = "cse";
  CommonSubexpressionElimination() : GraphPass(kName) {}

  absl::StatusOr<int64_t> RunOnGraph(ir::Graph& g, rewrite::GraphRun& run) override {
    rewrite::Rewriter rw(g, run.opset, run.names, rewrite::TouchedNodes::kIgnore);
    // An earlier node computing the same thing reads the same inputs, so it is among the users
    // of n's least used input: looking there touches only n's neighbourhood. Nodes without inputs,
    // or whose inputs all have many users (shared constants), go through a hash set instead.
    absl::flat_hash_set<Seen, SeenHash, SeenEq> seen;
    const uint64_t visited = ir::NewWalkStamp();
    int64_t merged = 0;
    for (ir::Node* n : g.nodes()) {
      // Only ops whose meaning we know; function calls are left alone (their bodies may be random).
      if (!(n->is_onnx_domain() || n->domain() == "ai.onnx.ml") || schema::IsNondeterministic(*n))
        continue;
      if (!n->subgraphs().empty()) continue;
      n->set_walk_stamp(visited);
      ir::Node* first = nullptr;
      const ir::Value* fewest = LeastUsedInput(*n);
      if (fewest != nullptr && fewest->uses().size() <= kScanLimit) {
        for (const ir::Use& u : fewest->uses()) {
          ir::Node* m = u.node;
          if (m == nullptr || m == n || m->walk_stamp() != visited || m->graph() != &g) continue;
          if (ComputeSame(*m, *n) && Merge(rw, m, n)) {
            first = m;
            break;
          }
        }
      } else {
        std::optional<size_t> hash = NodeHash(*n);
        if (!hash.has_value()) continue;
        auto [it, inserted] = seen.insert(Seen{*hash, n});
        if (!inserted && Merge(rw, it->node, n)) first = it->node;
      }
      if (first == nullptr) continue;
      RETURN_IF_ERROR(rw.EraseNode(*n));
      ++merged;
    }
    return merged;
  }

 private:
  static constexpr size_t kScanLimit = 32;

  // The input with the fewest uses, or null for a node without inputs.
  static const ir::Value* LeastUsedInput(const ir::Node& n) {
    const ir::Value* best = nullptr;
    for (const ir::Value* v : n.inputs()) {
      if (v != nullptr && (best == nullptr || v->uses().size() < best->uses().size())) best = v;
    }
    return best;
  }

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
  static bool Merge(rewrite::Rewriter& rw, ir::Node* first, ir::Node* dup) {
    for (size_t i = 0; i < dup->num_outputs(); ++i) {
      ir::Value* a = first->output(i);
      ir::Value* b = dup->output(i);
      if (b->has_uses() && a->is_omitted()) return false;
      if (b->is_graph_output() && a->is_graph_output()) return false;
    }
    for (size_t i = 0; i < dup->num_outputs(); ++i) {
      ir::Value* b = dup->output(i);
      if (b->has_uses() && !rw.ForwardUses(b, first->output(i))) {
        // Only possible for graph outputs, which were screened above.
        return false;
      }
    }
    return true;
  }
};

}  // namespace

REGISTER_PASS(CommonSubexpressionElimination, CommonSubexpressionElimination::kName,
              "merge nodes that compute the same thing");

}  // namespace onnx_opt::passes
