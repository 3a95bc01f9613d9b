// Matrix products, signal processing, losses and reductions.
#include "gtest/gtest.h"
#include "schema/testing/inference_test_util.h"

namespace onnx_opt::schema::inference {
namespace {

using testing::InferGraph;
using testing::TypeOf;
using testing::WarningsOf;

TEST(MatMulTest, NumpySemantics) {
  EXPECT_EQ(TypeOf("g (float[N,3] A, float[3,4] B) => (Y) { Y = MatMul(A, B) }"),
            "tensor(float)[N,4]");
  EXPECT_EQ(TypeOf("g (float[2,1,N,3] A, float[5,3,4] B) => (Y) { Y = MatMul(A, B) }"),
            "tensor(float)[2,5,N,4]");
  EXPECT_EQ(TypeOf("g (float[3] A, float[3,4] B) => (Y) { Y = MatMul(A, B) }"), "tensor(float)[4]");
  EXPECT_EQ(TypeOf("g (float[2,3] A, float[3] B) => (Y) { Y = MatMul(A, B) }"), "tensor(float)[2]");
  EXPECT_EQ(TypeOf("g (float[3] A, float[3] B) => (Y) { Y = MatMul(A, B) }"), "tensor(float)[]");
  EXPECT_NE(WarningsOf("g (float[2,3] A, float[4,5] B) => (Y) { Y = MatMul(A, B) }"), "");
  EXPECT_EQ(TypeOf("g (uint8[2,3] A, uint8[3,4] B) => (Y) { Y = MatMulInteger(A, B) }"),
            "tensor(int32)[2,4]");
}

TEST(MatMulTest, Gemm) {
  EXPECT_EQ(TypeOf("g (float[3,N] A, float[5,3] B, float[5] C) => (Y) "
                   "{ Y = Gemm<transA = 1, transB = 1>(A, B, C) }"),
            "tensor(float)[N,5]");
}

TEST(EinsumTest, ExplicitImplicitAndEllipsis) {
  EXPECT_EQ(
      TypeOf(
          "g (float[2,3] A, float[3,4] B) => (Y) { Y = Einsum<equation = \"ij,jk->ik\">(A, B) }"),
      "tensor(float)[2,4]");
  EXPECT_EQ(
      TypeOf("g (float[2,3] A, float[3,4] B) => (Y) { Y = Einsum<equation = \"ij,jk\">(A, B) }"),
      "tensor(float)[2,4]");
  EXPECT_EQ(TypeOf("g (float[N,5,2,3] A, float[N,5,3,4] B) => (Y) "
                   "{ Y = Einsum<equation = \"...ij,...jk->...ik\">(A, B) }"),
            "tensor(float)[N,5,2,4]");
  EXPECT_EQ(TypeOf("g (float[3,3] A) => (Y) { Y = Einsum<equation = \"ii->i\">(A) }"),
            "tensor(float)[3]");
  EXPECT_EQ(TypeOf("g (float[3,4] A) => (Y) { Y = Einsum<equation = \"ij->\">(A) }"),
            "tensor(float)[]");
}

TEST(MathTest, DetAndCumulative) {
  EXPECT_EQ(TypeOf("g (float[N,3,3] X) => (Y) { Y = Det(X) }"), "tensor(float)[N]");
  EXPECT_EQ(TypeOf("g (float[N,3] X, int64 A) => (Y) { Y = CumSum(X, A) }"), "tensor(float)[N,3]");
}

TEST(SignalTest, DftStftWindows) {
  EXPECT_EQ(TypeOf("g (float[1,10,10,2] X) => (Y) { Y = DFT(X) }", "Y", 20),
            "tensor(float)[1,10,10,2]");
  EXPECT_EQ(TypeOf("g (float[1,10,10,1] X) => (Y) { Y = DFT<onesided = 1>(X) }", "Y", 20),
            "tensor(float)[1,10,6,2]");
  EXPECT_EQ(
      TypeOf("g (float[1,6,10,2] X) => (Y) { Y = DFT<axis = 1, inverse = 1, onesided = 1>(X) }",
             "Y", 17),
      "tensor(float)[1,10,10,1]");
  EXPECT_EQ(TypeOf("g (float[1,128,1] S) => (Y) <int64 step = {8}, int64 len = {16}> "
                   "{ Y = STFT(S, step, , len) }",
                   "Y", 17),
            "tensor(float)[1,15,9,2]");
  EXPECT_EQ(
      TypeOf("g () => (Y) <int32 n = {10}> { Y = HannWindow<output_datatype = 11>(n) }", "Y", 17),
      "tensor(double)[10]");
  EXPECT_EQ(TypeOf("g (int64 n) => (Y) { Y = BlackmanWindow(n) }", "Y", 17), "tensor(float)[?]");
}

TEST(LossTest, ReductionDecidesTheShape) {
  EXPECT_EQ(
      TypeOf("g (float[N,C,5] X, int64[N,5] T) => (Y) { Y = NegativeLogLikelihoodLoss(X, T) }"),
      "tensor(float)[]");
  EXPECT_EQ(TypeOf("g (float[N,C,5] X, int64[N,5] T) => (Y) "
                   "{ Y = NegativeLogLikelihoodLoss<reduction = \"none\">(X, T) }"),
            "tensor(float)[N,5]");
  auto r =
      InferGraph("g (float[N,C] X, int64[N] T) => (Y, L) { Y, L = SoftmaxCrossEntropyLoss(X, T) }");
  EXPECT_EQ(r.Type("Y"), "tensor(float)[]");
  EXPECT_EQ(r.Type("L"), "tensor(float)[N,C]");
}

TEST(ReduceTest, AxesAsAttributeOrInput) {
  EXPECT_EQ(TypeOf("g (float[N,3,4] X) => (Y) { Y = ReduceMean<axes = [1]>(X) }", "Y", 13),
            "tensor(float)[N,1,4]");
  EXPECT_EQ(TypeOf("g (float[N,3,4] X) => (Y) <int64[2] a = {-1, 1}> "
                   "{ Y = ReduceMean<keepdims = 0>(X, a) }",
                   "Y", 18),
            "tensor(float)[N]");
  EXPECT_EQ(TypeOf("g (float[N,3,4] X) => (Y) <int64[1] a = {0}> { Y = ReduceSum(X, a) }", "Y", 13),
            "tensor(float)[1,3,4]");
  EXPECT_EQ(TypeOf("g (float[N,3,4] X) => (Y) { Y = ReduceMax<keepdims = 0>(X) }"),
            "tensor(float)[]");
  EXPECT_EQ(
      TypeOf("g (float[N,3,4] X) => (Y) { Y = ReduceProd<noop_with_empty_axes = 1>(X) }", "Y", 18),
      "tensor(float)[N,3,4]");
  EXPECT_EQ(TypeOf("g (float[N,3,4] X, int64[1] a) => (Y) { Y = ReduceL2(X, a) }", "Y", 18),
            "tensor(float)[?,?,?]");
  EXPECT_EQ(
      TypeOf("g (float[N,3,4] X, int64[2] a) => (Y) { Y = ReduceL1<keepdims = 0>(X, a) }", "Y", 18),
      "tensor(float)[?]");
  EXPECT_NE(WarningsOf("g (float[2,3] X) => (Y) { Y = ReduceSum<axes = [2]>(X) }", 11), "");
}

TEST(ReduceTest, ArgMaxAndTopK) {
  EXPECT_EQ(TypeOf("g (float[N,3,4] X) => (Y) { Y = ArgMax<axis = 1>(X) }"),
            "tensor(int64)[N,1,4]");
  EXPECT_EQ(TypeOf("g (float[N,3,4] X) => (Y) { Y = ArgMin<axis = -1, keepdims = 0>(X) }"),
            "tensor(int64)[N,3]");
  auto r = InferGraph("g (float[N,10] X) => (V, I) <int64[1] k = {3}> { V, I = TopK(X, k) }");
  EXPECT_EQ(r.Type("V"), "tensor(float)[N,3]");
  EXPECT_EQ(r.Type("I"), "tensor(int64)[N,3]");
  r = InferGraph("g (float[N,10] X, int64[1] k) => (V, I) { V, I = TopK<axis = 0>(X, k) }");
  EXPECT_EQ(r.Type("V"), "tensor(float)[?,10]");
  EXPECT_NE(WarningsOf("g (float[2,3] X) => (V, I) <int64[1] k = {4}> { V, I = TopK(X, k) }"), "");
}

}  // namespace
}  // namespace onnx_opt::schema::inference
