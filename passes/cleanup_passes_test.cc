// Tests for the cleanup passes: dead nodes, identity, no-ops, CSE, unused initializers, functions
// and opset imports. Each runs a text model through the pass and checks the graph and the outputs.
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "passes/testing/pass_test_util.h"
#include "schema/checker/checker.h"

namespace onnx_opt::passes {
namespace {

using ::onnx_opt::passes::testing::ExpectSameOutputs;
using ::onnx_opt::passes::testing::OpTypes;
using ::onnx_opt::passes::testing::RunPipelineOnText;
using ::testing::ElementsAre;

TEST(DeadNodesTest, RemovesUnusedChainsButKeepsUnknownDomains) {
  auto run = RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 17, "com.example" : 1]>
    g (float[4] X) => (float[4] Y) {
      A = Relu(X)
      B = Neg(A)
      C = com.example.Log(X)
      Y = Abs(X)
    })",
                               "dead-nodes");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("com.example::Log", "Abs"));
  EXPECT_EQ(run->result.runs[0].rewrites, 2);
  // The interpreter cannot run com.example ops; the numeric check is the next test's.
}

TEST(DeadNodesTest, NumericallyEqual) {
  auto run = RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[4] X) => (float[4] Y) {
      A = Relu(X)
      B = Neg(A)
      Y = Abs(X)
    })",
                               "dead-nodes");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("Abs"));
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
}

TEST(DeadNodesTest, CleansSubgraphsToo) {
  auto run = RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (bool C, float[4] X) => (float[4] Y) {
      Y = If(C) <
        then_branch = t () => (float[4] T) { Unused = Neg(X)  T = Relu(X) },
        else_branch = e () => (float[4] E) { E = Abs(X) }>
    })",
                               "dead-nodes");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_EQ(run->after->graph().first_node()->subgraphs()[0]->num_nodes(), 1u);
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
}

TEST(IdentityTest, ForwardsInputsAndKeepsOutputNames) {
  auto run = RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[4] X) => (float[4] Y, float[4] Z) {
      A = Relu(X)
      B = Identity(A)
      Y = Identity(B)
      Z = Identity(X)
    })",
                               "identity");
  ASSERT_TRUE(run.ok()) << run.status();
  // Z must stay: X is a graph input and cannot be renamed to Z.
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("Relu", "Identity"));
  EXPECT_EQ(run->after->graph().outputs()[0]->name(), "Y");
  EXPECT_EQ(run->after->graph().outputs()[0]->producer()->op_type(), "Relu");
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
}

TEST(CseTest, MergesEqualNodesButNotRandomOnes) {
  auto run = RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2,3] X) => (float[3,2] Y, float[3,2] Z, float[2,3] R) {
      A = Transpose<perm = [1, 0]>(X)
      B = Transpose<perm = [1, 0]>(X)
      C = Transpose<perm = [0, 1]>(X)
      Y = Add(A, B)
      Z = Relu(B)
      N1 = RandomNormalLike(X)
      N2 = RandomNormalLike(X)
      S = Sub(N1, N2)
      R = Add(C, S)
    })",
                               "cse");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()),
              ElementsAre("Transpose", "Transpose", "Add", "Relu", "RandomNormalLike",
                          "RandomNormalLike", "Sub", "Add"));
  const ir::Node* add = run->after->graph().first_node()->next()->next();
  EXPECT_EQ(add->input(0), add->input(1));
}

TEST(CseTest, NumericallyEqual) {
  auto run = RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2,3] X) => (float[3,2] Y, float[3,2] Z) {
      A = Transpose<perm = [1, 0]>(X)
      B = Transpose<perm = [1, 0]>(X)
      Y = Add(A, B)
      Z = Transpose<perm = [1, 0]>(X)
    })",
                               "cse");
  ASSERT_TRUE(run.ok()) << run.status();
  // Z is a graph output computed like A: it takes over A's node, which now has the name Z.
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("Transpose", "Add"));
  EXPECT_EQ(run->after->graph().outputs()[1]->name(), "Z");
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
}

TEST(CseTest, FindsDuplicatesWhoseInputsHaveManyUsers) {
  // Every input of M1/M2 has more users than CSE scans (R0..R39 and the Muls read X; W feeds many):
  // those duplicates are found through the hash set. R0..R39 are all one node in the end, and the
  // two Constant nodes (no inputs) are merged too.
  auto run = RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2] X) => (float[2] Y) {
      R0 = Relu(X)
      R1 = Relu(X)
      R2 = Relu(X)
      R3 = Relu(X)
      R4 = Relu(X)
      R5 = Relu(X)
      R6 = Relu(X)
      R7 = Relu(X)
      R8 = Relu(X)
      R9 = Relu(X)
      R10 = Relu(X)
      R11 = Relu(X)
      R12 = Relu(X)
      R13 = Relu(X)
      R14 = Relu(X)
      R15 = Relu(X)
      R16 = Relu(X)
      R17 = Relu(X)
      R18 = Relu(X)
      R19 = Relu(X)
      R20 = Relu(X)
      R21 = Relu(X)
      R22 = Relu(X)
      R23 = Relu(X)
      R24 = Relu(X)
      R25 = Relu(X)
      R26 = Relu(X)
      R27 = Relu(X)
      R28 = Relu(X)
      R29 = Relu(X)
      R30 = Relu(X)
      R31 = Relu(X)
      R32 = Relu(X)
      R33 = Relu(X)
      R34 = Relu(X)
      R35 = Relu(X)
      R36 = Relu(X)
      R37 = Relu(X)
      R38 = Relu(X)
      R39 = Relu(X)
      W = Neg(X)
      U0 = Add(W, X)
      U1 = Add(W, X)
      U2 = Add(W, X)
      U3 = Add(W, X)
      U4 = Add(W, X)
      U5 = Add(W, X)
      U6 = Add(W, X)
      U7 = Add(W, X)
      U8 = Add(W, X)
      U9 = Add(W, X)
      U10 = Add(W, X)
      U11 = Add(W, X)
      U12 = Add(W, X)
      U13 = Add(W, X)
      U14 = Add(W, X)
      U15 = Add(W, X)
      U16 = Add(W, X)
      U17 = Add(W, X)
      U18 = Add(W, X)
      U19 = Add(W, X)
      U20 = Add(W, X)
      U21 = Add(W, X)
      U22 = Add(W, X)
      U23 = Add(W, X)
      U24 = Add(W, X)
      U25 = Add(W, X)
      U26 = Add(W, X)
      U27 = Add(W, X)
      U28 = Add(W, X)
      U29 = Add(W, X)
      U30 = Add(W, X)
      U31 = Add(W, X)
      U32 = Add(W, X)
      U33 = Add(W, X)
      K1 = Constant<value = float[2] {1.0, 2.0}>()
      K2 = Constant<value = float[2] {1.0, 2.0}>()
      S = Sum(R0, R1, R39, U0, U33, K1, K2)
      Y = Add(S, X)
    })",
                               "cse");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()),
              ElementsAre("Relu", "Neg", "Add", "Constant", "Sum", "Add"));
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
}

