#include "ir/name_generator.h"

#include "gtest/gtest.h"

namespace onnx_opt::ir {
namespace {

TEST(NameGeneratorTest, AvoidsEveryNameInTheModelIncludingSubgraphs) {
  Model m;
  Graph& g = m.graph();
  Value* x = g.AddInput("X");
  Node* if_node = g.AddNode("If", {x}, {"Y"});
  auto b = std::make_unique<Graph>("then");
  b->AddOutput(b->AddNode("Relu", {x}, {"X_1"})->output(0));
  if_node->SetAttribute(Attribute::FromGraph("then_branch", std::move(b)));
  if_node->set_name("node");

  NameGenerator names(m);
  EXPECT_EQ(names.Fresh("Z"), "Z");
  EXPECT_EQ(names.Fresh("Z"), "Z_1");
  EXPECT_EQ(names.Fresh("X"), "X_2");  // X and X_1 are taken
  EXPECT_EQ(names.Fresh("node"), "node_1");
  EXPECT_TRUE(names.IsTaken("Y"));
}

}  // namespace
}  // namespace onnx_opt::ir
