#include "ir/verifier.h"

#include "gtest/gtest.h"

namespace onnx_opt::ir {
namespace {

std::string Message(const absl::Status& s) { return std::string(s.message()); }

TEST(VerifierTest, AcceptsWellFormedModelWithSubgraph) {
  Model m;
  Graph& g = m.graph();
  Value* x = g.AddInput("X");
  Value* c = g.AddInput("C");
  Node* relu = g.AddNode("Relu", {x}, {"R"});
  auto then_b = std::make_unique<Graph>("then");
  then_b->AddOutput(then_b->AddNode("Neg", {relu->output(0)}, {"T"})->output(0));
  auto else_b = std::make_unique<Graph>("else");
  else_b->AddOutput(else_b->AddNode("Abs", {relu->output(0)}, {"T2"})->output(0));
  Node* if_node = g.AddNode("If", {c}, {"Y"});
  if_node->SetAttribute(Attribute::FromGraph("then_branch", std::move(then_b)));
  if_node->SetAttribute(Attribute::FromGraph("else_branch", std::move(else_b)));
  g.AddOutput(if_node->output(0));
  EXPECT_TRUE(Verify(m).ok()) << Verify(m);
}

TEST(VerifierTest, SiblingBranchesMayReuseNames) {
  Model m;
  Graph& g = m.graph();
  Value* c = g.AddInput("C");
  Node* if_node = g.AddNode("If", {c}, {"Y"});
  for (const char* attr : {"then_branch", "else_branch"}) {
    auto b = std::make_unique<Graph>(attr);
    b->AddOutput(b->AddNode("Identity", {c}, {"same"})->output(0));
    if_node->SetAttribute(Attribute::FromGraph(attr, std::move(b)));
  }
  g.AddOutput(if_node->output(0));
  EXPECT_TRUE(Verify(m).ok()) << Verify(m);
}

TEST(VerifierTest, RejectsDuplicateNames) {
  Model m;
  Graph& g = m.graph();
  Value* x = g.AddInput("X");
  g.AddNode("Relu", {x}, {"Y"});
  g.AddOutput(g.AddNode("Neg", {x}, {"Y"})->output(0));
  absl::Status s = Verify(m);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(Message(s).find("'Y' is defined more than once"), std::string::npos) << s;
}

// Verify finds names by the hash each value keeps of its name (Value::name_hash): a rename must
// move it along, or a clash made by renaming would go unseen.
TEST(VerifierTest, RejectsDuplicateMadeByRenamingAndAcceptsItUndone) {
  Model m;
  Graph& g = m.graph();
  Value* x = g.AddInput("X");
  Node* relu = g.AddNode("Relu", {x}, {"Y"});
  Node* neg = g.AddNode("Neg", {relu->output(0)}, {"Z"});
  g.AddOutput(neg->output(0));
  ASSERT_TRUE(Verify(m).ok()) << Verify(m);

  neg->output(0)->set_name("Y");
  EXPECT_EQ(neg->output(0)->name_hash(), relu->output(0)->name_hash());
  absl::Status s = Verify(m);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(Message(s).find("'Y' is defined more than once"), std::string::npos) << s;

  neg->output(0)->set_name("Z");
  EXPECT_NE(neg->output(0)->name_hash(), relu->output(0)->name_hash());
  EXPECT_TRUE(Verify(m).ok()) << Verify(m);
}

TEST(VerifierTest, RejectsSubgraphShadowingOuterName) {
  Model m;
  Graph& g = m.graph();
  Value* c = g.AddInput("C");
  auto b = std::make_unique<Graph>("then");
  b->AddOutput(b->AddNode("Identity", {c}, {"C"})->output(0));
  Node* if_node = g.AddNode("If", {c}, {"Y"});
  if_node->SetAttribute(Attribute::FromGraph("then_branch", std::move(b)));
  g.AddOutput(if_node->output(0));
  EXPECT_FALSE(Verify(m).ok());
}

TEST(VerifierTest, RejectsUseBeforeDefinitionAndNamesTheCycle) {
  Model m;
  Graph& g = m.graph();
  Value* x = g.AddInput("X");
  Node* a = g.AddNode("Relu", {x}, {"a"});
  Node* b = g.AddNode("Neg", {a->output(0)}, {"b"});
  g.AddOutput(b->output(0));
  g.MoveBefore(b, a);
  absl::Status s = Verify(m);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(Message(s).find("uses 'a' before it is defined"), std::string::npos) << s;

  a->SetInput(0, b->output(0));  // now a real cycle
  s = Verify(m);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(Message(s).find("cycle"), std::string::npos) << s;
  a->SetInput(0, x);
}

TEST(VerifierTest, RejectsValueFromAnotherGraph) {
  Model m;
  Graph other("other");
  Value* foreign = other.AddInput("F");
  Graph& g = m.graph();
  g.AddOutput(g.AddNode("Relu", {foreign}, {"Y"})->output(0));
  absl::Status s = Verify(m);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(Message(s).find("not defined in scope"), std::string::npos) << s;
  g.ReleaseErased();
  for (Node* n : g.nodes()) n->SetInput(0, nullptr);
}

}  // namespace
}  // namespace onnx_opt::ir
