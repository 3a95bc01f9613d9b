// Tests for the passes that merge chains of the same kind of node: Casts, Slices, Concats, and
// Add/Sub/Mul/Div by constants. Every rewrite is also checked numerically.
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "passes/testing/pass_test_util.h"

namespace onnx_opt::passes {
namespace {

using ::onnx_opt::passes::testing::ExpectSameOutputs;
using ::onnx_opt::passes::testing::OpTypes;
using ::onnx_opt::passes::testing::RunPipelineOnText;
using ::testing::ElementsAre;

TEST(FuseCastsTest, WideningThenAnyCastBecomesOneCast) {
  auto run = RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2,3] X, int32[4] I) => (int32[2,3] Y, float[4] Z, float[2,3] W) {
      D = Cast<to = 11>(X)
      Y = Cast<to = 6>(D)
      L = Cast<to = 7>(I)
      Z = Cast<to = 1>(L)
      E = Cast<to = 11>(X)
      W = Cast<to = 1>(E)
    })",
                               "fuse-casts");
  ASSERT_TRUE(run.ok()) << run.status();
  // float->double->int32 is float->int32; int32->int64->float is int32->float; float->double->float
  // is X, kept as a Cast to float because W is a graph output (nops removes such casts where it
  // can).
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("Cast", "Cast", "Cast"));
  for (const ir::Node* n : run->after->graph().nodes()) EXPECT_TRUE(n->input(0)->is_graph_input());
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
}

TEST(FuseCastsTest, NarrowingCastsAndStringTargetsStay) {
  auto run = RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[4] X, int64[2] I) => (float[4] Y, string[4] S, int64[2] J) {
      H = Cast<to = 10>(X)
      Y = Cast<to = 1>(H)
      D = Cast<to = 11>(X)
      S = Cast<to = 8>(D)
      N = Cast<to = 6>(I)
      J = Cast<to = 7>(N)
    })",
                               "fuse-casts");
  ASSERT_TRUE(run.ok()) << run.status();
  // float->float16 rounds, float printed as double differs, int64->int32 truncates: all kept.
  EXPECT_EQ(run->after->graph().num_nodes(), 6u);
}

TEST(FuseCastsTest, SharedInnerCastIsKept) {
  auto run = RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (int32[3] X) => (int64[3] L, float[3] Y) {
      L = Cast<to = 7>(X)
      Y = Cast<to = 1>(L)
    })",
                               "fuse-casts");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("Cast", "Cast"));
  EXPECT_EQ(OpTypes(run->after->graph()).size(), 2u);
  for (const ir::Node* n : run->after->graph().nodes()) EXPECT_EQ(n->input(0)->name(), "X");
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
}

TEST(FuseSlicesTest, SlicesOfDifferentAxesBecomeOne) {
  auto run = RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 13]>
    g (float[4,6,5] X) => (float[2,2,5] Y)
    <int64[1] s1 = {1}, int64[1] e1 = {3}, int64[1] a1 = {0},
     int32[1] s2 = {-1}, int32[1] e2 = {-5}, int32[1] a2 = {-2}, int32[1] p2 = {-2}> {
      T = Slice(X, s1, e1, a1)
      Y = Slice(T, s2, e2, a2, p2)
    })",
                               "fuse-slices");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("Slice"));
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
}

TEST(FuseSlicesTest, SameAxisOrUnknownParametersStay) {
  auto run = RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 13]>
    g (float[8,4] X, int64[1] dyn) => (float[2,4] Y, float[2,4] Z)
    <int64[1] s1 = {1}, int64[1] e1 = {7}, int64[1] a1 = {0}, int64[1] s2 = {1}, int64[1] e2 = {3}> {
      T = Slice(X, s1, e1, a1)
      Y = Slice(T, s2, e2, a1)
      U = Slice(X, s1, e1, a1)
      Z = Slice(U, dyn, e2, a1)
    })",
                               "fuse-slices");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_EQ(run->after->graph().num_nodes(), 4u);
}

