// Tests for redundant-expands: an Expand whose users (MatMul's batch dims, elementwise ops) would
// broadcast to the same result themselves goes; one that changes a user's result, feeds anything
// else, or whose shapes are not known stays. Checked structurally and numerically.
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "passes/testing/pass_test_util.h"

namespace onnx_opt::passes {
namespace {

using ::onnx_opt::passes::testing::CanonicalGraphText;
using ::onnx_opt::passes::testing::ExpectSameOutputs;
using ::onnx_opt::passes::testing::OpTypes;
using ::onnx_opt::passes::testing::PrintedGraph;
using ::onnx_opt::passes::testing::RunPipelineOnText;
using ::testing::Contains;
using ::testing::ElementsAre;

constexpr char kPipeline[] = "infer-shapes,redundant-expands,dead-nodes";

// Runs kPipeline on `text` and expects no node to go (the Expand in particular).
void ExpectKept(const std::string& text) {
  auto run = RunPipelineOnText(text, kPipeline);
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_EQ(OpTypes(run->after->graph()), OpTypes(run->before->graph()));
  EXPECT_THAT(OpTypes(run->after->graph()), Contains("Expand"));
}

// The rotary tables as exporters compute them: inv_freq [1, 4, 1] expanded to the batch of the
// position ids (the target from Shape(position_ids)), then MatMul with the positions [B, 1, S].
TEST(RedundantExpandsTest, RotaryFrequenciesExpandedToTheBatchOfMatMul) {
  auto run = RunPipelineOnText(R"(
    <ir_version: 10, opset_import: ["" : 23]>
    g (int64[batch,seq] position_ids) => (float[batch,4,seq] F) <
      float[1,4,1] inv = {1.0, 0.1, 0.01, 0.001}, int64 zero = {0}, int64[1] axes0 = {0},
      int64[1] axes1 = {1}, int64[2] tail = {4, 1}> {
      pos_shape = Shape(position_ids)
      b = Gather<axis = 0>(pos_shape, zero)
      b1 = Unsqueeze(b, axes0)
      target = Concat<axis = 0>(b1, tail)
      inv_e = Expand(inv, target)
      pos_u = Unsqueeze(position_ids, axes1)
      pos_f = Cast<to = 1>(pos_u)
      F = MatMul(inv_e, pos_f)
    })",
                               kPipeline);
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_EQ(PrintedGraph(*run->after), CanonicalGraphText(R"(
    <ir_version: 10, opset_import: ["" : 23]>
    g (int64[batch,seq] position_ids) => (float[batch,4,seq] F) <
      float[1,4,1] inv = {1.0, 0.1, 0.01, 0.001}, int64 zero = {0}, int64[1] axes0 = {0},
      int64[1] axes1 = {1}, int64[2] tail = {4, 1},
      int64[batch,1,seq] pos_u, float[batch,1,seq] pos_f> {
      pos_u = Unsqueeze(position_ids, axes1)
      pos_f = Cast<to = 1>(pos_u)
      F = MatMul(inv, pos_f)
    })"));
  EXPECT_EQ(run->result.runs[1].rewrites, 1);
  equivalence::EquivalenceOptions options;
  options.dims = {{"batch", 3}, {"seq", 5}};
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after, options));
}

// MatMul's B expanded over the batch, from a stack of one and from a plain matrix (A is 3-D, so
// the matrix broadcasts over its batch all the same). The second target, [N, 1, 1] computed from
// an input, leaves inference only [N, ?, ?] for the Expand: V's dims are its own all the same (the
// contraction dim A's). P's contraction dim is not known: W's is the Expand's.
TEST(RedundantExpandsTest, MatMulWeightsExpandedOverTheBatch) {
  auto run = RunPipelineOnText(R"(
    <ir_version: 10, opset_import: ["" : 17]>
    g (float[N,4,5] A, float[N,4,?] P, float[1,5,6] W, float[5,6] V, float[2] r)
        => (float[N,4,6] Y, float[N,4,6] Z, float[N,4,6] U)
    <float zero = {0.0}, int64[2] five_six = {5, 6}> {
      n = Shape<end = 1>(A)
      wt = Concat<axis = 0>(n, five_six)
      we = Expand(W, wt)
      Y = MatMul(A, we)
      U = MatMul(P, we)
      r_abs = Abs(r)
      r_pos = GreaterOrEqual(r_abs, zero)
      rest_ones = Cast<to = 7>(r_pos)
      target = Concat<axis = 0>(n, rest_ones)
      ve = Expand(V, target)
      Z = MatMul(A, ve)
    })",
                               kPipeline);
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("MatMul", "MatMul", "MatMul"));
  equivalence::EquivalenceOptions options;
  options.dims = {{"N", 3}};
  options.shapes = {{"P", {3, 4, 5}}};
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after, options));
}

TEST(RedundantExpandsTest, ElementwiseUsersThatBroadcastAnyway) {
  auto run = RunPipelineOnText(R"(
    <ir_version: 10, opset_import: ["" : 17]>
    g (float[N,S,8] X, float[1,1,8] G, float[8] H, bool[N,S,8] C) => (float[N,S,8] Y, float[N,S,8] Z, float[N,S,8] W) {
      sx = Shape(X)
      ge = Expand(G, sx)
      Y = Mul(X, ge)
      he = Expand(H, sx)
      Z = Where(C, he, X)
      W = Sub(he, Y)
    })",
                               kPipeline);
  ASSERT_TRUE(run.ok()) << run.status();
  // Both go (H's users both broadcast it to [N, S, 8] themselves); H [8] gains its rank from them.
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("Mul", "Where", "Sub"));
  equivalence::EquivalenceOptions options;
  options.dims = {{"N", 2}, {"S", 3}};
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after, options));
}

