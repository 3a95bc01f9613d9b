// Tests for the passes that fold per-channel constants into a Conv's weights and bias:
// fuse-scale-into-conv, fuse-add-into-conv (Sub) and fuse-input-affine-into-conv. Every rewrite is
// also checked numerically.
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "passes/testing/pass_test_util.h"

namespace onnx_opt::passes {
namespace {

using ::onnx_opt::passes::testing::ExpectSameOutputs;
using ::onnx_opt::passes::testing::OpTypes;
using ::onnx_opt::passes::testing::RunPipelineOnText;
using ::testing::ElementsAre;

// A 3x2x3x3 kernel (the text after the name).
constexpr char kWeights[] =
    " = {0.1,-0.2,0.3,0.4,0.5,-0.6,0.7,0.8,0.9,1.0,-1.1,1.2,0.1,0.2,0.3,0.4,0.5,0.6,"
    "-0.7,0.8,0.9,1.0,1.1,1.2,0.1,0.2,-0.3,0.4,0.5,0.6,0.7,0.8,0.9,1.0,1.1,1.2,"
    "0.1,0.2,0.3,-0.4,0.5,0.6,0.7,0.8,0.9,1.0,1.1,1.2,0.1,0.2,0.3,0.4,0.5,0.6}";

// A model over X [1,2,5,5] with two copies of the kernel, W and W2, and a bias B.
std::string Model(const std::string& outputs, const std::string& constants,
                  const std::string& body) {
  return std::string(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[1,2,5,5] X) => ()") +
         outputs + ")\n    <float[3,2,3,3] W" + kWeights + ", float[3,2,3,3] W2" + kWeights +
         ", float[3] B = {0.5, -0.5, 0.25}" + constants + ">\n    {\n" + body + "\n    }";
}

TEST(FuseScaleIntoConvTest, PerChannelMulAndScalarDiv) {
  auto run = RunPipelineOnText(Model("float[1,3,5,5] Y, float[1,3,3,3] Z",
                                     ", float[3,1,1] s = {2.0, -0.5, 3.0}, float d = {4.0}",
                                     R"(
      A = Conv<pads = [1, 1, 1, 1]>(X, W, B)
      Y = Mul(s, A)
      C = Conv(X, W2)
      Z = Div(C, d))"),
                               "fuse-scale-into-conv");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("Conv", "Conv"));
  EXPECT_EQ(run->after->graph().outputs()[0]->name(), "Y");
  // The bias-less conv stays without a bias.
  EXPECT_EQ(run->after->graph().outputs()[1]->producer()->num_inputs(), 2u);
  ASSERT_EQ(run->result.runs.size(), 1u);
  EXPECT_EQ(run->result.runs[0].rewrites, 2);
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
}

TEST(FuseScaleIntoConvTest, OtherShapesSharedConvsAndDivByConstantStay) {
  auto run = RunPipelineOnText(
      Model("float[1,3,5,5] Y, float[1,3,5,5] Z, float[1,3,5,5] V, float[1,3,5,5] U",
            ", float[5] row = {1.0, 2.0, 3.0, 4.0, 5.0}, float[3,1,1] s = {2.0, 0.0, 1.0}",
            R"(
      A = Conv<pads = [1, 1, 1, 1]>(X, W, B)
      Y = Mul(A, row)
      C = Conv<pads = [1, 1, 1, 1]>(X, W, B)
      Z = Mul(C, s)
      V = Relu(C)
      D = Conv<pads = [1, 1, 1, 1]>(X, W, B)
      U = Div(s, D))"),
      "fuse-scale-into-conv");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()),
              ElementsAre("Conv", "Mul", "Conv", "Mul", "Relu", "Conv", "Div"));
}

TEST(FuseScaleIntoConvTest, SharedWeightsAreNotCopied) {
  auto run = RunPipelineOnText(
      Model("float[1,3,5,5] Y, float[1,3,5,5] Z", ", float[3,1,1] s = {2.0, -0.5, 3.0}",
            R"(
      A = Conv<pads = [1, 1, 1, 1]>(X, W)
      Y = Mul(A, s)
      C = Conv<pads = [1, 1, 1, 1]>(X, W)
      Z = Mul(C, s))"),
      "fuse-scale-into-conv");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("Conv", "Mul", "Conv", "Mul"));
}

