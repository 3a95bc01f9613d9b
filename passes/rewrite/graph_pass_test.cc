// The GraphPass driver: which graphs it visits, the opset gate, counting, releasing erased nodes,
// and that a failing graph stops the run but still ends it.
#include "passes/rewrite/graph_pass.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "ir/status_macros.h"
#include "ir/text/parser.h"

namespace onnx_opt::passes::rewrite {
namespace {

// Erases every Neg whose output is unused, and records the graphs it was shown.
class EraseUnusedNeg final : public GraphPass {
 public:
  EraseUnusedNeg(GraphScope scope, int64_t min_opset)
      : GraphPass("erase-unused-neg", scope, min_opset) {}

  std::vector<std::string> visited;
  int begun = 0, ended = 0;
  bool fail_on_subgraph = false;

 protected:
  absl::StatusOr<int64_t> BeginRun(GraphRun&) override {
    ++begun;
    return 0;
  }
  void EndRun() override { ++ended; }
  absl::StatusOr<int64_t> RunOnGraph(ir::Graph& g, GraphRun&) override {
    visited.push_back(g.name());
    if (fail_on_subgraph && g.name() == "then") return absl::InvalidArgumentError("refused");
    int64_t erased = 0;
    for (ir::Node* n : g.nodes()) {
      if (n->op_type() == "Neg" && !n->output(0)->has_uses()) {
        RETURN_IF_ERROR(g.Erase(n));
        ++erased;
      }
    }
    return erased;
  }
};

constexpr char kModel[] = R"(
  <ir_version: 8, opset_import: ["" : 17, "local" : 1]>
  main (bool C, float[4] X) => (float[4] Y) {
    A = Neg(X)
    T = local.f(X)
    Y = If(C) <
      then_branch = then () => (float[4] P) { B = Neg(X)  P = Relu(T) },
      else_branch = else () => (float[4] Q) { Q = Abs(X) }>
  }
  <domain: "local", opset_import: ["" : 17]>
  f (x) => (y) { z = Neg(x)  y = Abs(x) }
)";

class GraphPassTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<std::unique_ptr<ir::Model>> parsed = ir::text::ParseModel(kModel);
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    model = std::move(*parsed);
  }
  std::unique_ptr<ir::Model> model;
};

TEST_F(GraphPassTest, VisitsEveryGraphOuterFirstAndCounts) {
  EraseUnusedNeg pass(GraphScope::kEveryGraph, 0);
  optimizer::PassContext ctx;
  absl::StatusOr<bool> changed = pass.Run(*model, ctx);
  ASSERT_TRUE(changed.ok()) << changed.status();
  EXPECT_TRUE(*changed);
  // A function body is a graph without a name of its own.
  EXPECT_EQ(pass.visited, (std::vector<std::string>{"main", "then", "else", ""}));
  EXPECT_EQ(ctx.rewrites(), 3);
  EXPECT_EQ(model->graph().num_nodes(), 2u);
  EXPECT_EQ(model->functions()[0]->body().num_nodes(), 1u);
  EXPECT_EQ(pass.begun, 1);
  EXPECT_EQ(pass.ended, 1);
}

TEST_F(GraphPassTest, MainGraphTreeLeavesFunctionBodies) {
  EraseUnusedNeg pass(GraphScope::kMainGraphTree, 0);
  optimizer::PassContext ctx;
  ASSERT_TRUE(pass.Run(*model, ctx).ok());
  EXPECT_EQ(pass.visited, (std::vector<std::string>{"main", "then", "else"}));
  EXPECT_EQ(ctx.rewrites(), 2);
  EXPECT_EQ(model->functions()[0]->body().num_nodes(), 2u);
}

TEST_F(GraphPassTest, OpsetGate) {
  EraseUnusedNeg pass(GraphScope::kEveryGraph, 18);
  optimizer::PassContext ctx;
  absl::StatusOr<bool> changed = pass.Run(*model, ctx);
  ASSERT_TRUE(changed.ok());
  EXPECT_FALSE(*changed);
  EXPECT_TRUE(pass.visited.empty());
  EXPECT_EQ(pass.begun, 0);
  EXPECT_EQ(model->graph().num_nodes(), 3u);
}

TEST_F(GraphPassTest, AnErrorStopsTheWalkAndStillEndsTheRun) {
  EraseUnusedNeg pass(GraphScope::kEveryGraph, 0);
  pass.fail_on_subgraph = true;
  optimizer::PassContext ctx;
  absl::StatusOr<bool> changed = pass.Run(*model, ctx);
  ASSERT_FALSE(changed.ok());
  EXPECT_EQ(changed.status().message(), "refused");
  EXPECT_EQ(pass.visited, (std::vector<std::string>{"main", "then"}));
  EXPECT_EQ(pass.ended, 1);
}

}  // namespace
}  // namespace onnx_opt::passes::rewrite
