#include "ir/topological_sort.h"

#include "gtest/gtest.h"
#include "ir/captures.h"

namespace onnx_opt::ir {
namespace {

std::vector<std::string> Ops(const Graph& g) {
  std::vector<std::string> out;
  for (Node* n : g.nodes()) out.push_back(n->output(0)->name());
  return out;
}

TEST(TopologicalSortTest, SortedGraphKeepsItsOrder) {
  Graph g;
  Value* x = g.AddInput("X");
  Node* a = g.AddNode("Relu", {x}, {"a"});
  Node* b = g.AddNode("Neg", {x}, {"b"});
  g.AddNode("Add", {a->output(0), b->output(0)}, {"c"});
  ASSERT_TRUE(TopologicalSort(g).ok());
  EXPECT_EQ(Ops(g), (std::vector<std::string>{"a", "b", "c"}));
}

TEST(TopologicalSortTest, ReordersUsersAfterProducers) {
  Graph g;
  Value* x = g.AddInput("X");
  // Build c = Add(a, b) first, then move the producers after it.
  Node* a = g.AddNode("Relu", {x}, {"a"});
  Node* b = g.AddNode("Neg", {x}, {"b"});
  Node* c = g.AddNode("Add", {a->output(0), b->output(0)}, {"c"});
  g.MoveBefore(c, a);
  g.MoveBefore(b, a);
  EXPECT_EQ(Ops(g), (std::vector<std::string>{"c", "b", "a"}));
  ASSERT_TRUE(TopologicalSort(g).ok());
  EXPECT_EQ(Ops(g), (std::vector<std::string>{"b", "a", "c"}));
}

TEST(TopologicalSortTest, CycleIsReportedWithANodeOnIt) {
  Graph g("cyclic");
  Value* x = g.AddInput("X");
  Node* a = g.AddNode("Add", {x, nullptr}, {"a"});
  Node* b = g.AddNode("Relu", {a->output(0)}, {"b"});
  a->SetInput(1, b->output(0));
  g.AddNode("Neg", {x}, {"unrelated"});
  absl::StatusOr<std::vector<Node*>> order = TopologicalOrder(g);
  ASSERT_FALSE(order.ok());
  const std::string msg(order.status().message());
  EXPECT_NE(msg.find("cycle"), std::string::npos) << msg;
  EXPECT_TRUE(msg.find("'a'") != std::string::npos || msg.find("'b'") != std::string::npos) << msg;
  // Break the cycle so the graph can be destroyed.
  a->SetInput(1, x);
}

TEST(TopologicalSortTest, SubgraphCapturesCountAsDependencies) {
  Graph g;
  Value* x = g.AddInput("X");
  Value* cond = g.AddInput("C");
  Node* if_node = g.AddNode("If", {cond}, {"y"});
  Node* producer = g.AddNode("Relu", {x}, {"r"});
  auto branch = std::make_unique<Graph>("then");
  branch->AddOutput(producer->output(0));
  if_node->SetAttribute(Attribute::FromGraph("then_branch", std::move(branch)));
  EXPECT_EQ(CapturedValues(*if_node->subgraphs()[0]), std::vector<Value*>{producer->output(0)});
  ASSERT_TRUE(TopologicalSort(g).ok());
  EXPECT_EQ(Ops(g), (std::vector<std::string>{"r", "y"}));
}

}  // namespace
}  // namespace onnx_opt::ir
