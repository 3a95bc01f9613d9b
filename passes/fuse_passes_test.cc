// Tests for the fusion passes; every rewrite is also checked numerically.
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "passes/testing/pass_test_util.h"

namespace onnx_opt::passes {
namespace {

using ::onnx_opt::passes::testing::ExpectSameOutputs;
using ::onnx_opt::passes::testing::OpTypes;
using ::onnx_opt::passes::testing::RunPipelineOnText;
using ::testing::ElementsAre;

constexpr char kConvBn[] = R"(
  <ir_version: 8, opset_import: ["" : 17]>
  g (float[1,2,5,5] X) => (float[1,3,5,5] Y)
  <float[3,2,3,3] W = {0.1,-0.2,0.3,0.4,0.5,-0.6,0.7,0.8,0.9,1.0,-1.1,1.2,0.1,0.2,0.3,0.4,0.5,0.6,
                       -0.7,0.8,0.9,1.0,1.1,1.2,0.1,0.2,-0.3,0.4,0.5,0.6,0.7,0.8,0.9,1.0,1.1,1.2,
                       0.1,0.2,0.3,-0.4,0.5,0.6,0.7,0.8,0.9,1.0,1.1,1.2,0.1,0.2,0.3,0.4,0.5,0.6},
   float[3] B = {0.5, -0.5, 0.25},
   float[3] scale = {1.5, 0.5, 2.0}, float[3] bias = {0.1, 0.2, 0.3},
   float[3] mean = {0.05, -0.1, 0.2}, float[3] var = {0.9, 1.1, 0.3}>
  {
    C = Conv<pads = [1, 1, 1, 1]>(X, W, B)
    Y = BatchNormalization<epsilon = 0.001>(C, scale, bias, mean, var)
  })";

TEST(FuseBatchNormTest, FoldsIntoConvWeightsAndBias) {
  auto run = RunPipelineOnText(kConvBn, "fuse-bn-into-conv");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("Conv"));
  EXPECT_EQ(run->after->graph().outputs()[0]->name(), "Y");
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
}

TEST(FuseBatchNormTest, ConvTransposeWithGroups) {
  auto run = RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[1,4,3,3] X) => (float[1,4,4,4] Y)
    <float[4,2,2,2] W = {0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,-0.1,-0.2,-0.3,-0.4,-0.5,-0.6,-0.7,-0.8,
                         1.1,1.2,1.3,1.4,1.5,1.6,1.7,1.8,-1.1,-1.2,-1.3,-1.4,-1.5,-1.6,-1.7,-1.8},
     float[4] scale = {1.5, 0.5, 2.0, 1.0}, float[4] bias = {0.1, 0.2, 0.3, 0.4},
     float[4] mean = {0.05, -0.1, 0.2, 0.0}, float[4] var = {0.9, 1.1, 0.3, 2.0}>
    {
      C = ConvTranspose<group = 2>(X, W)
      Y = BatchNormalization(C, scale, bias, mean, var)
    })",
                               "fuse-bn-into-conv");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("ConvTranspose"));
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
}

TEST(FuseBatchNormTest, LeavesTrainingModeAndSharedConvAlone) {
  auto run = RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[1,1,3,3] X) => (float[1,1,3,3] Y, float[1,1,3,3] Z, float[1] M)
    <float[1,1,1,1] W = {2.0}, float[1] s = {1.0}, float[1] b = {0.0}, float[1] m = {0.0}, float[1] v = {1.0}>
    {
      C = Conv(X, W)
      Y = BatchNormalization(C, s, b, m, v)
      Z = Relu(C)
      D = Conv(X, W)
      Z2, M, V2 = BatchNormalization<training_mode = 1>(D, s, b, m, v)
    })",
                               "fuse-bn-into-conv");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()),
              ElementsAre("Conv", "BatchNormalization", "Relu", "Conv", "BatchNormalization"));
}

