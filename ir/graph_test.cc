#include "ir/graph.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "ir/model.h"

namespace onnx_opt::ir {
namespace {

Type FloatVec() { return Type::Tensor(DataType::kFloat, Shape::FromSizes({4})); }

TEST(GraphTest, InputsUsesAndOutputsStayConsistent) {
  Graph g("g");
  Value* x = g.AddInput("X", FloatVec());
  Node* relu = g.AddNode("Relu", {x}, {"Y"});
  Node* neg = g.AddNode("Neg", {relu->output(0)}, {"Z"});
  g.AddOutput(neg->output(0));

  ASSERT_EQ(x->uses().size(), 1u);
  EXPECT_EQ(x->uses()[0].node, relu);
  EXPECT_EQ(x->uses()[0].index, 0u);
  EXPECT_EQ(relu->output(0)->producer(), relu);
  EXPECT_EQ(relu->output(0)->graph(), &g);
  EXPECT_TRUE(neg->output(0)->is_graph_output());
  ASSERT_EQ(neg->output(0)->uses().size(), 1u);
  EXPECT_TRUE(neg->output(0)->uses()[0].is_graph_output());

  // Rewiring an input moves the use from one value to the other.
  neg->SetInput(0, x);
  EXPECT_EQ(x->uses().size(), 2u);
  EXPECT_FALSE(relu->output(0)->has_uses());
}

TEST(GraphTest, EraseRefusesWhileOutputsAreUsed) {
  Graph g;
  Value* x = g.AddInput("X", FloatVec());
  Node* relu = g.AddNode("Relu", {x}, {"Y"});
  g.AddOutput(relu->output(0));
  absl::Status s = g.Erase(relu);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(std::string(s.message()).find("'Y' is still used"), std::string::npos) << s;
  EXPECT_EQ(g.num_nodes(), 1u);

  g.SetOutput(0, x);
  ASSERT_TRUE(g.Erase(relu).ok());
  EXPECT_EQ(g.num_nodes(), 0u);
  // The erased node let go of its input.
  ASSERT_EQ(x->uses().size(), 1u);
  EXPECT_TRUE(x->uses()[0].is_graph_output());
}

TEST(GraphTest, ReplaceAllUsesWithCoversNodesAndGraphOutputs) {
  Graph g;
  Value* x = g.AddInput("X", FloatVec());
  Node* id = g.AddNode("Identity", {x}, {"A"});
  Node* add = g.AddNode("Add", {id->output(0), id->output(0)}, {"B"});
  g.AddOutput(id->output(0));
  g.AddOutput(add->output(0));

  id->output(0)->ReplaceAllUsesWith(x);
  EXPECT_FALSE(id->output(0)->has_uses());
  EXPECT_EQ(add->input(0), x);
  EXPECT_EQ(add->input(1), x);
  EXPECT_EQ(g.outputs()[0], x);
  EXPECT_EQ(x->uses().size(), 4u);  // Identity, Add x2, graph output
  ASSERT_TRUE(g.Erase(id).ok());
}

TEST(GraphTest, WalkSurvivesErasingAndInsertingAroundTheCurrentNode) {
  Graph g;
  Value* v = g.AddInput("X", FloatVec());
  std::vector<Node*> created;
  for (int i = 0; i < 6; ++i) {
    Node* n = g.AddNode(i % 2 == 0 ? "Identity" : "Relu", {v}, {"v" + std::to_string(i)});
    created.push_back(n);
    v = n->output(0);
  }
  g.AddOutput(v);

  // Remove every Identity while walking; insert a Neg before each Relu.
  std::vector<std::string> visited;
  for (Node* n : g.nodes()) {
    visited.push_back(n->op_type());
    if (n->op_type() == "Identity") {
      n->output(0)->ReplaceAllUsesWith(n->input(0));
      ASSERT_TRUE(g.Erase(n).ok());
    } else if (n->op_type() == "Relu") {
      auto neg = Node::Create("", "Neg", {n->input(0)}, {n->output(0)->name() + "_neg"});
      Node* inserted = g.InsertBefore(n, std::move(neg));
      n->SetInput(0, inserted->output(0));
    }
  }
  EXPECT_EQ(visited,
            (std::vector<std::string>{"Identity", "Relu", "Identity", "Relu", "Identity", "Relu"}));
  std::vector<std::string> ops;
  for (Node* n : g.nodes()) ops.push_back(n->op_type());
  EXPECT_EQ(ops, (std::vector<std::string>{"Neg", "Relu", "Neg", "Relu", "Neg", "Relu"}));
  EXPECT_EQ(g.num_nodes(), 6u);
  g.ReleaseErased();
  EXPECT_EQ(g.num_nodes(), 6u);
}

TEST(GraphTest, LastToFirstWalkSurvivesErasingTheCurrentNode) {
  Graph g;
  Value* x = g.AddInput("X", FloatVec());
  // A chain of five, then two dead branches off its middle.
  Value* v = x;
  std::vector<Node*> chain;
  for (int i = 0; i < 5; ++i) {
    chain.push_back(g.AddNode("Relu", {v}, {"c" + std::to_string(i)}));
    v = chain.back()->output(0);
  }
  g.AddOutput(v);
  Node* dead_a = g.AddNode("Neg", {chain[2]->output(0)}, {"dead_a"});
  Node* dead_b = g.AddNode("Abs", {dead_a->output(0)}, {"dead_b"});

  // Erasing unused nodes from the back takes the whole dead branch in one sweep.
  std::vector<Node*> visited;
  for (Node* n : g.nodes_last_to_first()) {
    visited.push_back(n);
    if (!n->output(0)->has_uses()) {
      ASSERT_TRUE(g.Erase(n).ok());
    }
  }
  std::vector<Node*> expected = {dead_b, dead_a};
  for (int i = 4; i >= 0; --i) expected.push_back(chain[i]);
  EXPECT_EQ(visited, expected);
  EXPECT_EQ(g.num_nodes(), 5u);
  g.ReleaseErased();
  std::vector<Node*> left;
  for (Node* n : g.nodes()) left.push_back(n);
  EXPECT_EQ(left, chain);
}

TEST(GraphTest, RemoveInputShiftsLaterUses) {
  Graph g;
  Value* a = g.AddInput("A", FloatVec());
  Value* b = g.AddInput("B", FloatVec());
  Value* c = g.AddInput("C", FloatVec());
  Node* sum = g.AddNode("Sum", {a, b, c}, {"S"});
  sum->RemoveInput(1);
  ASSERT_EQ(sum->num_inputs(), 2u);
  EXPECT_EQ(sum->input(1), c);
  ASSERT_EQ(c->uses().size(), 1u);
  EXPECT_EQ(c->uses()[0].index, 1u);
  EXPECT_FALSE(b->has_uses());
}

// Every use a value lists is a slot (node input or graph output) that holds it, and every such slot
// is listed exactly once.
void ExpectUsesMatchSlots(const Graph& g, const Value* v) {
  size_t slots = 0;
  for (const Node* n : g.nodes()) {
    for (size_t i = 0; i < n->num_inputs(); ++i) slots += n->input(i) == v;
  }
  for (const Value* out : g.outputs()) slots += out == v;
  EXPECT_EQ(v->uses().size(), slots);
  for (const Use& u : v->uses()) {
    if (u.is_graph_output()) {
      ASSERT_LT(u.index, u.graph->outputs().size());
      EXPECT_EQ(u.graph->outputs()[u.index], v);
    } else {
      ASSERT_LT(u.index, u.node->num_inputs());
      EXPECT_EQ(u.node->input(u.index), v);
    }
  }
}

// A shared constant with many uses keeps each use's place at the use itself (past 16 uses): every
// edit that moves, renumbers or drops a use must keep the list exact.
TEST(GraphTest, ValueWithManyUsesStaysExactThroughEveryEdit) {
  Graph g;
  Value* c = g.AddInput("C", FloatVec());
  Value* x = g.AddInput("X", FloatVec());
  std::vector<Node*> users;
  for (int i = 0; i < 40; ++i)
    users.push_back(g.AddNode("Sum", {x, c, c}, {"s" + std::to_string(i)}));
  for (int i = 0; i < 5; ++i) g.AddOutput(c);
  ExpectUsesMatchSlots(g, c);
  ASSERT_EQ(c->uses().size(), 85u);

  users[3]->SetInput(1, x);   // a use leaves from the middle
  users[39]->RemoveInput(0);  // later inputs of a node shift down
  users[7]->RemoveInput(1);
  users[7]->AddInput(c);
  g.RemoveOutput(1);  // later graph outputs shift down
  g.SetOutput(0, x);
  users[20]->RemoveAllInputs();
  ExpectUsesMatchSlots(g, c);
  ExpectUsesMatchSlots(g, x);

  // Erasing users one by one, from the front as passes do, down to none.
  while (g.outputs().size() > 1) g.RemoveOutput(g.outputs().size() - 1);
  g.SetOutput(0, x);
  for (Node* n : users) {
    n->RemoveAllInputs();
    ASSERT_TRUE(g.Erase(n).ok());
    ExpectUsesMatchSlots(g, c);
  }
  EXPECT_FALSE(c->has_uses());
  // Below the threshold again: uses keep the order they were made in.
  Node* a = g.AddNode("Relu", {c}, {"a"});
  Node* b = g.AddNode("Neg", {c}, {"b"});
  ASSERT_EQ(c->uses().size(), 2u);
  EXPECT_EQ(c->uses()[0].node, a);
  EXPECT_EQ(c->uses()[1].node, b);
}

TEST(GraphTest, SubgraphsUseOuterValuesAndDieCleanly) {
  auto g = std::make_unique<Graph>("main");
  Value* x = g->AddInput("X", FloatVec());
  Value* cond = g->AddInput("C", Type::Tensor(DataType::kBool, Shape()));
  auto then_branch = std::make_unique<Graph>("then");
  Node* inner = then_branch->AddNode("Relu", {x}, {"T"});
  then_branch->AddOutput(inner->output(0));
  auto else_branch = std::make_unique<Graph>("else");
  else_branch->AddOutput(x);

  Node* if_node = g->AddNode("If", {cond}, {"Y"});
  if_node->SetAttribute(Attribute::FromGraph("then_branch", std::move(then_branch)));
  if_node->SetAttribute(Attribute::FromGraph("else_branch", std::move(else_branch)));
  g->AddOutput(if_node->output(0));

  ASSERT_EQ(if_node->subgraphs().size(), 2u);
  EXPECT_EQ(if_node->subgraphs()[0]->parent_node(), if_node);
  EXPECT_EQ(if_node->subgraphs()[0]->parent_graph(), g.get());
  EXPECT_EQ(x->uses().size(), 2u);  // Relu inside then, output of else

  // Dropping the node (after it has no users) removes the captured uses too.
  g->SetOutput(0, x);
  ASSERT_TRUE(g->Erase(if_node).ok());
  ASSERT_EQ(x->uses().size(), 1u);
  EXPECT_TRUE(x->uses()[0].is_graph_output());
  g.reset();  // no CHECK failure on destruction
}

TEST(GraphTest, CountsOpTypesAndSubgraphHoldersThroughEveryEdit) {
  Graph g("main");
  Value* x = g.AddInput("X", FloatVec());
  Value* cond = g.AddInput("C", Type::Tensor(DataType::kBool, Shape()));
  Node* a = g.AddNode("Relu", {x}, {"A"});
  Node* b = g.AddNode("Relu", {a->output(0)}, {"B"});
  Node* c = g.AddNode("Neg", {b->output(0)}, {"C0"});
  g.AddOutput(c->output(0));
  EXPECT_EQ(g.CountOpType("Relu"), 2);
  EXPECT_EQ(g.CountOpType("Neg"), 1);
  EXPECT_EQ(g.CountOpType("Conv"), 0);
  EXPECT_EQ(g.num_subgraph_holders(), 0u);

  // Renaming the op moves the count; so do erase and detach.
  b->set_op_type("Abs");
  EXPECT_EQ(g.CountOpType("Relu"), 1);
  EXPECT_EQ(g.CountOpType("Abs"), 1);
  c->SetInput(0, a->output(0));
  ASSERT_TRUE(g.Erase(b).ok());
  EXPECT_EQ(g.CountOpType("Abs"), 0);
  // An erased node's op type no longer counts, even if it is renamed afterwards.
  b->set_op_type("Relu");
  EXPECT_EQ(g.CountOpType("Relu"), 1);

  // A node gains and loses a subgraph attribute while it is in the graph.
  auto branch = std::make_unique<Graph>("then");
  branch->AddOutput(x);
  Node* if_node = g.AddNode("If", {cond}, {"Y"});
  EXPECT_FALSE(if_node->may_have_subgraphs());
  if_node->SetAttribute(Attribute::FromGraph("then_branch", std::move(branch)));
  EXPECT_TRUE(if_node->may_have_subgraphs());
  EXPECT_EQ(g.num_subgraph_holders(), 1u);
  std::unique_ptr<Node> detached = g.Detach(if_node);
  EXPECT_EQ(g.num_subgraph_holders(), 0u);
  EXPECT_EQ(g.CountOpType("If"), 0);
  Node* back = g.Append(std::move(detached));
  EXPECT_EQ(g.num_subgraph_holders(), 1u);
  EXPECT_EQ(g.CountOpType("If"), 1);
  EXPECT_TRUE(back->RemoveAttribute("then_branch"));
  EXPECT_FALSE(back->may_have_subgraphs());
  EXPECT_EQ(g.num_subgraph_holders(), 0u);
  EXPECT_TRUE(back->subgraphs().empty());

  // Reorder rebuilds the list and the counts with it.
  g.Reorder({back, a, c});
  EXPECT_EQ(g.CountOpType("Relu"), 1);
  EXPECT_EQ(g.CountOpType("Neg"), 1);
  EXPECT_EQ(g.CountOpType("If"), 1);
}

TEST(GraphTest, InitializersAndDefaults) {
  Graph g;
  Tensor w = Tensor::FromVector<float>(DataType::kFloat, {2}, {1.0f, 2.0f});
  w.set_name("W");
  Value* wv = g.AddInitializer(std::move(w));
  EXPECT_TRUE(wv->is_constant_initializer());
  EXPECT_EQ(wv->type(), Type::Tensor(DataType::kFloat, Shape::FromSizes({2})));
  EXPECT_EQ(wv->initializer()->at<float>(1), 2.0f);

  Value* b = g.AddInput("B", Type::Tensor(DataType::kFloat, Shape::FromSizes({2})));
  g.SetInitializer(b, Tensor::FromVector<float>(DataType::kFloat, {2}, {0.0f, 0.0f}));
  EXPECT_TRUE(b->is_initializer());
  EXPECT_FALSE(b->is_constant_initializer());  // a caller may override a graph input
  EXPECT_EQ(g.initializers().size(), 2u);

  Node* add = g.AddNode("Add", {wv, b}, {"S"});
  EXPECT_FALSE(g.RemoveInitializer(wv).ok());
  add->SetInput(0, b);
  EXPECT_TRUE(g.RemoveInitializer(wv).ok());
  EXPECT_EQ(g.initializers().size(), 1u);
}

TEST(GraphTest, RemoveInitializersAtOnceChecksAllFirst) {
  Graph g;
  std::vector<Value*> inits;
  for (int i = 0; i < 4; ++i) {
    Tensor t = Tensor::FromVector<float>(DataType::kFloat, {1}, {static_cast<float>(i)});
    t.set_name("W" + std::to_string(i));
    inits.push_back(g.AddInitializer(std::move(t)));
  }
  Value* b = g.AddInput("B", Type::Tensor(DataType::kFloat, Shape::FromSizes({1})));
  g.SetInitializer(b, Tensor::FromVector<float>(DataType::kFloat, {1}, {0.0f}));
  g.AddNode("Neg", {inits[2]}, {"N"});
  // W2 is used: nothing is removed.
  EXPECT_FALSE(g.RemoveInitializers({inits[0], inits[2]}).ok());
  EXPECT_EQ(g.initializers().size(), 5u);
  // W0, W3 and B's default go; B stays an input; W1 and W2 keep their order.
  ASSERT_TRUE(g.RemoveInitializers({inits[3], inits[0], b}).ok());
  ASSERT_EQ(g.initializers().size(), 2u);
  EXPECT_EQ(g.initializers()[0]->name(), "W1");
  EXPECT_EQ(g.initializers()[1]->name(), "W2");
  EXPECT_FALSE(b->is_initializer());
  EXPECT_EQ(g.inputs().size(), 1u);
}

TEST(ModelTest, OpsetLookupTreatsEmptyAndAiOnnxAlike) {
  Model m;
  m.mutable_opset_imports().push_back({"", 17});
  EXPECT_EQ(m.OpsetVersion("ai.onnx"), 17);
  m.SetOpsetVersion("ai.onnx", 21);
  EXPECT_EQ(m.OpsetVersion(""), 21);
  EXPECT_EQ(m.opset_imports().size(), 1u);
  EXPECT_FALSE(m.OpsetVersion("com.microsoft").has_value());
}

}  // namespace
}  // namespace onnx_opt::ir

namespace onnx_opt::ir {
namespace {

TEST(GraphTest, DetachMovesANodeWithItsUsesIntoAnotherGraph) {
  auto outer = std::make_unique<Graph>("outer");
  Value* x = outer->AddInput("X");
  auto inner = std::make_unique<Graph>("inner");
  Node* relu = inner->AddNode("Relu", {x}, {"R"});
  inner->AddOutput(relu->output(0));
  Node* if_node = outer->AddNode("If", {x}, {"Y"});
  if_node->SetAttribute(Attribute::FromGraph("then_branch", std::move(inner)));
  Graph* branch = if_node->subgraphs()[0];

  std::unique_ptr<Node> moved = branch->Detach(relu);
  EXPECT_EQ(branch->num_nodes(), 0u);
  EXPECT_EQ(moved->graph(), nullptr);
  Node* placed = outer->InsertBefore(if_node, std::move(moved));
  EXPECT_EQ(placed->graph(), outer.get());
  EXPECT_EQ(placed->output(0)->graph(), outer.get());
  EXPECT_EQ(x->uses().size(), 2u);  // Relu and the If's condition
  EXPECT_EQ(outer->first_node(), placed);
}

}  // namespace
}  // namespace onnx_opt::ir