TEST(NopsTest, RemovesIdentityInTheSameWalk) {
  auto run = RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2] X) => (float[2] Y) {
      A = Identity(X)
      B = Relu(A)
      Y = Identity(B)
    })",
                               "nops");
  ASSERT_TRUE(run.ok()) << run.status();
  // The output Identity goes too: Relu's value takes over the name Y.
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("Relu"));
  EXPECT_EQ(run->after->graph().outputs()[0]->name(), "Y");
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
}

TEST(NopsTest, RemovesNoOpsOnlyWhenProvablyNeutral) {
  auto run = RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2,3] X) => (float[2,3] Y, float[2,3] Z) {
      A = Transpose<perm = [0, 1]>(X)
      B = Dropout(A)
      zero = Constant<value = float {0.0}>()
      C = Add(B, zero)
      one = Constant<value = float[1,1] {1.0}>()
      D = Mul(one, C)
      E = Cast<to = 1>(D)
      Y = Relu(E)
      wide = Constant<value = float[2,2,3] {0,0,0,0,0,0,0,0,0,0,0,0}>()
      F = Add(Y, wide)
      Z = ReduceSum<axes = [0], keepdims = 0>(F)
    })",
                               "nops");
  ASSERT_TRUE(run.ok()) << run.status();
  // The [2,2,3] zero broadcasts X to a bigger shape, so that Add stays.
  EXPECT_THAT(OpTypes(run->after->graph()),
              ElementsAre("Constant", "Constant", "Relu", "Constant", "Add", "ReduceSum"));
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
}

TEST(DedupInitializersTest, MergesByContentThenCseMergesTheNodes) {
  auto run = RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2] X) => (float[2] Y) <float[2] A = {1.0, 2.0}, float[2] B = {1.0, 2.0}, float[2] C = {1.0, 3.0}> {
      P = Add(X, A)
      Q = Add(X, B)
      R = Add(X, C)
      S = Mul(P, Q)
      Y = Sub(S, R)
    })",
                               "dedup-initializers,cse,dce");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_EQ(run->after->graph().initializers().size(), 2u);
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("Add", "Add", "Mul", "Sub"));
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
}

TEST(UnusedTest, InitializersFunctionsAndOpsetImports) {
  auto run = RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 17, "local" : 1, "unused.domain" : 1]>
    g (float[2] X, float[2] D = {5.0, 6.0}) => (float[2] Y) <float[2] W = {1.0, 2.0}, float[2] V = {3.0, 4.0}> {
      T = local.twice(X)
      Y = Add(T, W)
    }
    <domain: "local", opset_import: ["" : 17]>
    twice (x) => (y) { y = Add(x, x) }
    <domain: "local", opset_import: ["" : 17]>
    never (x) => (y) { y = Neg(x) }
  )",
                               "dce");
  ASSERT_TRUE(run.ok()) << run.status();
  const ir::Graph& g = run->after->graph();
  // V goes; W is used; D is a graph input with a default, part of the interface.
  ASSERT_EQ(g.initializers().size(), 2u);
  EXPECT_EQ(run->after->functions().size(), 1u);
  EXPECT_EQ(run->after->functions()[0]->name(), "twice");
  EXPECT_FALSE(run->after->OpsetVersion("unused.domain").has_value());
  EXPECT_TRUE(run->after->OpsetVersion("local").has_value());
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
}

TEST(UnusedTest, KeepsOneOpsetImportWhenNoNodeIsLeft) {
  // Found by the optimize fuzzer: a model importing no ai.onnx whose only node is dead (its output
  // is its input). A model must import some operator set, so the first import stays.
  auto run = RunPipelineOnText(R"(
    <ir_version: 3, opset_import: ["ai.onnx.ml" : 1, "com.other" : 1]>
    g (float[2] X) => (float[2] X) {
      Y = ai.onnx.ml.Binarizer<threshold = 1.0>(X)
    }
  )",
                               "default");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_EQ(run->after->graph().num_nodes(), 0u);
  ASSERT_EQ(run->after->opset_imports().size(), 1u);
  EXPECT_EQ(run->after->opset_imports()[0].domain, "ai.onnx.ml");
  const schema::checker::CheckResult check = schema::checker::Check(*run->after);
  EXPECT_TRUE(check.ok()) << check.errors[0];
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
}

}  // namespace
}  // namespace onnx_opt::passes
