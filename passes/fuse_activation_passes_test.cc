// Tests for the activation, RMS normalization and Pad fusions; every rewrite is also checked
// numerically.
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "passes/testing/pass_test_util.h"

namespace onnx_opt::passes {
namespace {

using ::onnx_opt::passes::testing::ExpectSameOutputs;
using ::onnx_opt::passes::testing::OpTypes;
using ::onnx_opt::passes::testing::RunPipelineOnText;
using ::testing::ElementsAre;

TEST(FuseHardSigmoidTest, DivAndMulFormsWithClipInputsAndAttributes) {
  for (const char* model : {R"(
      <ir_version: 8, opset_import: ["" : 17]>
      g (float[2,8] X) => (float[2,8] Y, float[2,8] Z) <float three = {3.0}, float zero = {0.0}, float six = {6.0},
                                                       float sixth = {0.16666667}> {
        A = Add(X, three)
        C = Clip(A, zero, six)
        Y = Div(C, six)
        B = Add(three, X)
        D = Clip(B, zero, six)
        Z = Mul(sixth, D)
      })",
                            R"(
      <ir_version: 8, opset_import: ["" : 9]>
      g (float[2,8] X) => (float[2,8] Y) <float three = {3.0}, float six = {6.0}> {
        A = Add(X, three)
        C = Clip<min = 0.0, max = 6.0>(A)
        Y = Div(C, six)
      })"}) {
    auto run = RunPipelineOnText(model, "fuse-hard-sigmoid");
    ASSERT_TRUE(run.ok()) << run.status();
    for (const std::string& op : OpTypes(run->after->graph())) EXPECT_EQ(op, "HardSigmoid");
    EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
  }
}

TEST(FuseHardSigmoidTest, WrongConstantsOrSharedValuesStay) {
  auto run = RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[4] X) => (float[4] Y, float[4] Z, float[4] C2) <float two = {2.0}, float three = {3.0}, float zero = {0.0},
                                                             float six = {6.0}> {
      A = Add(X, two)
      C = Clip(A, zero, six)
      Y = Div(C, six)
      A2 = Add(X, three)
      C2 = Clip(A2, zero, six)
      Z = Div(C2, six)
    })",
                               "fuse-hard-sigmoid");
  ASSERT_TRUE(run.ok()) << run.status();
  // x + 2 is not hard sigmoid; C2 is a graph output, so its Clip must stay.
  EXPECT_EQ(run->after->graph().num_nodes(), 6u);
}

TEST(FuseHardSwishTest, ProductFormsBecomeHardSwish) {
  auto run = RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2,8] X) => (float[2,8] Y, float[2,8] Z) <float three = {3.0}, float zero = {0.0}, float six = {6.0}> {
      A = Add(X, three)
      C = Clip(A, zero, six)
      M = Mul(X, C)
      Y = Div(M, six)
      B = Add(X, three)
      D = Clip(B, zero, six)
      S = Div(D, six)
      Z = Mul(S, X)
    })",
                               "fuse-hard-sigmoid,fuse-hard-swish");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("HardSwish", "HardSwish"));
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
}

TEST(FuseHardSwishTest, NeedsOpset14) {
  auto run = RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 13]>
    g (float[8] X) => (float[8] Y) {
      H = HardSigmoid<alpha = 0.16666667, beta = 0.5>(X)
      Y = Mul(X, H)
    })",
                               "fuse-hard-swish");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("HardSigmoid", "Mul"));
}

TEST(FuseSoftplusMishTest, LogExpAndMishChains) {
  auto run = RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 18]>
    g (float[2,8] X) => (float[2,8] Y, float[2,8] Z) <float one = {1.0}> {
      E = Exp(X)
      A = Add(one, E)
      Y = Log(A)
      E2 = Exp(X)
      A2 = Add(E2, one)
      S = Log(A2)
      T = Tanh(S)
      Z = Mul(X, T)
    })",
                               "fuse-softplus,fuse-mish");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("Softplus", "Mish"));
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
}

