#include "ir/verifier.h"

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/functional/function_ref.h"
#include "absl/strings/str_cat.h"
#include "ir/captures.h"
#include "ir/function.h"
#include "ir/status_macros.h"
#include "ir/topological_sort.h"

namespace onnx_opt::ir {
namespace {

std::string GraphLabel(const Graph& g) {
  if (g.owner_function() != nullptr)
    return absl::StrCat("function '", g.owner_function()->name(), "'");
  return absl::StrCat("graph '", g.name(), "'");
}

class GraphVerifier {
 public:
  absl::Status Run(const Graph& graph) { return VerifyScope(graph); }

 private:
  // `what` says what `v` is, for an error only (spelling it for every value was a fifth of the
  // verifier's time).
  absl::Status Define(const Graph& g, const Value* v, absl::FunctionRef<std::string()> what) {
    if (v->name().empty()) {
      if (v->producer() != nullptr) return absl::OkStatus();  // omitted optional output
      return absl::InvalidArgumentError(
          absl::StrCat(GraphLabel(g), ": ", what(), " has an empty name"));
    }
    if (names_.insert(v).second) {
      defined_.push_back(v);
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat(GraphLabel(g), ": '", v->name(), "' is defined more than once (", what(),
                       "); values must be in single static assignment form"));
    }
    return absl::OkStatus();
  }

  absl::Status CheckUses(const Graph& g, const Value* v) {
    checked_values_.push_back(v);
    for (const Use& u : v->uses()) {
      if (u.is_graph_output()) {
        if (u.index >= u.graph->outputs().size() || u.graph->outputs()[u.index] != v) {
          return absl::InternalError(absl::StrCat(GraphLabel(g), ": use list of '", v->name(),
                                                  "' names a graph output that does not use it"));
        }
      } else if (u.node->is_erased() || u.index >= u.node->num_inputs() ||
                 u.node->input(u.index) != v) {
        return absl::InternalError(absl::StrCat(GraphLabel(g), ": use list of '", v->name(),
                                                "' names ", u.node->Describe(), " input ", u.index,
                                                ", which does not use it"));
      }
    }
    return absl::OkStatus();
  }

  // Checks that input i of n is in scope, and counts the reference; the use lists are compared with
  // the counts at the end (a linear scan per input would be quadratic for shared constants).
  absl::Status CheckInput(const Graph& g, const Node* n, size_t i) {
    const Value* v = n->input(i);
    if (v == nullptr) return absl::OkStatus();
    ++references_[v];
    if (v->graph() == nullptr || !g.IsWithin(v->graph())) {
      return absl::InvalidArgumentError(absl::StrCat(GraphLabel(g), ": ", n->Describe(), " input '",
                                                     v->name(), "' is not defined in scope"));
    }
    return absl::OkStatus();
  }