TEST(FuseBatchNormTest, LeavesWeightsSharedByTwoConvsAlone) {
  // Fusing either would keep the shared W beside its scaled copy: the model would grow.
  auto run = RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[1,1,3,3] X) => (float[1,1,3,3] Y, float[1,1,3,3] Z)
    <float[1,1,1,1] W = {2.0}, float[1] s = {1.5}, float[1] b = {0.5}, float[1] m = {0.25}, float[1] v = {4.0}>
    {
      C = Conv(X, W)
      Y = BatchNormalization(C, s, b, m, v)
      D = Conv(X, W)
      Z = BatchNormalization(D, s, b, m, v)
    })",
                               "fuse-bn-into-conv");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()),
              ElementsAre("Conv", "BatchNormalization", "Conv", "BatchNormalization"));
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
}

TEST(FuseAddIntoConvTest, PerChannelAndScalarConstants) {
  auto run = RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[1,2,4,4] X) => (float[1,2,3,3] Y, float[1,2,3,3] Z)
    <float[2,2,2,2] W = {0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,-0.1,-0.2,-0.3,-0.4,-0.5,-0.6,-0.7,-0.8},
     float[2,1,1] c = {1.0, -2.0}, float s = {0.5}>
    {
      A = Conv(X, W)
      Y = Add(A, c)
      B = Conv(X, W)
      Z = Add(s, B)
    })",
                               "fuse-add-into-conv");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("Conv", "Conv"));
  EXPECT_EQ(run->after->graph().first_node()->num_inputs(), 3u);
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
}

TEST(FuseAddIntoConvTest, KeepsAddsThatAreNotPerChannel) {
  auto run = RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[1,2,3,3] X) => (float[1,2,2,2] Y)
    <float[2,2,2,2] W = {0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,-0.1,-0.2,-0.3,-0.4,-0.5,-0.6,-0.7,-0.8},
     float[2,2] c = {1.0, -2.0, 3.0, 4.0}>
    {
      A = Conv(X, W)
      Y = Add(A, c)
    })",
                               "fuse-add-into-conv");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("Conv", "Add"));
}

TEST(FuseTransposesTest, ComposesPermutationsAndRemovesIdentity) {
  auto run = RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2,3,4] X) => (float[4,2,3] Y, float[2,3,4] Z) {
      A = Transpose<perm = [1, 2, 0]>(X)
      Y = Transpose<perm = [1, 2, 0]>(A)
      B = Transpose<perm = [2, 0, 1]>(X)
      Z = Transpose<perm = [1, 2, 0]>(B)
    })",
                               "fuse-transposes,nops,dead-nodes");
  ASSERT_TRUE(run.ok()) << run.status();
  // Y = Transpose(X, [2,0,1]); Z = X, so the last Transpose stays as the output's producer.
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("Transpose", "Transpose"));
  EXPECT_EQ(run->after->graph().first_node()->GetInts("perm"), (std::vector<int64_t>{2, 0, 1}));
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
}

TEST(FuseReshapesTest, ReshapeChainsAndSqueezeOfUnsqueeze) {
  auto run = RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2,3,4] X) => (float[6,4] Y, float[2,3,4] Z, float[6,2,2] K)
    <int64[2] s1 = {4, 6}, int64[2] s2 = {6, 4}, int64[3] s3 = {0, 2, 2}, int64[1] axes = {1}>
    {
      A = Reshape(X, s1)
      Y = Reshape(A, s2)
      U = Unsqueeze(X, axes)
      Z = Squeeze(U, axes)
      B = Reshape(X, s2)
      K = Reshape(B, s3)
    })",
                               "fuse-reshapes,dead-nodes");
  ASSERT_TRUE(run.ok()) << run.status();
  // Y reads X directly. Z would be X itself, but X is a graph input and cannot be renamed Z, so the
  // Squeeze stays. K's shape has a 0 that copies B's first dim, so that chain stays too.
  EXPECT_THAT(OpTypes(run->after->graph()),
              ElementsAre("Reshape", "Unsqueeze", "Squeeze", "Reshape", "Reshape"));
  EXPECT_EQ(run->after->graph().first_node()->input(0)->name(), "X");
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
}

TEST(FuseReshapesTest, SqueezeOfUnsqueezeInsideTheGraph) {
  auto run = RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 11]>
    g (float[2,3] X) => (float[2,3] Y) {
      U = Unsqueeze<axes = [0]>(X)
      S = Squeeze<axes = [0]>(U)
      Y = Relu(S)
    })",
                               "fuse-reshapes");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("Relu"));
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
}