TEST(FuseSoftplusMishTest, MishNeedsOpset18AndTheSameX) {
  auto run = RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 18]>
    g (float[8] X, float[8] W) => (float[8] Z) {
      S = Softplus(X)
      T = Tanh(S)
      Z = Mul(W, T)
    })",
                               "fuse-mish");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_EQ(run->after->graph().num_nodes(), 3u);
  auto old = RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[8] X) => (float[8] Z) {
      S = Softplus(X)
      T = Tanh(S)
      Z = Mul(X, T)
    })",
                               "fuse-mish");
  ASSERT_TRUE(old.ok()) << old.status();
  EXPECT_EQ(old->after->graph().num_nodes(), 3u);
}

constexpr char kRmsNorm[] = R"(
  <ir_version: 10, opset_import: ["" : 23]>
  g (float[2,3,4] X) => (float[2,3,4] Y, float[2,3,4] Z)
  <float two = {2.0}, float eps = {1e-6}, int64[1] axes = {-1}, float[4] gamma = {0.5, 1.0, 1.5, 2.0}> {
    P = Pow(X, two)
    M = ReduceMean(P, axes)
    A = Add(M, eps)
    R = Sqrt(A)
    N = Div(X, R)
    Y = Mul(N, gamma)
    P2 = Mul(X, X)
    M2 = ReduceMean(P2, axes)
    A2 = Add(eps, M2)
    R2 = Sqrt(A2)
    Q2 = Reciprocal(R2)
    N2 = Mul(X, Q2)
    Z = Mul(gamma, N2)
  })";

TEST(FuseRmsNormTest, PowAndMulFormsBecomeRmsNormalization) {
  auto run = RunPipelineOnText(kRmsNorm, "fuse-rmsnorm");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("RMSNormalization", "RMSNormalization"));
  EXPECT_NEAR(run->after->graph().first_node()->GetFloat("epsilon", 0), 1e-6, 1e-12);
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
}

TEST(FuseRmsNormTest, OtherAxesOrOpsetsStay) {
  std::string middle_axis = kRmsNorm;
  middle_axis.replace(middle_axis.find("axes = {-1}"), 11, "axes = {1}");
  auto run = RunPipelineOnText(middle_axis, "fuse-rmsnorm");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_EQ(run->after->graph().num_nodes(), 13u);
  std::string opset22 = kRmsNorm;
  opset22.replace(opset22.find("\"\" : 23"), 7, "\"\" : 22");
  auto old = RunPipelineOnText(opset22, "fuse-rmsnorm");
  ASSERT_TRUE(old.ok()) << old.status();
  EXPECT_EQ(old->after->graph().num_nodes(), 13u);
}

// Half precision as Hugging Face exports it: the normalization in float32 between Casts, the scale
// in float16. That is RMSNormalization's own arithmetic (stash_type 1), so it fuses; without the
// Casts (float16 all through) it computes differently and stays.
constexpr char kHalfRmsNorm[] = R"(
  <ir_version: 10, opset_import: ["" : 23]>
  g (float16[2,3,4] X) => (float16[2,3,4] Y)
  <float two = {2.0}, float eps = {1e-6}, int64[1] axes = {-1}, float16[4] gamma = {0.5, 1.0, 1.5, 2.0}> {
    X32 = Cast<to = 1>(X)
    P = Pow(X32, two)
    M = ReduceMean(P, axes)
    A = Add(M, eps)
    R = Sqrt(A)
    Q = Reciprocal(R)
    N = Mul(X32, Q)
    N16 = Cast<to = 10>(N)
    Y = Mul(gamma, N16)
  })";

TEST(FuseRmsNormTest, HalfPrecisionBetweenCastsBecomesRmsNormalization) {
  // The Casts' outputs get their types from inference, as in the default pipeline.
  auto run = RunPipelineOnText(kHalfRmsNorm, "infer-shapes,fuse-rmsnorm");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("RMSNormalization"));
  EXPECT_EQ(run->after->graph().first_node()->input(0)->name(), "X");
  EXPECT_EQ(run->result.runs[1].pattern_rewrites.count("fuse-rmsnorm/rms-normalization-half"), 1u);
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
}

