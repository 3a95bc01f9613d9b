#include "ir/text/model_equality.h"

#include <string>

#include "gtest/gtest.h"
#include "ir/text/parser.h"

namespace onnx_opt::ir::text {
namespace {

std::unique_ptr<Model> P(std::string_view text) {
  absl::StatusOr<std::unique_ptr<Model>> m = ParseModel(text);
  EXPECT_TRUE(m.ok()) << m.status();
  return m.ok() ? std::move(*m) : std::make_unique<Model>();
}

// The message of the difference between two texts ("" when equal).
std::string Diff(std::string_view a, std::string_view b, const EqualityOptions& options = {}) {
  absl::Status s = StructurallyEqual(*P(a), *P(b), options);
  return s.ok() ? "" : std::string(s.message());
}

constexpr char kBase[] = R"(<ir_version: 10, opset_import: ["" : 21]>
g (float[N] x, bool b) => (float[N] y) <float[2] c = {1, 2}, float[N] t> {
  t = Add(x, c)
  y = If(b) <then_branch = th () => (float[N] r) { r = Neg(t) }, else_branch = el () => (t) {}>
}
<domain: "d", opset_import: ["" : 21]>
f <a, k: int = 1> (p) => (q) { q = Op<v: int = @a>(p) }
)";

TEST(ModelEqualityTest, EqualModels) {
  EXPECT_EQ(Diff(kBase, kBase), "");
  // Spelling does not matter.
  EXPECT_EQ(Diff("g (float x) => (float y) { y = Relu(x) }",
                 "g(float x)=>(float y){y=Relu(x)}  # comment"),
            "");
}

TEST(ModelEqualityTest, ModelFields) {
  EXPECT_EQ(Diff("<ir_version: 9> g () => () {}", "<ir_version: 10> g () => () {}"),
            "model: ir_version is 9 in the first model but 10 in the second");
  EXPECT_EQ(
      Diff("<opset_import: [\"\" : 1]> g () => () {}", "<opset_import: [\"\" : 2]> g () => () {}"),
      "model: opset_import is [\"\":1] in the first model but [\"\":2] in the second");
  EXPECT_EQ(Diff("<model_version: 1> g () => () {}", "g () => () {}"),
            "model: model_version is 1 in the first model but absent in the second");
}

TEST(ModelEqualityTest, FindsTheFirstDifference) {
  EXPECT_EQ(
      Diff("g (float x) => (float y) { y = Relu(x) }", "g (float x) => (float y) { y = Abs(x) }"),
      "graph 'g' > node #0 (Relu): op_type is \"Relu\" in the first model but \"Abs\" in the "
      "second");
  EXPECT_EQ(Diff("g (float x, float z) => (float y) { y = Add(x, z) }",
                 "g (float x, float z) => (float y) { y = Add(z, x) }"),
            "graph 'g' > node #0 (Add): input 0 is 'x' in the first model but 'z' in the second");
  EXPECT_EQ(Diff("g (float x) => (float y) { y = Op<a = 1>(x) }",
                 "g (float x) => (float y) { y = Op<a = 2>(x) }"),
            "graph 'g' > node #0 (Op) > attribute 'a': value is 1 in the first model but 2 in the "
            "second");
  EXPECT_EQ(Diff("g (float x) => (float y) { y = Op<a = 1>(x) }",
                 "g (float x) => (float y) { y = Op<a = 1.0>(x) }"),
            "graph 'g' > node #0 (Op) > attribute 'a': type is int in the first model but float in "
            "the second");
  EXPECT_EQ(
      Diff("g (float[N] x) => () {}", "g (float[M] x) => () {}"),
      "graph 'g' > value 'x': type is float[N] in the first model but float[M] in the second");
  EXPECT_EQ(Diff("g (float x) => () {}", "g (float[] x) => () {}"),
            "graph 'g' > value 'x': type is float in the first model but float[] in the second");
  EXPECT_EQ(Diff("g () => () <float[2] c = {1, 2}> {}", "g () => () <float[2] c = {1, 3}> {}"),
            "graph 'g' > initializer 'c': data (first difference at byte 6) is 0 in the first "
            "model but 64 in "
            "the second");
  EXPECT_EQ(Diff("g () => () <float[2] c = {1, 2}> {}", "g () => () <float[2] d = {1, 2}> {}"),
            "graph 'g': initializer 'c' of the first model is missing in the second");
  EXPECT_EQ(
      Diff("g () => () <float[2] c = {1, 2}> {}", "g () => () <float[1,2] c = {1, 2}> {}"),
      "graph 'g' > value 'c': type is float[2] in the first model but float[1,2] in the second");
  EXPECT_EQ(Diff("g (float x) => (float y) { y = Relu(x) }",
                 "g (float x) => (float y) { y = Relu(x)  z = Relu(x) }"),
            "graph 'g': number of nodes is 1 in the first model but 2 in the second");
  EXPECT_EQ(Diff("g (float x) => (x) {}", "g (float x) => (float x) {}"),
            "graph 'g' > output 'x': type is unknown in the first model but float in the second");
}

TEST(ModelEqualityTest, SubgraphsAndFunctions) {
  std::string changed = kBase;
  changed.replace(changed.find("r = Neg(t)"), 10, "r = Neg(x)");
  EXPECT_EQ(Diff(kBase, changed),
            "graph 'g' > node #1 (If) > attribute 'then_branch' > graph 'th' > node #0 (Neg): "
            "input 0 is 't' in "
            "the first model but 'x' in the second");
  changed = kBase;
  changed.replace(changed.find("@a"), 2, "@k");
  EXPECT_EQ(Diff(kBase, changed),
            "function 'd::f' > graph '' > node #0 (Op) > attribute 'v': reference is \"a\" in the "
            "first model "
            "but \"k\" in the second");
  changed = kBase;
  changed.replace(changed.find("k: int = 1"), 10, "k: int = 2");
  EXPECT_EQ(Diff(kBase, changed),
            "function 'd::f' > attribute 'k': value is 1 in the first model but 2 in the second");
}

TEST(ModelEqualityTest, SameNameDifferentDefinition) {
  // Both inner graphs use "t", but one means its own value and the other the outer one.
  const char* a = R"(g (float t, bool b) => (float y) {
    y = If(b) <then_branch = th () => (float r) { r = Neg(t) }, else_branch = el () => (t) {}>
  })";
  const char* b = R"(g (float t, bool b) => (float y) {
    y = If(b) <then_branch = th () => (float r) { r = Neg(t) }, else_branch = el () => (t) {}>
  })";
  EXPECT_EQ(Diff(a, b), "");
}