  absl::Status VerifyScope(const Graph& g) {
    // Growing the sets value by value rehashed them ~10 times on a 750-node model.
    const size_t values = g.inputs().size() + g.initializers().size() +
                          g.sparse_initializers().size() + g.num_nodes();
    names_.reserve(names_.size() + values);
    references_.reserve(references_.size() + values);
    for (const Value* v : g.inputs()) {
      if (v->graph() != &g || !v->is_graph_input()) {
        return absl::InternalError(
            absl::StrCat(GraphLabel(g), ": input '", v->name(), "' is not owned by it"));
      }
      RETURN_IF_ERROR(Define(g, v, [] { return std::string("graph input"); }));
      RETURN_IF_ERROR(CheckUses(g, v));
    }
    for (const auto* list : {&g.initializers(), &g.sparse_initializers()}) {
      for (const Value* v : *list) {
        if (v->graph() != &g || !v->is_initializer()) {
          return absl::InternalError(
              absl::StrCat(GraphLabel(g), ": initializer '", v->name(), "' is not owned by it"));
        }
        if (!v->is_graph_input()) {
          RETURN_IF_ERROR(Define(g, v, [] { return std::string("initializer"); }));
        }
        RETURN_IF_ERROR(CheckUses(g, v));
      }
    }

    // Values of this graph's nodes may only be used after the node that produces them.
    absl::flat_hash_set<const Node*> done;
    done.reserve(g.num_nodes());
    size_t count = 0;
    size_t subgraph_holders = 0;
    absl::flat_hash_map<absl::string_view, int64_t> op_types;
    for (const Node* n : g.nodes()) {
      ++count;
      ++op_types[n->op_type()];
      if (n->may_have_subgraphs()) {
        ++subgraph_holders;
      } else if (!n->subgraphs().empty()) {
        return absl::InternalError(absl::StrCat(GraphLabel(g), ": ", n->Describe(),
                                                " holds a subgraph but says it does not"));
      }
      if (n->graph() != &g || n->is_erased()) {
        return absl::InternalError(
            absl::StrCat(GraphLabel(g), ": node list holds ", n->Describe(), " of another graph"));
      }
      auto defined_before = [&](const Value* v) {
        return v == nullptr || v->producer() == nullptr || v->producer()->graph() != &g ||
               done.contains(v->producer());
      };
      for (size_t i = 0; i < n->num_inputs(); ++i) {
        RETURN_IF_ERROR(CheckInput(g, n, i));
        if (!defined_before(n->input(i))) return OrderError(g, *n, *n->input(i));
      }
      for (Graph* sub : n->subgraphs()) {
        if (sub->parent_node() != n) {
          return absl::InternalError(absl::StrCat(GraphLabel(g), ": a subgraph of ", n->Describe(),
                                                  " does not know its parent"));
        }
        for (const Value* v : CapturedValues(*sub)) {
          if (!defined_before(v)) return OrderError(g, *n, *v);
        }
      }
      for (size_t i = 0; i < n->num_outputs(); ++i) {
        const Value* out = n->output(i);
        if (out->producer() != n || out->output_index() != i || out->graph() != &g) {
          return absl::InternalError(absl::StrCat(GraphLabel(g), ": output ", i, " of ",
                                                  n->Describe(), " does not point back to it"));
        }
        if (out->is_omitted() && out->has_uses()) {
          return absl::InvalidArgumentError(absl::StrCat(GraphLabel(g), ": omitted output ", i,
                                                         " of ", n->Describe(), " is used"));
        }
        RETURN_IF_ERROR(Define(g, out, [n] { return absl::StrCat("output of ", n->Describe()); }));
        RETURN_IF_ERROR(CheckUses(g, out));
      }
      done.insert(n);
      // Subgraphs see every name defined so far; their own names must not clash with any, but
      // sibling subgraphs (then/else branches) may reuse each other's names.
      for (Graph* sub : n->subgraphs()) {
        const size_t mark = defined_.size();
        RETURN_IF_ERROR(VerifyScope(*sub));
        while (defined_.size() > mark) {
          names_.erase(defined_.back());
          defined_.pop_back();
        }
      }
    }
    if (count != g.num_nodes()) {
      return absl::InternalError(absl::StrCat(GraphLabel(g), ": node count ", g.num_nodes(),
                                              " does not match the node list (", count, ")"));
    }
    for (const auto& [op, n] : op_types) {
      const int64_t counted = g.CountOpType(std::string_view(op.data(), op.size()));
      if (counted != n) {
        return absl::InternalError(absl::StrCat(GraphLabel(g), ": count of '", op, "' nodes ",
                                                counted, " does not match the node list (", n,
                                                ")"));
      }
    }
    if (subgraph_holders != g.num_subgraph_holders()) {
      return absl::InternalError(absl::StrCat(
          GraphLabel(g), ": count of nodes holding subgraphs ", g.num_subgraph_holders(),
          " does not match the node list (", subgraph_holders, ")"));
    }
    for (size_t i = 0; i < g.outputs().size(); ++i) {
      const Value* v = g.outputs()[i];
      if (v == nullptr) {
        return absl::InvalidArgumentError(
            absl::StrCat(GraphLabel(g), ": output ", i, " is not set"));
      }
      if (v->graph() == nullptr || !g.IsWithin(v->graph())) {
        return absl::InvalidArgumentError(
            absl::StrCat(GraphLabel(g), ": output '", v->name(), "' is not defined in scope"));
      }
    }
    return absl::OkStatus();
  }

  absl::Status OrderError(const Graph& g, const Node& user, const Value& v) {
    ASSIGN_OR_RETURN(std::vector<Node*> order, TopologicalOrder(g));
    return absl::InvalidArgumentError(absl::StrCat(GraphLabel(g), ": ", user.Describe(), " uses '",
                                                   v.name(),
                                                   "' before it is defined (nodes are not in "
                                                   "topological order)"));
  }

  // Values by name, hashed with the hash each value keeps of its name (ir/value.h).
  struct NameHash {
    size_t operator()(const Value* v) const { return v->name_hash(); }
  };
  struct NameEq {
    bool operator()(const Value* a, const Value* b) const { return a->name() == b->name(); }
  };
  absl::flat_hash_set<const Value*, NameHash, NameEq> names_;
  std::vector<const Value*> defined_;  // names_ in insertion order, to leave a subgraph's scope
  absl::flat_hash_map<const Value*, size_t> references_;  // node inputs naming each value
  std::vector<const Value*> checked_values_;

 public:
  // Every node input must appear in its value's use list: the lists hold only valid entries
  // (checked per value), so equal counts mean equal sets.
  absl::Status CheckReferenceCounts() {
    for (const Value* v : checked_values_) {
      size_t node_uses = 0;
      for (const Use& u : v->uses()) node_uses += !u.is_graph_output();
      auto it = references_.find(v);
      const size_t refs = it == references_.end() ? 0 : it->second;
      if (refs != node_uses) {
        return absl::InternalError(absl::StrCat("value '", v->name(), "' is an input of ", refs,
                                                " node input(s) but its use list has ", node_uses));
      }
    }
    return absl::OkStatus();
  }
};

}  // namespace

absl::Status VerifyGraph(const Graph& graph) {
  GraphVerifier verifier;
  RETURN_IF_ERROR(verifier.Run(graph));
  return verifier.CheckReferenceCounts();
}

absl::Status Verify(const Model& model) {
  RETURN_IF_ERROR(VerifyGraph(model.graph()));
  for (const auto& f : model.functions()) {
    RETURN_IF_ERROR(VerifyGraph(f->body()));
  }
  return absl::OkStatus();
}

}  // namespace onnx_opt::ir
