// Tests for constant folding and constant-If inlining.
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "passes/testing/pass_test_util.h"

namespace onnx_opt::passes {
namespace {

using ::onnx_opt::passes::testing::ExpectSameOutputs;
using ::onnx_opt::passes::testing::OpTypes;
using ::onnx_opt::passes::testing::RunPipelineOnText;
using ::testing::ElementsAre;

TEST(FoldTest, EvaluatesConstantChainsAndKeepsOutputNames) {
  auto run = RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2] X) => (float[2] Y, float[2] K) <float[2] A = {1.0, 2.0}, float[2] B = {3.0, 4.0}> {
      C = Add(A, B)
      two = Constant<value = float {2.0}>()
      K = Mul(C, two)
      Y = Add(X, K)
    })",
                               "fold-constants");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("Add"));
  // K is a graph output: it is now an initializer with the same name.
  const ir::Value* k = run->after->graph().outputs()[1];
  EXPECT_EQ(k->name(), "K");
  ASSERT_NE(k->initializer(), nullptr);
  EXPECT_EQ(k->initializer()->ToVector<float>(), (std::vector<float>{8.0f, 12.0f}));
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
}

TEST(FoldTest, EvaluatesARepeatedComputationOnce) {
  // Two copies of C (same op, same constant inputs) and of K: each is evaluated once, and the
  // copies' users read the same initializers. A copy that is a graph output keeps its name.
  auto run = RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2] X) => (float[2] Y, float[2] K2) <float[2] A = {1.0, 2.0}, float[2] B = {3.0, 4.0}> {
      C1 = Add(A, B)
      C2 = Add(A, B)
      K1 = Mul(C1, A)
      K2 = Mul(C2, A)
      P = Add(X, K1)
      Y = Add(P, C2)
    })",
                               "fold-constants");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("Add", "Add"));
  // A, B, C1 and K1 from the first evaluations, and K2 again under its own (graph output) name;
  // C2 reuses C1.
  std::vector<std::string> names;
  for (const ir::Value* v : run->after->graph().initializers()) names.push_back(v->name());
  EXPECT_THAT(names, ElementsAre("A", "B", "C1", "K1", "K2"));
  EXPECT_EQ(run->after->graph().outputs()[1]->name(), "K2");
  ASSERT_EQ(run->result.runs.size(), 1u);
  EXPECT_EQ(run->result.runs[0].rewrites, 4);
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
}

TEST(FoldTest, ShapeOfStaticShapeAndSizeGuard) {
  optimizer::PassOptions options;
  options.fold_size_limit = 1024;
  auto run = RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[3,4] X) => (float[3,4] Y, float[1000,1000] Big) <int64[2] big_shape = {1000, 1000}> {
      S = Shape(X)
      Z = ConstantOfShape<value = float[1] {1.0}>(S)
      Y = Add(X, Z)
      Big = ConstantOfShape<value = float[1] {0.5}>(big_shape)
    })",
                               "fold-constants", options);
  ASSERT_TRUE(run.ok()) << run.status();
  // Shape and the small ConstantOfShape fold; the 4 MB one would grow the model and stays.
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("Add", "ConstantOfShape"));
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
}

// Shape's start/end exist from Shape-15 (schema/shape_fold.h); the folded values match what the
// interpreter computes.
TEST(FoldTest, ShapeStartAndEndFromOpset15) {
  auto run = RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 15]>
    g (float[2,3,4] X) => (int64[2] A, int64[1] B, int64[3] C, int64[0] D, int64 N) {
      A = Shape<start = 1>(X)
      B = Shape<start = -1>(X)
      C = Shape<start = -10, end = 10>(X)
      D = Shape<start = 2, end = 1>(X)
      N = Size(X)
    })",
                               "fold-constants");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre());
  const std::vector<ir::Value*>& out = run->after->graph().outputs();
  ASSERT_EQ(out.size(), 5u);
  for (const ir::Value* v : out) ASSERT_NE(v->initializer(), nullptr) << v->name();
  EXPECT_EQ(out[0]->initializer()->ToVector<int64_t>(), (std::vector<int64_t>{3, 4}));
  EXPECT_EQ(out[1]->initializer()->ToVector<int64_t>(), (std::vector<int64_t>{4}));
  EXPECT_EQ(out[2]->initializer()->ToVector<int64_t>(), (std::vector<int64_t>{2, 3, 4}));
  EXPECT_EQ(out[3]->initializer()->ToVector<int64_t>(), (std::vector<int64_t>{}));
  EXPECT_EQ(out[4]->initializer()->ToVector<int64_t>(), (std::vector<int64_t>{24}));
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));

  auto at13 = RunPipelineOnText(R"(
    <ir_version: 7, opset_import: ["" : 13]>
    g (float[2,3,4] X) => (int64[3] A) { A = Shape(X) })",
                                "fold-constants");
  ASSERT_TRUE(at13.ok()) << at13.status();
  ASSERT_NE(at13->after->graph().outputs()[0]->initializer(), nullptr);
  EXPECT_EQ(at13->after->graph().outputs()[0]->initializer()->ToVector<int64_t>(),
            (std::vector<int64_t>{2, 3, 4}));
}