// The same value twice in one user: both uses take the unexpanded input, which the other operand
// no longer broadcasts, so the result would shrink to [1, 3]: kept.
TEST(RedundantExpandsTest, KeptWhenTheUserHasNoOtherOperandOfTheShape) {
  ExpectKept(R"(
    <ir_version: 10, opset_import: ["" : 17]>
    g (float[1,3] A) => (float[2,3] Y) <int64[2] s = {2, 3}> {
      e = Expand(A, s)
      Y = Add(e, e)
    })");
}

// Removing the Expand would change the user's output shape: [2, 3] from the Expand alone.
TEST(RedundantExpandsTest, KeptWhenTheUsersOutputWouldChange) {
  ExpectKept(R"(
    <ir_version: 10, opset_import: ["" : 17]>
    g (float[1,3] A, float[1,3] B) => (float[2,3] Y) <int64[2] s = {2, 3}> {
      e = Expand(A, s)
      Y = Add(e, B)
    })");
  // A symbolic batch the other operand does not have.
  ExpectKept(R"(
    <ir_version: 10, opset_import: ["" : 17]>
    g (float[1,3] A, float[1,3] B, float[N,3] X) => (float[N,3] Y) {
      s = Shape(X)
      e = Expand(A, s)
      Y = Mul(e, B)
    })");
}

// Expands that raise the rank: a rank the other operand does not reach stays (a 2-D MatMul with
// 2-D weights gives a 2-D result), and so does a MatMul operand that would become 1-D (a vector
// drops its dim from the result) or whose matrix dims the Expand makes (its rows, its contraction
// dim).
TEST(RedundantExpandsTest, KeptWhenMatMulWouldComputeSomethingElse) {
  ExpectKept(R"(
    <ir_version: 10, opset_import: ["" : 17]>
    g (float[4,5] A, float[5,6] B) => (float[2,4,6] Y) <int64[3] s = {2, 4, 5}> {
      e = Expand(A, s)
      Y = MatMul(e, B)
    })");
  ExpectKept(R"(
    <ir_version: 10, opset_import: ["" : 17]>
    g (float[5] A, float[2,5,6] B) => (float[2,4,6] Y) <int64[2] s = {4, 5}> {
      e = Expand(A, s)
      Y = MatMul(e, B)
    })");
  ExpectKept(R"(
    <ir_version: 10, opset_import: ["" : 17]>
    g (float[1,5] A, float[5,6] B) => (float[4,6] Y) <int64[2] s = {4, 5}> {
      e = Expand(A, s)
      Y = MatMul(e, B)
    })");
  // The contraction dim made by the Expand (B's is not known, and MatMul does not broadcast it).
  ExpectKept(R"(
    <ir_version: 10, opset_import: ["" : 17]>
    g (float[2,4,1] A, float[2,?,6] B) => (float[2,4,6] Y) <int64[3] s = {2, 4, 5}> {
      e = Expand(A, s)
      Y = MatMul(e, B)
    })");
  // The batch of a vector B: the result is [N, 4] only with A's batch.
  ExpectKept(R"(
    <ir_version: 10, opset_import: ["" : 17]>
    g (float[1,4,5] A, float[5] B, float[N,4,5] X) => (float[N,4] Y) {
      s = Shape(X)
      e = Expand(A, s)
      Y = MatMul(e, B)
    })");
}

TEST(RedundantExpandsTest, KeptWhenAGraphOutput) {
  ExpectKept(R"(
    <ir_version: 10, opset_import: ["" : 17]>
    g (float[1,3] A, float[2,3] B) => (float[2,3] Y, float[2,3] e) <int64[2] s = {2, 3}> {
      e = Expand(A, s)
      Y = Add(e, B)
    })");
}

TEST(RedundantExpandsTest, KeptWhenAUserDoesNotBroadcast) {
  ExpectKept(R"(
    <ir_version: 10, opset_import: ["" : 17]>
    g (float[1,3] A, float[2,3] B) => (float[2,3] Y, float[2,3] Z) <int64[2] s = {2, 3}> {
      e = Expand(A, s)
      Y = Add(e, B)
      Z = Relu(e)
    })");
  // A user in a subgraph.
  ExpectKept(R"(
    <ir_version: 10, opset_import: ["" : 17]>
    g (bool C, float[1,3] A, float[2,3] B) => (float[2,3] Y) <int64[2] s = {2, 3}> {
      e = Expand(A, s)
      Y = If(C) <
        then_branch = t () => (float[2,3] T) { T = Add(e, B) },
        else_branch = f () => (float[2,3] F) { F = Sub(e, B) }>
    })");
}

// Shapes inference cannot tell: an operand of unknown rank (reshaped to a shape known at run time
// only), and a user whose output dim is not known (the Expand's target and the other operand have
// symbols that may differ).
TEST(RedundantExpandsTest, KeptWhenShapesAreNotKnown) {
  ExpectKept(R"(
    <ir_version: 10, opset_import: ["" : 17]>
    g (float[1,3] A, float[2,3] B, int64[?] r) => (float[2,3] Y) <int64[2] s = {2, 3}> {
      a = Reshape(A, r)
      e = Expand(a, s)
      Y = Add(e, B)
    })");
  ExpectKept(R"(
    <ir_version: 10, opset_import: ["" : 17]>
    g (float[1,3] A, float[M,3] B, float[N,3] X) => (float[?,3] Y) {
      s = Shape(X)
      e = Expand(A, s)
      Y = Add(e, B)
    })");
}

}  // namespace
}  // namespace onnx_opt::passes
