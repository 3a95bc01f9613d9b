#include "gtest/gtest.h"
#include "schema/testing/inference_test_util.h"

namespace onnx_opt::schema::inference {
namespace {

using testing::InferGraph;
using testing::TypeOf;
using testing::WarningsOf;

TEST(TensorOpsTest, Transpose) {
  EXPECT_EQ(TypeOf("g (float[N,3,4] X) => (Y) { Y = Transpose(X) }"), "tensor(float)[4,3,N]");
  EXPECT_EQ(TypeOf("g (float[N,3,4] X) => (Y) { Y = Transpose<perm = [0, 2, 1]>(X) }"),
            "tensor(float)[N,4,3]");
  EXPECT_NE(WarningsOf("g (float[2,3] X) => (Y) { Y = Transpose<perm = [0, 0]>(X) }"), "");
}

TEST(TensorOpsTest, Split) {
  auto r = InferGraph(
      "g (float[N,6] X) => (A, B) <int64[2] s = {2, 4}> { A, B = Split<axis = 1>(X, s) }");
  EXPECT_EQ(r.Type("A"), "tensor(float)[N,2]");
  EXPECT_EQ(r.Type("B"), "tensor(float)[N,4]");
  r = InferGraph("g (float[6] X) => (A, B, C) { A, B, C = Split(X) }", 13);
  EXPECT_EQ(r.Type("C"), "tensor(float)[2]");
  // num_outputs with an uneven split: the last part is smaller.
  r = InferGraph("g (float[7] X) => (A, B, C) { A, B, C = Split<num_outputs = 3>(X) }", 18);
  EXPECT_EQ(r.Type("A"), "tensor(float)[3]");
  EXPECT_EQ(r.Type("C"), "tensor(float)[1]");
  r = InferGraph("g (float[2,6] X) => (A, B) { A, B = Split<axis = 1, split = [1, 5]>(X) }", 11);
  EXPECT_EQ(r.Type("B"), "tensor(float)[2,5]");
  EXPECT_NE(WarningsOf("g (float[6] X) => (A, B) <int64[2] s = {2, 3}> { A, B = Split(X, s) }"),
            "");
}

TEST(TensorOpsTest, Pad) {
  EXPECT_EQ(TypeOf("g (float[1,3,4,5] X) => (Y) <int64[8] p = {0, 0, 1, 2, 0, 0, 3, 4}> "
                   "{ Y = Pad(X, p) }"),
            "tensor(float)[1,3,8,11]");
  EXPECT_EQ(TypeOf("g (float[N,4] X) => (Y) <int64[2] p = {1, 1}, int64[1] a = {-1}> "
                   "{ Y = Pad(X, p, , a) }"),
            "tensor(float)[N,6]");
  EXPECT_EQ(TypeOf("g (float[3,4] X) => (Y) { Y = Pad<pads = [0, -1, 0, -1]>(X) }", "Y", 2),
            "tensor(float)[3,2]");
  EXPECT_EQ(TypeOf("g (float[N,4] X, int64[4] p) => (Y) { Y = Pad(X, p) }"), "tensor(float)[?,?]");
}

TEST(TensorOpsTest, GatherVariants) {
  EXPECT_EQ(TypeOf("g (float[3,4] D, int64[2,4] I) => (Y) { Y = GatherElements(D, I) }"),
            "tensor(float)[2,4]");
  EXPECT_EQ(TypeOf("g (float[2,3,4] D, int64[2,5,2] I) => (Y) { Y = GatherND(D, I) }"),
            "tensor(float)[2,5,4]");
  EXPECT_EQ(
      TypeOf("g (float[2,3,4] D, int64[2,1] I) => (Y) { Y = GatherND<batch_dims = 1>(D, I) }"),
      "tensor(float)[2,4]");
  EXPECT_EQ(
      TypeOf("g (float[3,4] D, int64[2] I, float[2] U) => (Y) { Y = ScatterElements(D, I, U) }"),
      "tensor(float)[3,4]");
}

TEST(TensorOpsTest, DataDependentOutputs) {
  EXPECT_EQ(TypeOf("g (float[3,4] X) => (Y) { Y = NonZero(X) }"), "tensor(int64)[2,?]");
  EXPECT_EQ(TypeOf("g (float[3,4] X, bool[3] C) => (Y) { Y = Compress<axis = 0>(X, C) }"),
            "tensor(float)[?,4]");
  EXPECT_EQ(
      TypeOf("g (float[3,4] X) => (Y) <bool[3] C = {1, 0, 1}> { Y = Compress<axis = 0>(X, C) }"),
      "tensor(float)[2,4]");
  EXPECT_EQ(TypeOf("g (float[3,4] X, bool[3] C) => (Y) { Y = Compress(X, C) }"),
            "tensor(float)[?]");
  auto r = InferGraph("g (float[N,3] X) => (Y, I, V, C) { Y, I, V, C = Unique<axis = 1>(X) }");
  EXPECT_EQ(r.Type("Y"), "tensor(float)[N,?]");
  EXPECT_EQ(r.Type("I"), "tensor(int64)[?]");
  EXPECT_EQ(r.Type("V"), "tensor(int64)[3]");
  r = InferGraph("g (float[2,3] X) => (Y, I, V, C) { Y, I, V, C = Unique(X) }");
  EXPECT_EQ(r.Type("V"), "tensor(int64)[6]");
}

TEST(TensorOpsTest, OneHot) {
  EXPECT_EQ(TypeOf("g (int64[N,3] I, float[2] V) => (Y) <int64 d = {10}> { Y = OneHot(I, d, V) }"),
            "tensor(float)[N,3,10]");
  EXPECT_EQ(
      TypeOf("g (int64[N,3] I, float d, int32[2] V) => (Y) { Y = OneHot<axis = 1>(I, d, V) }"),
      "tensor(int32)[N,?,3]");
}

TEST(TensorOpsTest, SpaceAndDepth) {
  EXPECT_EQ(TypeOf("g (float[1,8,2,3] X) => (Y) { Y = DepthToSpace<blocksize = 2>(X) }"),
            "tensor(float)[1,2,4,6]");
  EXPECT_EQ(TypeOf("g (float[N,2,4,6] X) => (Y) { Y = SpaceToDepth<blocksize = 2>(X) }"),
            "tensor(float)[N,8,2,3]");
}

TEST(TensorOpsTest, Resize) {
  EXPECT_EQ(
      TypeOf("g (float[1,1,2,4] X) => (Y) <float[4] s = {1, 1, 2, 1.5}> { Y = Resize(X, , s) }"),
      "tensor(float)[1,1,4,6]");
  EXPECT_EQ(TypeOf("g (float[N,3,2,4] X) => (Y) <float[4] s = {1, 1, 0.6, 0.6}> "
                   "{ Y = Resize(X, , s) }"),
            "tensor(float)[N,3,1,2]");
  EXPECT_EQ(
      TypeOf("g (float[1,1,4,4] X) => (Y) <int64[4] z = {1, 1, 3, 2}> { Y = Resize(X, , , z) }"),
      "tensor(float)[1,1,3,2]");
  EXPECT_EQ(
      TypeOf("g (float[1,1,2,2] X) => (Y) <int64[2] z = {7, 8}> "
             "{ Y = Resize<axes = [2, 3], keep_aspect_ratio_policy = \"not_larger\">(X, , , z) }",
             "Y", 19),
      "tensor(float)[1,1,7,7]");
  EXPECT_EQ(TypeOf("g (float[1,1,2,2] X, int64[4] z) => (Y) { Y = Resize(X, , , z) }"),
            "tensor(float)[?,?,?,?]");
  EXPECT_EQ(TypeOf("g (float[1,1,2,2] X) => (Y) <float[4] s = {1, 1, 2, 3}> { Y = Upsample(X, s) }",
                   "Y", 9),
            "tensor(float)[1,1,4,6]");
}

TEST(TensorOpsTest, SamplingAndImages) {
  EXPECT_EQ(TypeOf("g (float[N,3,8,8] X, float[N,5,6,2] G) => (Y) { Y = GridSample(X, G) }"),
            "tensor(float)[N,3,5,6]");
  EXPECT_EQ(
      TypeOf("g (float[2,2,3] T) => (Y) <int64[4] s = {2, 3, 5, 6}> { Y = AffineGrid(T, s) }"),
      "tensor(float)[2,5,6,2]");
  EXPECT_EQ(TypeOf("g (float[1,9,25] X) => (Y) <int64[2] i = {5, 5}, int64[2] b = {3, 3}> "
                   "{ Y = Col2Im(X, i, b) }"),
            "tensor(float)[1,1,5,5]");
  EXPECT_EQ(TypeOf("g (float[10,8,3] X) => (Y) <int64[2] s = {6, 9}> "
                   "{ Y = CenterCropPad<axes = [0, 1]>(X, s) }"),
            "tensor(float)[6,9,3]");
}

TEST(TensorOpsTest, BitCastAndTensorScatter) {
  EXPECT_EQ(TypeOf("g (float[N,3] X) => (Y) { Y = BitCast<to = 6>(X) }", "Y", 26),
            "tensor(int32)[N,3]");
  EXPECT_EQ(TypeOf("g (float[2,1,4,5] P, float[2,1,1,5] U, int64[2] W) => (Y) "
                   "{ Y = TensorScatter(P, U, W) }",
                   "Y", 24),
            "tensor(float)[2,1,4,5]");
}

}  // namespace
}  // namespace onnx_opt::schema::inference
