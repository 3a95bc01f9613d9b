// IR < 4 models get the initializers a pass added listed as graph inputs: the result passes the
// checker, survives a save and load, and computes what it did before; IR >= 4 models are untouched.
#include "optimizer/initializers_as_inputs.h"

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "equivalence/equivalence.h"
#include "gtest/gtest.h"
#include "ir/io/model_io.h"
#include "ir/model.h"
#include "ir/tensor.h"
#include "ir/text/parser.h"
#include "schema/checker/checker.h"

namespace onnx_opt::optimizer {
namespace {

std::unique_ptr<ir::Model> Parse(const std::string& text) {
  auto m = ir::text::ParseModel(text);
  EXPECT_TRUE(m.ok()) << m.status() << "\n" << text;
  return m.ok() ? *std::move(m) : nullptr;
}

std::string InputNames(const ir::Graph& g) {
  std::vector<std::string> names;
  for (const ir::Value* v : g.inputs()) names.push_back(v->name());
  return absl::StrJoin(names, ",");
}

// What fold-constants does to a Constant node: its tensor becomes an initializer of the same name
// that takes over the node's uses, and the node goes.
void FoldConstantNode(ir::Graph& g) {
  ir::Node* constant = nullptr;
  for (ir::Node* n : g.nodes()) {
    if (n->op_type() == "Constant") constant = n;
  }
  ASSERT_NE(constant, nullptr);
  ir::Tensor t = constant->FindAttribute("value")->t;
  t.set_name(constant->output(0)->name());
  ir::Value* init = g.AddInitializer(std::move(t));
  constant->output(0)->ReplaceAllUsesWith(init);
  ASSERT_TRUE(g.Erase(constant).ok());
}

std::unique_ptr<ir::Model> Reloaded(const ir::Model& m) {
  absl::StatusOr<std::string> bytes = ir::io::SerializeModel(m);
  EXPECT_TRUE(bytes.ok()) << bytes.status();
  if (!bytes.ok()) return nullptr;
  absl::StatusOr<std::unique_ptr<ir::Model>> back = ir::io::LoadModelFromString(*bytes);
  EXPECT_TRUE(back.ok()) << back.status();
  return back.ok() ? *std::move(back) : nullptr;
}

// The model passes the checker, and once written and read back, still does and computes what
// `original` computes.
void ExpectValidLoadableAndEqual(const ir::Model& original, const ir::Model& m) {
  const schema::checker::CheckResult check = schema::checker::Check(m);
  EXPECT_TRUE(check.ok()) << absl::StrJoin(check.errors, "\n");
  std::unique_ptr<ir::Model> reloaded = Reloaded(m);
  ASSERT_NE(reloaded, nullptr);
  EXPECT_TRUE(schema::checker::Check(*reloaded).ok());
  for (uint64_t seed : {1, 2, 3}) {
    equivalence::EquivalenceOptions options;
    options.seed = seed;
    EXPECT_TRUE(equivalence::CheckEquivalent(original, *reloaded, options).ok()) << "seed " << seed;
  }
}

constexpr char kIr3[] = R"(<ir_version: 3, opset_import: ["" : 9]>
g (float[2] x, float[2] w = {1.0, -1.0}) => (float[2] y) {
  c = Constant<value = float[2] {2.0, 3.0}>()
  a = Mul(x, c)
  y = Add(a, w)
})";

TEST(InitializersAsInputs, Ir3NewInitializerBecomesATypedInputAfterTheOthers) {
  std::unique_ptr<ir::Model> original = Parse(kIr3);
  std::unique_ptr<ir::Model> m = Parse(kIr3);
  ASSERT_NE(m, nullptr);
  FoldConstantNode(m->graph());
  ASSERT_FALSE(schema::checker::Check(*m).ok());  // what the issue saw: nothing could be written

  const InitializersListedAsInputs listed = ListInitializersAsInputs(*m);
  EXPECT_EQ(listed.count, 1);
  EXPECT_EQ(listed.Summary(), "ir_version 3: 1 new initializer listed as graph inputs");
  EXPECT_EQ(m->ir_version(), 3);
  EXPECT_EQ(InputNames(m->graph()), "x,w,c");
  const ir::Value* c = m->graph().inputs()[2];
  ASSERT_NE(c->initializer(), nullptr);
  EXPECT_EQ(c->initializer()->at<float>(1), 3.0f);
  EXPECT_EQ(c->type().ToString(), "tensor(float)[2]");
  EXPECT_EQ(m->graph().first_node()->input(1), c);
  EXPECT_EQ(m->graph().initializers().size(), 2u);
  ExpectValidLoadableAndEqual(*original, *m);
}

TEST(InitializersAsInputs, Ir3SubgraphInitializerFollowsTheLoopBodyInputs) {
  constexpr char kLoop[] = R"(<ir_version: 3, opset_import: ["" : 9]>
g (int64 n, bool c, float[2] x) => (float[2] y) {
  y = Loop(n, c, x) <body = body (int64 i, bool c_in, float[2] x_in) => (bool c_out, float[2] x_out) {
    c_out = Identity(c_in)
    k = Constant<value = float[2] {0.5, -0.25}>()
    x_out = Add(x_in, k)
  }>
})";
  std::unique_ptr<ir::Model> original = Parse(kLoop);
  std::unique_ptr<ir::Model> m = Parse(kLoop);
  ASSERT_NE(m, nullptr);
  ir::Graph& body = *m->graph().first_node()->FindMutableAttribute("body")->g;
  FoldConstantNode(body);

  EXPECT_EQ(ListInitializersAsInputs(*m).count, 1);
  EXPECT_EQ(InputNames(body), "i,c_in,x_in,k");
  EXPECT_EQ(InputNames(m->graph()), "n,c,x");
  ExpectValidLoadableAndEqual(*original, *m);
}

TEST(InitializersAsInputs, Ir4AndLaterAreLeftAlone) {
  constexpr char kIr4[] = R"(<ir_version: 4, opset_import: ["" : 9]>
g (float[2] x) => (float[2] y) { c = Constant<value = float[2] {2.0, 3.0}>() y = Mul(x, c) })";
  std::unique_ptr<ir::Model> m = Parse(kIr4);
  ASSERT_NE(m, nullptr);
  FoldConstantNode(m->graph());
  const InitializersListedAsInputs listed = ListInitializersAsInputs(*m);
  EXPECT_EQ(listed.count, 0);
  EXPECT_EQ(listed.Summary(), "");
  EXPECT_EQ(InputNames(m->graph()), "x");
  EXPECT_TRUE(schema::checker::Check(*m).ok());
}

TEST(InitializersAsInputs, InitializersThatAreInputsAlreadyStayAsTheyAre) {
  std::unique_ptr<ir::Model> m = Parse(kIr3);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(ListInitializersAsInputs(*m).count, 0);
  EXPECT_EQ(InputNames(m->graph()), "x,w");
  EXPECT_EQ(m->graph().num_nodes(), 3u);
}

}  // namespace
}  // namespace onnx_opt::optimizer
