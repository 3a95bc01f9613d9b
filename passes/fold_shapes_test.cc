// Tests for fold-shapes: shape arithmetic over partly known (symbolic) shapes. Each model has a
// symbolic batch; outputs are compared on the interpreter for two batch sizes.
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "passes/testing/pass_test_util.h"

namespace onnx_opt::passes {
namespace {

using ::onnx_opt::passes::testing::ExpectSameOutputs;
using ::onnx_opt::passes::testing::OpTypes;
using ::onnx_opt::passes::testing::RunPipelineOnText;
using ::testing::ElementsAre;

void ExpectSameForBatches(const ir::Model& before, const ir::Model& after) {
  for (int64_t n : {1, 3}) {
    equivalence::EquivalenceOptions options;
    options.dims["N"] = n;
    SCOPED_TRACE(n);
    EXPECT_OK(ExpectSameOutputs(before, after, options));
  }
}

std::vector<int64_t> ReshapeTarget(const ir::Model& m) {
  for (const ir::Node* n : m.graph().nodes()) {
    if (n->op_type() != "Reshape") continue;
    const ir::Tensor* t = n->input(1)->initializer();
    if (t == nullptr) return {};
    return t->ToVector<int64_t>();
  }
  return {};
}

// The OCR classifier's pattern: the target is the input's own (symbolic) batch and a constant.
TEST(FoldShapesTest, ReshapeTargetFromItsOwnBatchBecomesConstant) {
  auto run = RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 13]>
    g (float[N,4,5,10] X) => (float[N,200] Y) <int64[1] zero = {0}, int64[1] one = {1}, int64[1] rest = {200}> {
      s = Shape(X)
      sf = Cast<to = 1>(s)
      b = Slice(sf, zero, one)
      bi = Cast<to = 7>(b)
      t = Concat<axis = 0>(bi, rest)
      Y = Reshape(X, t)
    })",
                               "fold-shapes,dead-nodes");
  ASSERT_TRUE(run.ok()) << run.status();
  // The float Cast stops the tracking (shapes in float are not shape arithmetic we follow).
  EXPECT_THAT(OpTypes(run->after->graph()),
              ElementsAre("Shape", "Cast", "Slice", "Cast", "Concat", "Reshape"));

  run = RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 13]>
    g (float[N,4,5,10] X) => (float[N,200] Y) <int64[1] zero = {0}, int64[1] one = {1}, int64[1] rest = {200}> {
      s = Shape(X)
      si = Cast<to = 6>(s)
      b = Slice(si, zero, one)
      bi = Cast<to = 7>(b)
      t = Concat<axis = 0>(bi, rest)
      Y = Reshape(X, t)
    })",
                          "fold-shapes,dead-nodes");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("Reshape"));
  EXPECT_THAT(ReshapeTarget(*run->after), ElementsAre(0, 200));
  ExpectSameForBatches(*run->before, *run->after);
}

TEST(FoldShapesTest, GatherUnsqueezeAndOneUnknownBecomesMinusOne) {
  // Flatten written by hand: [batch, -] where the second is the product of the others (unknown
  // here because H is symbolic): batch stays 0, the other becomes -1.
  auto run = RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[N,3,H] X) => (float[N,?] Y) <int64 i0 = {0}, int64 i2 = {2}, int64[1] ax = {0}, int64[1] three = {3}> {
      s = Shape(X)
      b = Gather<axis = 0>(s, i0)
      h = Gather<axis = 0>(s, i2)
      bu = Unsqueeze(b, ax)
      hu = Unsqueeze(h, ax)
      m = Mul(hu, three)
      t = Concat<axis = 0>(bu, m)
      Y = Reshape(X, t)
    })",
                               "infer-shapes,fold-shapes,dead-nodes");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("Reshape"));
  EXPECT_THAT(ReshapeTarget(*run->after), ElementsAre(0, -1));
  for (int64_t h : {2, 5}) {
    equivalence::EquivalenceOptions options;
    options.dims["N"] = 2;
    options.dims["H"] = h;
    EXPECT_OK(ExpectSameOutputs(*run->before, *run->after, options));
  }
}

TEST(FoldShapesTest, KnownDimsOfAPartlySymbolicShapeFold) {
  // Shape(X)[1:] of [N, 3, 4] is [3, 4], and Shape(X)[1] is 3, whatever N is.
  auto run = RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[N,3,4] X) => (int64[2] S, int64 C) <int64[1] one = {1}, int64[1] big = {100}, int64 i1 = {1}> {
      s = Shape(X)
      t = Slice(s, one, big)
      S = Add(t, t)
      g = Gather(s, i1)
      C = Mul(g, g)
    })",
                               "fold-shapes,dead-nodes");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("Add", "Mul"));
  ExpectSameForBatches(*run->before, *run->after);
}

TEST(FoldShapesTest, LeavesWhatItCannotProve) {
  // Two elements that stay unknown: N not at its own position, and H; with allowzero=1 no element
  // can be 0, so N and H at their own positions are two unknowns again.
  auto run = RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 15]>
    g (float[N,H,6] X) => (float[?,?,?] Y, float[?,?,?] W) <int64[1] six = {6}> {
      hn = Shape<start = 0, end = 2>(X)
      t = Concat<axis = 0>(six, hn)
      Y = Reshape(X, t)
      u = Concat<axis = 0>(hn, six)
      W = Reshape<allowzero = 1>(X, u)
    })",
                               "fold-shapes");
  ASSERT_TRUE(run.ok()) << run.status();
  for (const ir::Node* n : run->after->graph().nodes()) {
    if (n->op_type() == "Reshape")
      EXPECT_EQ(n->input(1)->initializer(), nullptr) << n->output(0)->name();
  }
  // Without allowzero the second is [0, 0, 6].
  run = RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 15]>
    g (float[N,H,6] X) => (float[N,H,6] W) <int64[1] six = {6}> {
      hn = Shape<start = 0, end = 2>(X)
      u = Concat<axis = 0>(hn, six)
      W = Reshape(X, u)
    })",
                          "fold-shapes,dead-nodes");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(ReshapeTarget(*run->after), ElementsAre(0, 0, 6));
}

TEST(FoldShapesTest, RunsInTheDefaultPipeline) {
  auto run = RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[N,2,3] X) => (float[N,6] Y) <int64 i0 = {0}, int64[1] ax = {0}, int64[1] six = {6}> {
      s = Shape(X)
      b = Gather(s, i0)
      bu = Unsqueeze(b, ax)
      t = Concat<axis = 0>(bu, six)
      Y = Reshape(X, t)
    })",
                               "default");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("Reshape"));
  ExpectSameForBatches(*run->before, *run->after);
}

}  // namespace
}  // namespace onnx_opt::passes