TEST(MergeConstantsTest, ChainedMulsAndAddsBecomeOneEach) {
  auto run = RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2,3] X) => (float[2,3] Y, float[2,3] Z)
    <float[3] a = {1.0, 2.0, 3.0}, float b = {0.5}, float[2,1] c = {1.0, -1.0}, float d = {4.0}>
    {
      M = Mul(X, a)
      Y = Mul(b, M)
      A = Add(X, c)
      Z = Add(A, d)
    })",
                               "merge-constants,fold-constants");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("Mul", "Add"));
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
}

TEST(FuseReduceKeepdimsTest, AttributeAndInputAxes) {
  for (const char* model : {R"(
      <ir_version: 8, opset_import: ["" : 11]>
      g (float[2,3,4] X) => (float[2,1,4] Y) {
        R = ReduceMax<axes = [1], keepdims = 0>(X)
        Y = Unsqueeze<axes = [1]>(R)
      })",
                            R"(
      <ir_version: 8, opset_import: ["" : 18]>
      g (float[2,3,4] X) => (float[1,3,1] Y) <int64[2] ra = {2, 0}, int64[2] ua = {0, 2}> {
        R = ReduceSum<keepdims = 0>(X, ra)
        Y = Unsqueeze(R, ua)
      })"}) {
    auto run = RunPipelineOnText(model, "fuse-reduce-keepdims");
    ASSERT_TRUE(run.ok()) << run.status();
    ASSERT_EQ(run->after->graph().num_nodes(), 1u);
    EXPECT_EQ(run->after->graph().first_node()->GetInt("keepdims", 0), 1);
    EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
  }
}

TEST(FuseReduceKeepdimsTest, DifferentOrNegativeAxesStay) {
  auto run = RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 11]>
    g (float[2,3,4] X) => (float[2,4,1] Y, float[2,3,1] Z) {
      R = ReduceMax<axes = [1], keepdims = 0>(X)
      Y = Unsqueeze<axes = [2]>(R)
      S = ReduceMax<axes = [-1], keepdims = 0>(X)
      Z = Unsqueeze<axes = [-1]>(S)
    })",
                               "fuse-reduce-keepdims");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_EQ(run->after->graph().num_nodes(), 4u);
}

TEST(FuseLogSoftmaxTest, BecomesOneNodeAtOldAndNewOpsets) {
  for (const char* opset : {"11", "17"}) {
    auto run = RunPipelineOnText(std::string(R"(
      <ir_version: 8, opset_import: ["" : )") +
                                     opset + R"(]>
      g (float[2,3,4] X) => (float[2,3,4] Y) {
        S = Softmax<axis = 1>(X)
        Y = Log(S)
      })",
                                 "fuse-log-softmax");
    ASSERT_TRUE(run.ok()) << run.status();
    EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("LogSoftmax"));
    EXPECT_EQ(run->after->graph().first_node()->GetInt("axis", 0), 1);
    EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
  }
}

TEST(FuseLayerNormTest, AttributeAxesAtOpset17) {
  auto run = RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2,3,4] X) => (float[2,3,4] Y)
    <float eps = {0.00001}, float two = {2.0}, float[4] gamma = {1.0, 0.5, 2.0, -1.0},
     float[4] beta = {0.1, 0.2, 0.3, 0.4}>
    {
      m = ReduceMean<axes = [-1]>(X)
      d = Sub(X, m)
      p = Pow(d, two)
      v = ReduceMean<axes = [-1]>(p)
      ve = Add(v, eps)
      s = Sqrt(ve)
      n = Div(d, s)
      y = Mul(n, gamma)
      Y = Add(y, beta)
    })",
                               "fuse-layernorm");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("LayerNormalization"));
  EXPECT_EQ(run->after->graph().outputs()[0]->name(), "Y");
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
}

