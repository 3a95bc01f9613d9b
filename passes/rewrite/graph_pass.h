// The driver for passes that look at a whole graph at once (dead nodes, common
// subexpressions, folding, initializer clean-ups): rewrites a local pattern
// cannot express, because they need every node's position or a table over the
// whole graph. Like PatternPass, a GraphPass owns the walk over the model's
// graphs (outer before inner), the opset gate, counting rewrites and releasing
// erased nodes, and its name is written once:
//
//   class EliminateDeadNodes final : public GraphPass {
//    public:
//     static constexpr char kName[] = "dead-nodes";
//     EliminateDeadNodes() : GraphPass(kName) {}
//     absl::StatusOr<int64_t> RunOnGraph(ir::Graph& g, GraphRun& run) override;
//   };
//   REGISTER_PASS(EliminateDeadNodes, EliminateDeadNodes::kName, "remove nodes
//   whose outputs are unused");
#ifndef ONNX_OPT_PASSES_REWRITE_GRAPH_PASS_H_
#define ONNX_OPT_PASSES_REWRITE_GRAPH_PASS_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "ir/graph.h"
#include "ir/model.h"
#include "ir/name_generator.h"
#include "optimizer/pass.h"

namespace onnx_opt::passes::rewrite {

// Which graphs a GraphPass visits.
enum class GraphScope {
  // The main graph, the graphs nested in its nodes' attributes, and every
  // function body.
  kEveryGraph,
  // The main graph and its nested graphs, not function bodies: their nodes
  // follow the function's own
  // opset imports and may take attributes from the caller, which a pass that
  // evaluates or types
  // nodes cannot know.
  kMainGraphTree,
};

// What one run of a GraphPass shares across the graphs it visits.
struct GraphRun {
  ir::Model& model;
  optimizer::PassContext& ctx;
  int64_t opset;            // of ai.onnx; 0 when the model does not import it
  ir::NameGenerator names;  // fresh names, unique across the whole model
};

class GraphPass : public optimizer::Pass {
 public:
  // `name` is the name the pass is registered under. Below `min_opset` of
  // ai.onnx the pass does nothing (1: the model must import ai.onnx at all).
  explicit GraphPass(std::string_view name, GraphScope scope = GraphScope::kEveryGraph,
                     int64_t min_opset = 0)
      : name_(name), scope_(scope), min_opset_(min_opset) {}

  std::string_view name() const final { return name_; }
  absl::StatusOr<bool> Run(ir::Model& model, optimizer::PassContext& ctx) final;

 protected:
  // Work on the model before any graph is visited (model-wide state, rewrites
  // outside graphs); returns how many rewrites it made.
  virtual absl::StatusOr<int64_t> BeginRun(GraphRun&) { return 0; }
  // Rewrites `graph`; returns how many rewrites it made. Nodes it erased are
  // released afterwards.
  virtual absl::StatusOr<int64_t> RunOnGraph(ir::Graph& graph, GraphRun& run) = 0;
  // After the last graph: drops what BeginRun set up.
  virtual void EndRun() {}

 private:
  std::string name_;
  GraphScope scope_;
  int64_t min_opset_;
};

}  // namespace onnx_opt::passes::rewrite

#endif  // ONNX_OPT_PASSES_REWRITE_GRAPH_PASS_H_