TEST(FuseAddIntoConvTest, SubOfAConstantAfterConv) {
  auto run = RunPipelineOnText(
      Model("float[1,3,5,5] Y, float[1,3,5,5] Z", ", float[1,3,1,1] c = {1.0, -2.0, 0.5}",
            R"(
      A = Conv<pads = [1, 1, 1, 1]>(X, W, B)
      Y = Sub(A, c)
      C = Conv<pads = [1, 1, 1, 1]>(X, W, B)
      Z = Sub(c, C))"),
      "fuse-add-into-conv");
  ASSERT_TRUE(run.ok()) << run.status();
  // c - conv is left alone.
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("Conv", "Conv", "Sub"));
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
}

TEST(FuseInputAffineIntoConvTest, InputScaleWithPaddingAndGroups) {
  auto run = RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[1,4,4,4] X) => (float[1,2,4,4] Y, float[1,2,4,4] Z)
    <float[2,2,3,3] W = {0.1,-0.2,0.3,0.4,0.5,-0.6,0.7,0.8,0.9,1.0,-1.1,1.2,0.1,0.2,0.3,0.4,0.5,0.6,
                         -0.7,0.8,0.9,1.0,1.1,1.2,0.1,0.2,-0.3,0.4,0.5,0.6,0.7,0.8,0.9,1.0,1.1,1.2},
     float[2,2,3,3] W2 = {0.5,-0.2,0.3,0.4,0.5,-0.6,0.7,0.8,0.9,1.0,-1.1,1.2,0.1,0.2,0.3,0.4,0.5,0.6,
                          -0.7,0.8,0.9,1.0,1.1,1.2,0.1,0.2,-0.3,0.4,0.5,0.6,0.7,0.8,0.9,1.0,1.1,1.2},
     float[4,1,1] s = {2.0, -0.5, 3.0, 0.25}, float[1] d = {8.0}>
    {
      M = Mul(X, s)
      Y = Conv<pads = [1, 1, 1, 1], group = 2>(M, W)
      N = Div(X, d)
      Z = Conv<pads = [1, 1, 1, 1], group = 2>(N, W2)
    })",
                               "fuse-input-affine-into-conv");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("Conv", "Conv"));
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
}

TEST(FuseInputAffineIntoConvTest, InputShiftOnlyWithoutPadding) {
  auto run = RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[1,4,5,5] X) => (float[1,2,3,3] Y, float[1,2,2,2] Z, float[1,2,5,5] U, float[1,2,5,5] V)
    <float[2,2,3,3] W = {0.1,-0.2,0.3,0.4,0.5,-0.6,0.7,0.8,0.9,1.0,-1.1,1.2,0.1,0.2,0.3,0.4,0.5,0.6,
                         -0.7,0.8,0.9,1.0,1.1,1.2,0.1,0.2,-0.3,0.4,0.5,0.6,0.7,0.8,0.9,1.0,1.1,1.2},
     float[2] B = {0.5, -1.0}, float[2] B2 = {0.25, 1.0}, float[1,4,1,1] a = {2.0, -0.5, 3.0, 0.25}>
    {
      M = Add(a, X)
      Y = Conv<group = 2>(M, W, B2)
      N = Sub(X, a)
      Z = Conv<group = 2, strides = [2, 2], auto_pad = "VALID">(N, W)
      P = Add(X, a)
      U = Conv<group = 2, pads = [1, 1, 1, 1]>(P, W, B)
      Q = Add(X, a)
      V = Conv<group = 2, auto_pad = "SAME_UPPER">(Q, W, B)
    })",
                               "fuse-input-affine-into-conv");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()),
              ElementsAre("Conv", "Conv", "Add", "Conv", "Add", "Conv"));
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
}

TEST(FuseInputAffineIntoConvTest, SharedOrNonChannelConstantsStay) {
  auto run = RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[1,2,4,4] X) => (float[1,1,4,4] Y, float[1,2,4,4] M, float[1,1,4,4] Z)
    <float[1,2,1,1] W = {0.5, -1.0}, float[2,1,1] s = {2.0, 3.0}, float[4] row = {1.0, 2.0, 3.0, 4.0}>
    {
      M = Mul(X, s)
      Y = Conv(M, W)
      N = Mul(X, row)
      Z = Conv(N, W)
    })",
                               "fuse-input-affine-into-conv");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("Mul", "Conv", "Mul", "Conv"));
}

}  // namespace
}  // namespace onnx_opt::passes
