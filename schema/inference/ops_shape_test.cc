#include "gtest/gtest.h"
#include "schema/testing/inference_test_util.h"

namespace onnx_opt::schema::inference {
namespace {

using testing::TypeOf;
using testing::WarningsOf;

TEST(ShapeOpsTest, ShapeAndSize) {
  EXPECT_EQ(TypeOf("g (float[N,3,4] X) => (Y) { Y = Shape(X) }"), "tensor(int64)[3]");
  EXPECT_EQ(TypeOf("g (float[N,3,4] X) => (Y) { Y = Shape<start = -2>(X) }"), "tensor(int64)[2]");
  EXPECT_EQ(TypeOf("g (float[N,3,4] X) => (Y) { Y = Shape<start = 1, end = 10>(X) }"),
            "tensor(int64)[2]");
  EXPECT_EQ(TypeOf("g (float[] X) => (Y) { Y = Shape(X) }"), "tensor(int64)[?]");
  EXPECT_EQ(TypeOf("g (float[N,3] X) => (Y) { Y = Size(X) }"), "tensor(int64)[]");
}

TEST(ShapeOpsTest, Reshape) {
  EXPECT_EQ(TypeOf("g (float[2,3,4] X) => (Y) <int64[3] s = {0, -1, 2}> { Y = Reshape(X, s) }"),
            "tensor(float)[2,6,2]");
  EXPECT_EQ(TypeOf("g (float[N,3,4] X) => (Y) <int64[2] s = {0, 12}> { Y = Reshape(X, s) }"),
            "tensor(float)[N,12]");
  // -1 absorbs the symbol: N*3*4 / 12 = N.
  EXPECT_EQ(TypeOf("g (float[N,3,4] X) => (Y) <int64[2] s = {-1, 12}> { Y = Reshape(X, s) }"),
            "tensor(float)[N,12]");
  EXPECT_EQ(TypeOf("g (float[N,M] X) => (Y) <int64[1] s = {-1}> { Y = Reshape(X, s) }"),
            "tensor(float)[?]");
  // allowzero: 0 is a real zero.
  EXPECT_EQ(
      TypeOf("g (float[0,3] X) => (Y) <int64[2] s = {3, 0}> { Y = Reshape<allowzero = 1>(X, s) }",
             "Y", 14),
      "tensor(float)[3,0]");
  EXPECT_EQ(TypeOf("g (float[2,3] X) => (Y) { Y = Reshape<shape = [3, 2]>(X) }", "Y", 4),
            "tensor(float)[3,2]");
  EXPECT_NE(WarningsOf("g (float[2,3] X) => (Y) <int64[2] s = {4, 2}> { Y = Reshape(X, s) }"), "");
  EXPECT_NE(WarningsOf("g (float[6] X) => (Y) <int64[2] s = {-1, -1}> { Y = Reshape(X, s) }"), "");
}

TEST(ShapeOpsTest, Flatten) {
  EXPECT_EQ(TypeOf("g (float[2,3,4,5] X) => (Y) { Y = Flatten<axis = 2>(X) }"),
            "tensor(float)[6,20]");
  EXPECT_EQ(TypeOf("g (float[N,3,4] X) => (Y) { Y = Flatten(X) }"), "tensor(float)[N,12]");
  EXPECT_EQ(TypeOf("g (float[2,3] X) => (Y) { Y = Flatten<axis = 0>(X) }"), "tensor(float)[1,6]");
  EXPECT_EQ(TypeOf("g (float[2,3,4] X) => (Y) { Y = Flatten<axis = -1>(X) }"),
            "tensor(float)[6,4]");
}

TEST(ShapeOpsTest, SqueezeAndUnsqueeze) {
  EXPECT_EQ(TypeOf("g (float[1,3,1,N] X) => (Y) <int64[1] a = {-2}> { Y = Squeeze(X, a) }"),
            "tensor(float)[1,3,N]");
  EXPECT_EQ(TypeOf("g (float[1,3,1] X) => (Y) { Y = Squeeze(X) }"), "tensor(float)[3]");
  // Without axes, whether N is 1 decides the rank: unknown.
  EXPECT_EQ(TypeOf("g (float[1,N] X) => (Y) { Y = Squeeze(X) }"), "tensor(float)");
  EXPECT_NE(WarningsOf("g (float[2,3] X) => (Y) <int64[1] a = {0}> { Y = Squeeze(X, a) }"), "");
  EXPECT_EQ(TypeOf("g (float[3,4] X) => (Y) <int64[2] a = {0, -1}> { Y = Unsqueeze(X, a) }"),
            "tensor(float)[1,3,4,1]");
  EXPECT_EQ(TypeOf("g (float[3,4] X) => (Y) { Y = Unsqueeze<axes = [1]>(X) }", "Y", 11),
            "tensor(float)[3,1,4]");
  EXPECT_EQ(TypeOf("g (float[3,4] X, int64[2] a) => (Y) { Y = Unsqueeze(X, a) }"),
            "tensor(float)[?,?,?,?]");
}

TEST(ShapeOpsTest, ExpandAndTile) {
  EXPECT_EQ(TypeOf("g (float[3,1] X) => (Y) <int64[3] s = {2, 1, 6}> { Y = Expand(X, s) }"),
            "tensor(float)[2,3,6]");
  EXPECT_EQ(TypeOf("g (float[N,1] X) => (Y) <int64[2] s = {1, 4}> { Y = Expand(X, s) }"),
            "tensor(float)[N,4]");
  EXPECT_EQ(TypeOf("g (float[3,1] X, int64[3] s) => (Y) { Y = Expand(X, s) }"),
            "tensor(float)[?,?,?]");
  EXPECT_EQ(TypeOf("g (float[N,3] X) => (Y) <int64[2] r = {1, 2}> { Y = Tile(X, r) }"),
            "tensor(float)[N,6]");
  EXPECT_EQ(TypeOf("g (float[N,3] X, int64[2] r) => (Y) { Y = Tile(X, r) }"), "tensor(float)[?,?]");
}

TEST(ShapeOpsTest, Concat) {
  EXPECT_EQ(TypeOf("g (float[N,3] A, float[N,5] B) => (Y) { Y = Concat<axis = 1>(A, B) }"),
            "tensor(float)[N,8]");
  EXPECT_EQ(TypeOf("g (float[N,3] A, float[M,3] B) => (Y) { Y = Concat<axis = 0>(A, B) }"),
            "tensor(float)[?,3]");
  EXPECT_EQ(TypeOf("g (float[2,?] A, float[] B) => (Y) { Y = Concat<axis = 0>(A, B) }"),
            "tensor(float)[?,?]");
  EXPECT_EQ(TypeOf("g (float[2,3] A, float[2,?] B) => (Y) { Y = Concat<axis = 0>(A, B) }"),
            "tensor(float)[4,3]");
  EXPECT_NE(WarningsOf("g (float[2,3] A, float[2,4] B) => (Y) { Y = Concat<axis = 0>(A, B) }"), "");
}

TEST(ShapeOpsTest, Gather) {
  EXPECT_EQ(TypeOf("g (float[5,4,3] D, int64[2,7] I) => (Y) { Y = Gather<axis = 1>(D, I) }"),
            "tensor(float)[5,2,7,3]");
  EXPECT_EQ(TypeOf("g (float[5,4] D, int64 I) => (Y) { Y = Gather(D, I) }"), "tensor(float)[4]");
  // Gathering dims from a shape.
  EXPECT_EQ(TypeOf(R"(g (float[N,3,4] X) => (Y) <int64[2] i = {2, -3}> {
    s = Shape(X)
    g = Gather(s, i)
    Y = ConstantOfShape(g)
  })"),
            "tensor(float)[4,N]");
}

TEST(ShapeOpsTest, Slice) {
  EXPECT_EQ(TypeOf(R"(g (float[20,10,5] X) => (Y)
      <int64[2] st = {0, 0}, int64[2] en = {3, 10}, int64[2] ax = {0, 1}, int64[2] sp = {1, 1}> {
    Y = Slice(X, st, en, ax, sp)
  })"),
            "tensor(float)[3,10,5]");
  EXPECT_EQ(TypeOf(R"(g (float[20,10,5] X) => (Y)
      <int64[1] st = {-1}, int64[1] en = {-9223372036854775807}, int64[1] ax = {1}, int64[1] sp = {-3}> {
    Y = Slice(X, st, en, ax, sp)
  })"),
            "tensor(float)[20,4,5]");
  EXPECT_EQ(
      TypeOf(
          R"(g (float[N,10] X) => (Y) <int64[2] st = {0, 2}, int64[2] en = {9223372036854775807, 5}> {
    Y = Slice(X, st, en)
  })"),
      "tensor(float)[N,3]");
  EXPECT_EQ(TypeOf(R"(g (float[N,10] X) => (Y) <int64[1] st = {1}, int64[1] en = {5}> {
    Y = Slice(X, st, en)
  })"),
            "tensor(float)[?,10]");
  // Unknown starts: only axes outside `axes` keep their dims.
  EXPECT_EQ(TypeOf("g (float[4,10] X, int64[1] st, int64[1] en) => (Y) <int64[1] ax = {1}> "
                   "{ Y = Slice(X, st, en, ax) }"),
            "tensor(float)[4,?]");
  EXPECT_EQ(TypeOf("g (float[4,10] X) => (Y) { Y = Slice<starts = [1], ends = [3]>(X) }", "Y", 9),
            "tensor(float)[2,10]");
  // Extreme steps and empty axes.
  EXPECT_EQ(TypeOf(R"(g (float[0,10] X) => (Y)
      <int64[2] st = {-1, 9}, int64[2] en = {-10, 0}, int64[2] sp = {-1, -9223372036854775808}> {
    Y = Slice(X, st, en, , sp)
  })"),
            "tensor(float)[0,1]");
}

