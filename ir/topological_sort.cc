#include "ir/topological_sort.h"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/strong_components.hpp>
#include <functional>
#include <optional>
#include <queue>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "ir/captures.h"
#include "ir/status_macros.h"

namespace onnx_opt::ir {
namespace {

using DependencyGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;

// Edges producer -> user between nodes of `graph`, by position in the node list.
struct Dependencies {
  std::vector<Node*> nodes;
  DependencyGraph edges;
};

Dependencies BuildDependencies(const Graph& graph) {
  Dependencies deps;
  absl::flat_hash_map<const Node*, size_t> position;
  for (Node* n : graph.nodes()) {
    position[n] = deps.nodes.size();
    deps.nodes.push_back(n);
  }
  deps.edges = DependencyGraph(deps.nodes.size());
  auto add_edge_from = [&](Value* v, size_t user) {
    if (v == nullptr || v->producer() == nullptr) return;
    auto it = position.find(v->producer());
    if (it != position.end()) boost::add_edge(it->second, user, deps.edges);
  };
  for (size_t i = 0; i < deps.nodes.size(); ++i) {
    Node* n = deps.nodes[i];
    for (Value* v : n->inputs()) add_edge_from(v, i);
    for (Graph* sub : n->subgraphs()) {
      for (Value* v : CapturedValues(*sub)) add_edge_from(v, i);
    }
  }
  return deps;
}

// A node on a cycle, found as a strongly connected component with more than one node or a
// self-loop.
Node* FindNodeOnCycle(const Dependencies& deps) {
  std::vector<int> component(deps.nodes.size());
  boost::strong_components(deps.edges, component.data());
  std::vector<int> size(deps.nodes.size(), 0);
  for (int c : component) ++size[c];
  for (size_t i = 0; i < deps.nodes.size(); ++i) {
    if (size[component[i]] > 1) return deps.nodes[i];
    for (auto [e, end] = boost::out_edges(i, deps.edges); e != end; ++e) {
      if (boost::target(*e, deps.edges) == i) return deps.nodes[i];
    }
  }
  return nullptr;
}

// The node list itself when it is already in topological order, as it nearly always is between
// passes: one walk instead of building the dependency graph. nullopt when some node comes before a
// producer it needs (the general algorithm then sorts it, or names the cycle).
std::optional<std::vector<Node*>> OrderIfSorted(const Graph& graph) {
  const uint64_t done = NewWalkStamp();
  std::vector<Node*> order;
  order.reserve(graph.num_nodes());
  auto available = [&](const Value* v) {
    return v == nullptr || v->producer() == nullptr || v->producer()->graph() != &graph ||
           v->producer()->walk_stamp() == done;
  };
  for (Node* n : graph.nodes()) {
    for (const Value* v : n->inputs()) {
      if (!available(v)) return std::nullopt;
    }
    for (Graph* sub : n->subgraphs()) {
      for (const Value* v : CapturedValues(*sub)) {
        if (!available(v)) return std::nullopt;
      }
    }
    n->set_walk_stamp(done);
    order.push_back(n);
  }
  return order;
}

}  // namespace

absl::StatusOr<std::vector<Node*>> TopologicalOrder(const Graph& graph) {
  // Kahn's algorithm below keeps a sorted list as it is, so this gives the same order.
  if (std::optional<std::vector<Node*>> order = OrderIfSorted(graph)) return *std::move(order);
  Dependencies deps = BuildDependencies(graph);
  const size_t n = deps.nodes.size();
  std::vector<size_t> pending(n, 0);
  for (size_t i = 0; i < n; ++i) {
    for (auto [e, end] = boost::out_edges(i, deps.edges); e != end; ++e) {
      ++pending[boost::target(*e, deps.edges)];
    }
  }
  // Kahn's algorithm, always taking the earliest ready node so that sorted graphs stay as they are.
  std::priority_queue<size_t, std::vector<size_t>, std::greater<size_t>> ready;
  for (size_t i = 0; i < n; ++i) {
    if (pending[i] == 0) ready.push(i);
  }
  std::vector<Node*> order;
  order.reserve(n);
  while (!ready.empty()) {
    const size_t i = ready.top();
    ready.pop();
    order.push_back(deps.nodes[i]);
    for (auto [e, end] = boost::out_edges(i, deps.edges); e != end; ++e) {
      const size_t t = boost::target(*e, deps.edges);
      if (--pending[t] == 0) ready.push(t);
    }
  }
  if (order.size() != n) {
    Node* on_cycle = FindNodeOnCycle(deps);
    return absl::InvalidArgumentError(
        absl::StrCat("graph '", graph.name(), "' has a cycle through ",
                     on_cycle != nullptr ? on_cycle->Describe() : std::string("an unknown node")));
  }
  return order;
}

absl::Status TopologicalSort(Graph& graph) {
  ASSIGN_OR_RETURN(std::vector<Node*> order, TopologicalOrder(graph));
  graph.Reorder(order);
  for (Node* node : graph.nodes()) {
    for (Graph* sub : node->subgraphs()) {
      RETURN_IF_ERROR(TopologicalSort(*sub));
    }
  }
  return absl::OkStatus();
}

}  // namespace onnx_opt::ir