TEST(FuseLayerNormTest, InputAxesAtOpset18AndNotBelow17) {
  const std::string body = R"(
    g (float[2,4] X) => (float[2,4] Y)
    <float eps = {0.001}, int64[1] axes = {-1}, float[4] gamma = {1.0, 0.5, 2.0, -1.0}>
    {
      m = ReduceMean(X, axes)
      d = Sub(X, m)
      p = Mul(d, d)
      v = ReduceMean(p, axes)
      ve = Add(eps, v)
      s = Sqrt(ve)
      n = Div(d, s)
      Y = Mul(n, gamma)
    })";
  auto run =
      RunPipelineOnText(R"(<ir_version: 8, opset_import: ["" : 18]>)" + body, "fuse-layernorm");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("LayerNormalization"));
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));

  auto old =
      RunPipelineOnText(R"(<ir_version: 8, opset_import: ["" : 16]>)" + body, "fuse-layernorm");
  ASSERT_TRUE(old.ok()) << old.status();
  EXPECT_EQ(old->after->graph().num_nodes(), 8u);  // LayerNormalization does not exist at opset 16
}

TEST(FuseGeluTest, EveryFactorOrderAtOpset20) {
  const char* bodies[] = {
      // (x * (1 + erf(x / sqrt2))) * 0.5
      "a = Div(X, sqrt2) b = Erf(a) c = Add(b, one) d = Mul(X, c) Y = Mul(d, half)",
      // (x * 0.5) * (1 + erf(x * 1/sqrt2))
      "a = Mul(X, inv_sqrt2) b = Erf(a) c = Add(one, b) h = Mul(X, half) Y = Mul(h, c)",
      // ((1 + erf) * 0.5) * x
      "a = Div(X, sqrt2) b = Erf(a) c = Add(b, one) h = Mul(c, half) Y = Mul(h, X)",
  };
  for (const char* body : bodies) {
    auto run = RunPipelineOnText(std::string(R"(
      <ir_version: 9, opset_import: ["" : 20]>
      g (float[2,5] X) => (float[2,5] Y)
      <float sqrt2 = {1.4142135}, float inv_sqrt2 = {0.70710678}, float one = {1.0}, float half = {0.5}>
      { )") + body + " }",
                                 "fuse-gelu");
    ASSERT_TRUE(run.ok()) << run.status();
    EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("Gelu")) << body;
    EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
  }
}

TEST(FuseGeluTest, NotBeforeOpset20) {
  auto run = RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 18]>
    g (float[2,5] X) => (float[2,5] Y) <float sqrt2 = {1.4142135}, float one = {1.0}, float half = {0.5}>
    { a = Div(X, sqrt2) b = Erf(a) c = Add(b, one) d = Mul(X, c) Y = Mul(d, half) })",
                               "fuse-gelu");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_EQ(run->after->graph().num_nodes(), 5u);
}

TEST(FuseGemmTest, MatMulAddAndTransposesBecomeOneGemm) {
  auto run = RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[N,4] X, float[3,4] W) => (float[N,3] Y)
    <float[3] b = {0.5, -1.0, 2.0}>
    {
      Wt = Transpose<perm = [1, 0]>(W)
      M = MatMul(X, Wt)
      Y = Add(M, b)
    })",
                               "infer-shapes,fuse-matmul-add,fuse-transpose-gemm");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("Gemm"));
  EXPECT_EQ(run->after->graph().first_node()->GetInt("transB", 0), 1);
  equivalence::EquivalenceOptions options;
  options.dims["N"] = 5;
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after, options));
}

TEST(FuseGemmTest, LeavesBatchedAndIntegerMatMulAlone) {
  auto run = RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2,5,4] X, int32[5,4] I, int32[4,3] J) => (float[2,5,3] Y, int32[5,3] Z)
    <float[4,3] W = {1,2,3,4,5,6,7,8,9,10,11,12}, float[3] b = {0.5, -1.0, 2.0}, int32[3] c = {1, 2, 3}>
    {
      M = MatMul(X, W)
      Y = Add(M, b)
      K = MatMul(I, J)
      Z = Add(K, c)
    })",
                               "infer-shapes,fuse-matmul-add");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("MatMul", "Add", "MatMul", "Add"));
}

TEST(DefaultPipelineTest, ShrinksTheBundledStyleCnn) {
  auto run = RunPipelineOnText(kConvBn, "default");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("Conv"));
  // Only the fused weight and bias remain.
  EXPECT_EQ(run->after->graph().initializers().size(), 2u);
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
}

}  // namespace
}  // namespace onnx_opt::passes