// A fold whose result would sit next to an input other nodes still use copies that input's data
// into the model: refused under the default growth budget of 0 (and counted), taken when the budget
// covers it, and always taken when the input dies with the node.
TEST(FoldTest, FoldsThatCopyASharedWeightTakeFromTheGrowthBudget) {
  std::string weights;
  for (int i = 0; i < 32; ++i) weights += (i ? ", " : "") + std::to_string(0.25 * (i % 7) - 0.5);
  const std::string shared = R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2,4] X, float[2,8] Z) => (float[2,8] Y, float[2,4] V) <float[4,8] W = {)" +
                             weights + R"(}> {
      WT = Transpose<perm = [1, 0]>(W)
      Y = MatMul(X, W)
      V = MatMul(Z, WT)
    })";
  auto kept = RunPipelineOnText(shared, "fold-constants");
  ASSERT_TRUE(kept.ok()) << kept.status();
  EXPECT_THAT(OpTypes(kept->after->graph()), ElementsAre("Transpose", "MatMul", "MatMul"));
  EXPECT_EQ(kept->result.folds_refused_for_growth, 1);
  EXPECT_OK(ExpectSameOutputs(*kept->before, *kept->after));

  optimizer::PassOptions options;
  options.fold_growth_limit = 128;  // the transposed copy: 32 floats
  auto folded = RunPipelineOnText(shared, "fold-constants", options);
  ASSERT_TRUE(folded.ok()) << folded.status();
  EXPECT_THAT(OpTypes(folded->after->graph()), ElementsAre("MatMul", "MatMul"));
  EXPECT_EQ(folded->result.folds_refused_for_growth, 0);
  EXPECT_OK(ExpectSameOutputs(*folded->before, *folded->after));

  // W used by the Transpose alone: folding replaces it, the model does not grow.
  auto sole = RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2,8] Z) => (float[2,4] V) <float[4,8] W = {)" +
                                    weights + R"(}> {
      WT = Transpose<perm = [1, 0]>(W)
      V = MatMul(Z, WT)
    })",
                                "fold-constants");
  ASSERT_TRUE(sole.ok()) << sole.status();
  EXPECT_THAT(OpTypes(sole->after->graph()), ElementsAre("MatMul"));
  EXPECT_OK(ExpectSameOutputs(*sole->before, *sole->after));
}

TEST(FoldTest, InputDefaultsAreNotConstantsUnlessAsked) {
  const std::string text = R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2] X, float[2] D = {1.0, 2.0}) => (float[2] Y) {
      E = Neg(D)
      Y = Add(X, E)
    })";
  auto kept = RunPipelineOnText(text, "fold-constants");
  ASSERT_TRUE(kept.ok()) << kept.status();
  EXPECT_THAT(OpTypes(kept->after->graph()), ElementsAre("Neg", "Add"));

  optimizer::PassOptions options;
  options.fold_overridable_initializers = true;
  auto frozen = RunPipelineOnText(text, "fold-constants", options);
  ASSERT_TRUE(frozen.ok()) << frozen.status();
  EXPECT_THAT(OpTypes(frozen->after->graph()), ElementsAre("Add"));
  EXPECT_EQ(frozen->after->graph().inputs().size(), 1u);
  EXPECT_OK(ExpectSameOutputs(*frozen->before, *frozen->after));
}

TEST(FoldTest, LeavesRandomAndUnknownOpsAlone) {
  auto run = RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 17, "com.example" : 1]>
    g (float[2] X) => (float[2] Y, float[2] Z) <float[2] A = {1.0, 2.0}> {
      Y = RandomNormalLike(A)
      Z = com.example.Twice(A)
    })",
                               "fold-constants");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("RandomNormalLike", "com.example::Twice"));
}

TEST(FoldIfTest, InlinesTheTakenBranch) {
  auto run = RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2] X) => (float[2] Y, float[2] Z) <bool c = {1}> {
      Y = If(c) <
        then_branch = t () => (float[2] T) { T = Relu(X) },
        else_branch = e () => (float[2] E) { E = Neg(X) }>
      Z = If(c) <
        then_branch = t2 () => (float[2] T2) { T2 = Identity(X) },
        else_branch = e2 () => (float[2] E2) { E2 = Abs(X) }>
    })",
                               "fold-if");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("Relu", "Identity"));
  EXPECT_EQ(run->after->graph().outputs()[0]->name(), "Y");
  EXPECT_EQ(run->after->graph().outputs()[1]->name(), "Z");
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
}

}  // namespace
}  // namespace onnx_opt::passes