TEST(ModelEqualityTest, Options) {
  Model a, b;
  a.graph().set_doc_string("one");
  b.graph().set_doc_string("two");
  EXPECT_EQ(std::string(StructurallyEqual(a, b).message()),
            "graph '': doc_string is \"one\" in the first model but \"two\" in the second");
  EXPECT_TRUE(StructurallyEqual(a, b, TextRoundTripOptions()).ok());

  const char* listed = "g (float x) => (float y) <float z> { z = Neg(x)  y = Neg(z) }";
  auto m1 = P(listed);
  auto m2 = P("g (float x) => (float y) { z = Neg(x)  y = Neg(z) }");
  m2->graph().first_node()->output(0)->set_type(Type::Tensor(DataType::kFloat, Shape()));
  EXPECT_EQ(std::string(StructurallyEqual(*m1, *m2).message()),
            "graph 'g': value_info is [z] in the first model but [] in the second");
  EXPECT_TRUE(StructurallyEqual(*m1, *m2, TextRoundTripOptions()).ok());

  // Storage of tensors is compared only when asked.
  auto t1 = P("g () => () <float[2] c = {1, 2}> {}");
  auto t2 = P("g () => () <float[2] c = {1, 2}> {}");
  t2->graph().initializers()[0]->mutable_initializer()->set_storage(Tensor::Storage::kTyped);
  EXPECT_TRUE(StructurallyEqual(*t1, *t2).ok());
  EqualityOptions storage;
  storage.compare_tensor_storage = true;
  EXPECT_FALSE(StructurallyEqual(*t1, *t2, storage).ok());
}

TEST(ModelEqualityTest, ExternalData) {
  EXPECT_EQ(Diff("g () => () <float[2] c = [\"location\": \"a\"]> {}",
                 "g () => () <float[2] c = [\"location\": \"b\"]> {}"),
            "graph 'g' > initializer 'c': external data is {location=a} in the first model but "
            "{location=b} in "
            "the second");
  EXPECT_EQ(Diff("g () => () <float[2] c = [\"location\": \"a\"]> {}",
                 "g () => () <float[2] c = {1, 2}> {}"),
            "graph 'g' > initializer 'c': data location is external in the first model but inline "
            "in the second");
}

TEST(ModelEqualityTest, Graphs) {
  absl::StatusOr<std::unique_ptr<Graph>> a = ParseGraph("g (float x) => (float y) { y = Neg(x) }");
  absl::StatusOr<std::unique_ptr<Graph>> b = ParseGraph("g (float x) => (float y) { y = Abs(x) }");
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_TRUE(StructurallyEqualGraphs(**a, **a).ok());
  EXPECT_FALSE(StructurallyEqualGraphs(**a, **b).ok());
}

}  // namespace
}  // namespace onnx_opt::ir::text