TEST(ShapeOpsTest, ConstantOfShapeAndConstant) {
  EXPECT_EQ(
      TypeOf("g () => (Y) <int64[2] s = {3, 4}> { Y = ConstantOfShape<value = int32[1] {7}>(s) }"),
      "tensor(int32)[3,4]");
  EXPECT_EQ(TypeOf("g (int64[2] s) => (Y) { Y = ConstantOfShape(s) }"), "tensor(float)[?,?]");
  EXPECT_EQ(TypeOf("g () => (Y) { Y = Constant<value = float[2,2] {1, 2, 3, 4}>() }"),
            "tensor(float)[2,2]");
  EXPECT_EQ(TypeOf("g () => (Y) { Y = Constant<value_ints = [1, 2, 3]>() }"), "tensor(int64)[3]");
  EXPECT_EQ(TypeOf("g () => (Y) { Y = Constant<value_float = 1.5>() }"), "tensor(float)[]");
  EXPECT_EQ(TypeOf("g () => (Y) { Y = Constant<value_strings = [\"a\", \"b\"]>() }"),
            "tensor(string)[2]");
}

TEST(ShapeOpsTest, Range) {
  EXPECT_EQ(
      TypeOf("g () => (Y) <int64 a = {1}, int64 b = {10}, int64 d = {3}> { Y = Range(a, b, d) }"),
      "tensor(int64)[3]");
  EXPECT_EQ(
      TypeOf("g () => (Y) <int32 a = {10}, int32 b = {6}, int32 d = {-3}> { Y = Range(a, b, d) }"),
      "tensor(int32)[2]");
  EXPECT_EQ(
      TypeOf("g () => (Y) <float a = {0}, float b = {1}, float d = {0.25}> { Y = Range(a, b, d) }"),
      "tensor(float)[4]");
  EXPECT_EQ(TypeOf("g (int64 a, int64 b) => (Y) <int64 d = {1}> { Y = Range(a, b, d) }"),
            "tensor(int64)[?]");
  EXPECT_EQ(TypeOf(R"(g (float[N,3] X) => (Y) <int64 zero = {0}, int64 one = {1}> {
    s = Shape(X)
    n = Gather(s, zero)
    Y = Range(zero, n, one)
  })"),
            "tensor(int64)[N]");
  EXPECT_EQ(
      TypeOf("g () => (Y) <int64 a = {-9223372036854775807}, int64 b = {9223372036854775807}, "
             "int64 d = {1}> { Y = Range(a, b, d) }"),
      "tensor(int64)[?]");
}

TEST(ShapeOpsTest, IdentityKeepsAnyType) {
  EXPECT_EQ(TypeOf("g (seq(float[N]) S) => (Y) { Y = Identity(S) }", "Y", 16),
            "seq(tensor(float)[N])");
}

}  // namespace
}  // namespace onnx_opt::schema::inference