TEST(FuseConcatsTest, NestedConcatsOnTheSameAxisFlatten) {
  auto run = RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 13]>
    g (float[2,3] A, float[2,1] B, float[2,2] C, float[2,4] D) => (float[2,10] Y, float[4,3] Z) {
      I = Concat<axis = -1>(B, C)
      J = Concat<axis = 1>(A, I)
      Y = Concat<axis = 1>(J, D)
      K = Concat<axis = 0>(A, A)
      Z = Concat<axis = 1>(K, K)
    })",
                               "fuse-concats");
  ASSERT_TRUE(run.ok()) << run.status();
  // I (axis -1 = 1 for rank 2) goes into J, and J into Y; K (axis 0, used twice) stays.
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("Concat", "Concat", "Concat"));
  EXPECT_EQ(run->after->graph().first_node()->num_inputs(), 4u);
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
}

TEST(FuseSqueezesTest, UnsqueezeChainsAndSqueezeChainsMerge) {
  auto run = RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 13]>
    g (float[2,3] X, float[1,2,1,3,1] S) => (float[1,2,1,3,1] Y, float[2,3] Z)
    <int64[1] a1 = {1}, int64[2] a2 = {0, -1}, int64[2] s1 = {0, 4}, int64[1] s2 = {1}> {
      U = Unsqueeze(X, a1)
      Y = Unsqueeze(U, a2)
      Q = Squeeze(S, s1)
      Z = Squeeze(Q, s2)
    })",
                               "fuse-reshapes");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("Unsqueeze", "Squeeze"));
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
}

TEST(FuseSqueezesTest, AttributeFormBeforeOpset13) {
  auto run = RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 11]>
    g (float[2,3] X) => (float[2,1,1,3] Y) {
      U = Unsqueeze<axes = [1]>(X)
      Y = Unsqueeze<axes = [-2]>(U)
    })",
                               "fuse-reshapes");
  ASSERT_TRUE(run.ok()) << run.status();
  ASSERT_EQ(run->after->graph().num_nodes(), 1u);
  EXPECT_EQ(run->after->graph().first_node()->GetInts("axes"), (std::vector<int64_t>{1, 2}));
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
}

TEST(MergeConstantsTest, SubAndDivChainsMerge) {
  auto run = RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2,3] X) => (float[2,3] P, float[2,3] Q, float[2,3] R, float[2,3] S, float[2,3] T, float[2,3] U)
    <float[3] c = {1.0, 2.0, 3.0}, float d = {0.5}> {
      A1 = Sub(X, c)
      P = Sub(A1, d)
      A2 = Add(X, c)
      Q = Sub(A2, d)
      A3 = Sub(X, c)
      R = Add(d, A3)
      M1 = Div(X, c)
      S = Div(M1, d)
      M2 = Mul(c, X)
      T = Div(M2, d)
      M3 = Div(X, c)
      U = Mul(M3, d)
    })",
                               "merge-constants,fold-constants");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("Sub", "Add", "Add", "Div", "Mul", "Mul"));
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
}

TEST(MergeConstantsTest, ConstantOnTheLeftOfSubAndIntegerDivisionStay) {
  auto run = RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[3] X, int32[3] I) => (float[3] P, int32[3] Q)
    <float c = {1.0}, float d = {2.0}, int32 e = {3}, int32 f = {2}> {
      A = Sub(c, X)
      P = Sub(A, d)
      M = Mul(I, e)
      Q = Div(M, f)
    })",
                               "merge-constants");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_EQ(run->after->graph().num_nodes(), 4u);
}

TEST(MergeConstantsTest, IntegerSubChainsMerge) {
  auto run = RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (int64[3] I) => (int64[3] Q) <int64 e = {3}, int64 f = {5}> {
      A = Add(I, e)
      Q = Sub(A, f)
    })",
                               "merge-constants,fold-constants");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("Add"));
  EXPECT_EQ(run->after->graph().outputs()[0]->name(), "Q");
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
}

}  // namespace
}  // namespace onnx_opt::passes