TEST(FuseRmsNormTest, HalfPrecisionCastToAnotherTypeStays) {
  // x in float16, the result cast to bfloat16 and scaled there: RMSNormalization returns x's type.
  std::string to_bfloat16 = kHalfRmsNorm;
  to_bfloat16.replace(to_bfloat16.find("Cast<to = 10>"), 13, "Cast<to = 16>");
  to_bfloat16.replace(to_bfloat16.find("float16[2,3,4] Y"), 16, "bfloat16[2,3,4] Y");
  to_bfloat16.replace(to_bfloat16.find("float16[4] gamma"), 16, "bfloat16[4] gamma");
  auto run = RunPipelineOnText(to_bfloat16, "infer-shapes,fuse-rmsnorm");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_EQ(run->after->graph().num_nodes(), 9u);
}

TEST(FusePadIntoConvTest, SpatialZeroPadsJoinConvPads) {
  for (const char* model : {R"(
      <ir_version: 8, opset_import: ["" : 13]>
      g (float[1,2,5,5] X) => (float[1,1,6,5] Y)
      <int64[8] pads = {0, 0, 1, 0, 0, 0, 1, 1}, float[1,2,3,3] W = {0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9,
                                                                    -0.1,-0.2,-0.3,-0.4,-0.5,-0.6,-0.7,-0.8,-0.9}> {
        P = Pad(X, pads)
        Y = Conv<pads = [1, 0, 0, 0]>(P, W)
      })",
                            R"(
      <ir_version: 8, opset_import: ["" : 9]>
      g (float[1,2,5,5] X) => (float[1,1,5,5] Y)
      <float[1,2,3,3] W = {0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9,-0.1,-0.2,-0.3,-0.4,-0.5,-0.6,-0.7,-0.8,-0.9}> {
        P = Pad<pads = [0, 0, 1, 1, 0, 0, 1, 1]>(X)
        Y = Conv(P, W)
      })"}) {
    auto run = RunPipelineOnText(model, "fuse-pad-into-conv");
    ASSERT_TRUE(run.ok()) << run.status();
    EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("Conv"));
    EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
  }
}

TEST(FusePadIntoConvTest, AveragePoolOnlyWhenItCountsPadding) {
  auto run = RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 13]>
    g (float[1,1,4,4] X) => (float[1,1,5,5] Y, float[1,1,5,5] Z) <int64[8] pads = {0, 0, 1, 1, 0, 0, 1, 1}> {
      P = Pad(X, pads)
      Y = AveragePool<kernel_shape = [2, 2], count_include_pad = 1>(P)
      Q = Pad(X, pads)
      Z = AveragePool<kernel_shape = [2, 2]>(Q)
    })",
                               "fuse-pad-into-conv");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("AveragePool", "Pad", "AveragePool"));
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
}

TEST(FusePadIntoConvTest, NonZeroValuesChannelPadsAndReflectStay) {
  auto run = RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 13]>
    g (float[1,1,4,4] X) => (float[1,1,4,4] Y, float[1,1,3,3] Z, float[1,1,4,4] V)
    <int64[8] pads = {0, 0, 1, 1, 0, 0, 1, 1}, int64[8] cpads = {0, 1, 0, 0, 0, 0, 0, 0}, float one = {1.0},
     float[1,1,3,3] W = {1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0}, float[1,2,2,2] W2 = {1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0}> {
      P = Pad(X, pads, one)
      Y = Conv(P, W)
      Q = Pad(X, cpads)
      Z = Conv(Q, W2)
      R = Pad<mode = "reflect">(X, pads)
      V = Conv(R, W)
    })",
                               "fuse-pad-into-conv");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_EQ(run->after->graph().num_nodes(), 6u);
}

}  // namespace
}  // namespace onnx_opt::passes
