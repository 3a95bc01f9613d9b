#include "gtest/gtest.h"
#include "schema/testing/inference_test_util.h"

namespace onnx_opt::schema::inference {
namespace {

using testing::TypeOf;
using testing::WarningsOf;

TEST(ElementwiseTest, UnaryKeepsTypeAndShape) {
  EXPECT_EQ(TypeOf("g (float[N,3] X) => (Y) { Y = Sigmoid(X) }"), "tensor(float)[N,3]");
  EXPECT_EQ(TypeOf("g (float16[2] X) => (Y) { Y = Gelu<approximate = \"tanh\">(X) }", "Y", 20),
            "tensor(float16)[2]");
  EXPECT_EQ(TypeOf("g (int32[?,4] X) => (Y) { Y = Abs(X) }"), "tensor(int32)[?,4]");
  EXPECT_EQ(TypeOf("g (float X) => (Y) { Y = Exp(X) }"), "tensor(float)[]");
  EXPECT_EQ(TypeOf("g (float[] X) => (Y) { Y = Relu(X) }"), "tensor(float)");
  EXPECT_EQ(TypeOf("g (float[2,2] X) => (Y) { Y = IsNaN(X) }"), "tensor(bool)[2,2]");
  EXPECT_EQ(TypeOf("g (float[3,4] X) => (Y) { Y = Softmax<axis = 0>(X) }"), "tensor(float)[3,4]");
  EXPECT_EQ(TypeOf("g (float[3] X, float m, float n) => (Y) { Y = Clip(X, m, n) }"),
            "tensor(float)[3]");
}

TEST(ElementwiseTest, BinaryBroadcasts) {
  EXPECT_EQ(TypeOf("g (float[N,1,5] A, float[3,1] B) => (Y) { Y = Add(A, B) }"),
            "tensor(float)[N,3,5]");
  EXPECT_EQ(TypeOf("g (float[N,M] A, float[N,M] B) => (Y) { Y = Mul(A, B) }"),
            "tensor(float)[N,M]");
  EXPECT_EQ(TypeOf("g (float[N] A, float[M] B) => (Y) { Y = Sub(A, B) }"), "tensor(float)[?]");
  EXPECT_EQ(TypeOf("g (int64[2,3] A, int64 B) => (Y) { Y = Div(A, B) }"), "tensor(int64)[2,3]");
  EXPECT_EQ(TypeOf("g (float[2,3] A, float[3] B) => (Y) { Y = Less(A, B) }"), "tensor(bool)[2,3]");
  EXPECT_EQ(TypeOf("g (bool[4] A, bool[1] B) => (Y) { Y = Xor(A, B) }"), "tensor(bool)[4]");
  EXPECT_EQ(
      TypeOf("g (uint8[4] A, uint8[4] B) => (Y) { Y = BitShift<direction = \"LEFT\">(A, B) }"),
      "tensor(uint8)[4]");
  EXPECT_EQ(TypeOf("g (float[2,3] A, int64[3] B) => (Y) { Y = Pow(A, B) }"), "tensor(float)[2,3]");
  EXPECT_EQ(TypeOf("g (float[2,3,4] X, float[3,1] S) => (Y) { Y = PRelu(X, S) }"),
            "tensor(float)[2,3,4]");
  EXPECT_EQ(TypeOf("g (float[2] A, float[] B) => (Y) { Y = Add(A, B) }"), "tensor(float)");
}

TEST(ElementwiseTest, IncompatibleShapesWarn) {
  EXPECT_NE(WarningsOf("g (float[2,3] A, float[2] B) => (Y) { Y = Mul(A, B) }"), "");
}

TEST(ElementwiseTest, LegacyBroadcastKeepsTheFirstShape) {
  // Before opset 7, B broadcasts to A (with broadcast=1): the result has A's shape.
  EXPECT_EQ(
      TypeOf("g (float[2,3,4] A, float[3] B) => (Y) { Y = Add<broadcast = 1, axis = 1>(A, B) }",
             "Y", 6),
      "tensor(float)[2,3,4]");
}

TEST(ElementwiseTest, VariadicAndWhere) {
  EXPECT_EQ(TypeOf("g (float[3,1] A, float[4] B, float C) => (Y) { Y = Max(A, B, C) }"),
            "tensor(float)[3,4]");
  EXPECT_EQ(TypeOf("g (float[3] A) => (Y) { Y = Sum(A) }"), "tensor(float)[3]");
  EXPECT_EQ(TypeOf("g (bool[N,1] C, int64[5] X, int64 Z) => (Y) { Y = Where(C, X, Z) }"),
            "tensor(int64)[N,5]");
}

TEST(ElementwiseTest, CastAndCastLike) {
  EXPECT_EQ(TypeOf("g (float[N,3] X) => (Y) { Y = Cast<to = 7>(X) }"), "tensor(int64)[N,3]");
  EXPECT_EQ(TypeOf("g (float[N,3] X, float16 T) => (Y) { Y = CastLike(X, T) }"),
            "tensor(float16)[N,3]");
  EXPECT_NE(WarningsOf("g (float[3] X) => (Y) { Y = Cast<to = 99>(X) }"), "");
  EXPECT_EQ(TypeOf("g (float[3] X) => (Y) { Y = Cast<to = \"INT32\">(X) }", "Y", 1),
            "tensor(int32)[3]");
}

TEST(ElementwiseTest, RandomLikeAndEyeLikeTakeDtype) {
  EXPECT_EQ(TypeOf("g (float[2,3] X) => (Y) { Y = RandomUniformLike<dtype = 11>(X) }"),
            "tensor(double)[2,3]");
  EXPECT_EQ(TypeOf("g (int32[4,4] X) => (Y) { Y = EyeLike(X) }"), "tensor(int32)[4,4]");
  EXPECT_EQ(TypeOf("g (float[5] X) => (Y) { Y = Bernoulli(X) }"), "tensor(float)[5]");
}

TEST(ElementwiseTest, ShapeValuesThroughArithmetic) {
  // Shape(x)[0] + 1, Shape(x)[1] - Shape(x)[1], Max with 1: all known where the inputs are.
  EXPECT_EQ(TypeOf(R"(g (float[4,N] X) => (Y) <int64[1] one = {1}> {
    s = Shape(X)
    a = Add(s, one)
    b = Sub(s, s)
    c = Max(a, one)
    d = Concat<axis = 0>(a, b, c)
    Y = ConstantOfShape(d)
  })"),
            "tensor(float)[5,?,0,0,5,?]");
}

}  // namespace
}  // namespace onnx_opt::schema::inference
