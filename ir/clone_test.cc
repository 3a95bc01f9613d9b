#include "ir/clone.h"

#include <memory>

#include "gtest/gtest.h"
#include "ir/node.h"
#include "ir/text/model_equality.h"
#include "ir/text/parser.h"
#include "ir/verifier.h"

namespace onnx_opt::ir {
namespace {

// Initializers (one also an input), value_info, an If whose branches use outer values, a
// model-local function, and metadata.
constexpr char kModel[] = R"(
<ir_version: 9, opset_import: ["" : 15, "local" : 1], producer_name: "p", doc_string: "d">
g (bool b, float[N] x, float[2] w = {1.0, 2.0}) => (float[N] y, float[N] z)
<float[2] c = {3.0, 4.0}, float[N] a> {
  late = Add(x, c)
  y = If(b) <
    then_branch = t () => (float r) <float q> { q = Neg(late)  r = Abs(q) },
    else_branch = e () => (x) {}
  >
  a = local.foo<alpha = 2.0>(x)
  z = Mul(a, w)
}
<domain: "local", opset_import: ["" : 15]>
foo <alpha: float = 4.0> (X) => (C) {
  t = Constant<value_float: float = @alpha>()
  C = Add(X, t)
}
)";

TEST(CloneTest, ModelIsEqualAndIndependent) {
  absl::StatusOr<std::unique_ptr<Model>> m = text::ParseModel(kModel);
  ASSERT_TRUE(m.ok()) << m.status();
  absl::StatusOr<std::unique_ptr<Model>> c = CloneModel(**m);
  ASSERT_TRUE(c.ok()) << c.status();
  ASSERT_TRUE(Verify(**m).ok()) << Verify(**m);
  EXPECT_TRUE(Verify(**c).ok()) << Verify(**c);
  EXPECT_TRUE(text::StructurallyEqual(**m, **c).ok()) << text::StructurallyEqual(**m, **c);
  // No pointer of the clone leads back into the original.
  EXPECT_NE((*c)->graph().first_node(), (*m)->graph().first_node());
  const Graph& then_c = *(*c)->graph().first_node()->next()->FindAttribute("then_branch")->g;
  const Value* late_c = then_c.first_node()->input(0);
  EXPECT_EQ(late_c->graph(), &(*c)->graph());
  // Editing the clone leaves the original alone.
  (*c)->graph().first_node()->set_name("changed");
  EXPECT_EQ((*m)->graph().first_node()->name(), "");
}

// A node may use a value defined after it (graphs need not be sorted; a branch may use an outer
// value defined after its If): values are made before any edge.
TEST(CloneTest, UnsortedGraph) {
  absl::StatusOr<std::unique_ptr<Model>> m = text::ParseModel(R"(
<ir_version: 9, opset_import: ["" : 15]>
g (bool b, float[N] x) => (float[N] y) {
  y = If(b) <then_branch = t () => (float r) { r = Abs(late) }, else_branch = e () => (x) {}>
  late = Neg(x)
})");
  ASSERT_TRUE(m.ok()) << m.status();
  absl::StatusOr<std::unique_ptr<Model>> c = CloneModel(**m);
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_TRUE(text::StructurallyEqual(**m, **c).ok()) << text::StructurallyEqual(**m, **c);
}

TEST(CloneTest, Graph) {
  absl::StatusOr<std::unique_ptr<Graph>> g = text::ParseGraph(R"(
g (float[N] x) => (float[N] y) { t = Relu(x)  y = Neg(t) })");
  ASSERT_TRUE(g.ok()) << g.status();
  absl::StatusOr<std::unique_ptr<Graph>> c = CloneGraph(**g);
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_TRUE(VerifyGraph(**c).ok());
  EXPECT_TRUE(text::StructurallyEqualGraphs(**g, **c).ok())
      << text::StructurallyEqualGraphs(**g, **c);
}

TEST(CloneTest, ValueOutOfScopeFails) {
  // A standalone copy of a subgraph that uses an outer value cannot be wired.
  absl::StatusOr<std::unique_ptr<Model>> m = text::ParseModel(kModel);
  ASSERT_TRUE(m.ok()) << m.status();
  const Graph& then_g = *(*m)->graph().first_node()->next()->FindAttribute("then_branch")->g;
  absl::StatusOr<std::unique_ptr<Graph>> c = CloneGraph(then_g);
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("'late', which is not defined in its scope"),
            std::string::npos)
      << c.status();
}

}  // namespace
}  // namespace onnx_opt::ir
