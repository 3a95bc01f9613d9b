#include "gtest/gtest.h"
#include "schema/testing/inference_test_util.h"

namespace onnx_opt::schema::inference {
namespace {

using testing::InferGraph;
using testing::TypeOf;
using testing::WarningsOf;

TEST(ConvTest, OutputSizes) {
  EXPECT_EQ(TypeOf("g (float[N,3,32,32] X, float[16,3,3,3] W) => (Y) { Y = Conv(X, W) }"),
            "tensor(float)[N,16,30,30]");
  EXPECT_EQ(TypeOf("g (float[1,1,5,5] X, float[1,1,3,3] W) => (Y) "
                   "{ Y = Conv<pads = [1, 1, 1, 1]>(X, W) }"),
            "tensor(float)[1,1,5,5]");
  EXPECT_EQ(TypeOf("g (float[1,1,7,5] X, float[1,1,3,3] W) => (Y) "
                   "{ Y = Conv<strides = [2, 2], pads = [1, 0, 1, 0]>(X, W) }"),
            "tensor(float)[1,1,4,2]");
  EXPECT_EQ(TypeOf("g (float[1,1,7,7] X, float[1,1,3,3] W) => (Y) "
                   "{ Y = Conv<dilations = [2, 2]>(X, W) }"),
            "tensor(float)[1,1,3,3]");
  EXPECT_EQ(TypeOf("g (float[1,1,5,5] X, float[1,1,3,3] W) => (Y) "
                   "{ Y = Conv<auto_pad = \"SAME_UPPER\", strides = [2, 2]>(X, W) }"),
            "tensor(float)[1,1,3,3]");
  EXPECT_EQ(TypeOf("g (float[1,4,5,5] X, float[8,2,3,3] W) => (Y) { Y = Conv<group = 2>(X, W) }"),
            "tensor(float)[1,8,3,3]");
  // Symbolic spatial dims stay unknown; batch and channels survive.
  EXPECT_EQ(TypeOf("g (float[N,3,H,W] X, float[8,3,3,3] K) => (Y) { Y = Conv(X, K) }"),
            "tensor(float)[N,8,?,?]");
  EXPECT_NE(WarningsOf("g (float[1,4,5,5] X, float[8,3,3,3] W) => (Y) { Y = Conv(X, W) }"), "");
}

TEST(ConvTest, ConvTranspose) {
  EXPECT_EQ(TypeOf("g (float[1,1,3,3] X, float[1,2,3,3] W) => (Y) { Y = ConvTranspose(X, W) }"),
            "tensor(float)[1,2,5,5]");
  EXPECT_EQ(TypeOf("g (float[1,1,3,3] X, float[1,2,3,3] W) => (Y) "
                   "{ Y = ConvTranspose<strides = [3, 2], output_padding = [1, 1]>(X, W) }"),
            "tensor(float)[1,2,10,8]");
  EXPECT_EQ(TypeOf("g (float[1,1,3,3] X, float[1,2,3,3] W) => (Y) "
                   "{ Y = ConvTranspose<output_shape = [10, 8], strides = [3, 2]>(X, W) }"),
            "tensor(float)[1,2,10,8]");
  EXPECT_EQ(TypeOf("g (float[1,1,3,3] X, float[1,2,3,3] W) => (Y) "
                   "{ Y = ConvTranspose<auto_pad = \"SAME_UPPER\", strides = [2, 2]>(X, W) }"),
            "tensor(float)[1,2,6,6]");
}

TEST(PoolTest, MaxAndAverage) {
  auto r = InferGraph(
      "g (float[1,3,32,32] X) => (Y, I) { Y, I = MaxPool<kernel_shape = [2, 2], strides = [2, "
      "2]>(X) }");
  EXPECT_EQ(r.Type("Y"), "tensor(float)[1,3,16,16]");
  EXPECT_EQ(r.Type("I"), "tensor(int64)[1,3,16,16]");
  EXPECT_EQ(TypeOf("g (float[1,1,4,4] X) => (Y) "
                   "{ Y = MaxPool<kernel_shape = [3, 3], strides = [2, 2], ceil_mode = 1>(X) }"),
            "tensor(float)[1,1,2,2]");
  EXPECT_EQ(TypeOf("g (float[1,1,5,5] X) => (Y) "
                   "{ Y = AveragePool<kernel_shape = [3, 3], pads = [1, 1, 1, 1]>(X) }"),
            "tensor(float)[1,1,5,5]");
  EXPECT_EQ(TypeOf("g (float[N,3,7,7] X) => (Y) { Y = GlobalAveragePool(X) }"),
            "tensor(float)[N,3,1,1]");
  EXPECT_EQ(TypeOf("g (float[1,3,8] X) => (Y) { Y = LpPool<kernel_shape = [3]>(X) }"),
            "tensor(float)[1,3,6]");
}

TEST(NormalizationTest, OutputsAndStatistics) {
  auto bn = InferGraph(R"(g (float[N,3,4,4] X, float[3] s, float[3] b, float[3] m, float[3] v)
      => (Y, M, V) { Y, M, V = BatchNormalization<training_mode = 1>(X, s, b, m, v) })");
  EXPECT_EQ(bn.Type("Y"), "tensor(float)[N,3,4,4]");
  EXPECT_EQ(bn.Type("M"), "tensor(float)[3]");
  auto ln = InferGraph(R"(g (float[N,S,8] X, float[8] w) => (Y, M, R) {
    Y, M, R = LayerNormalization<axis = -1>(X, w)
  })");
  EXPECT_EQ(ln.Type("Y"), "tensor(float)[N,S,8]");
  EXPECT_EQ(ln.Type("M"), "tensor(float)[N,S,1]");
  EXPECT_EQ(ln.Type("R"), "tensor(float)[N,S,1]");
  EXPECT_EQ(TypeOf("g (float[N,3,4,4] X, float[3] s, float[3] b) => (Y) "
                   "{ Y = InstanceNormalization(X, s, b) }"),
            "tensor(float)[N,3,4,4]");
  auto d = InferGraph("g (float[N,3] X) => (Y, M) { Y, M = Dropout(X) }");
  EXPECT_EQ(d.Type("M"), "tensor(bool)[N,3]");
}

TEST(RoiTest, RoiAlignAndMaxUnpool) {
  EXPECT_EQ(TypeOf("g (float[1,256,32,32] X, float[R,4] B, int64[R] I) => (Y) "
                   "{ Y = RoiAlign<output_height = 7, output_width = 7>(X, B, I) }"),
            "tensor(float)[R,256,7,7]");
  EXPECT_EQ(TypeOf("g (float[1,1,2,2] X, int64[1,1,2,2] I) => (Y) "
                   "{ Y = MaxUnpool<kernel_shape = [2, 2], strides = [2, 2]>(X, I) }"),
            "tensor(float)[1,1,4,4]");
  EXPECT_EQ(TypeOf("g (float[1,1,2,2] X, int64[1,1,2,2] I) => (Y) <int64[4] s = {1, 1, 5, 5}> "
                   "{ Y = MaxUnpool<kernel_shape = [2, 2], strides = [2, 2]>(X, I, s) }"),
            "tensor(float)[1,1,5,5]");
}

TEST(CausalConvWithStateTest, OutputAndState) {
  auto r = InferGraph(
      "g (float[B,4,T] X, float[4,1,3] W) => (Y, S) { Y, S = CausalConvWithState(X, W) }", 27);
  EXPECT_EQ(r.Type("Y"), "tensor(float)[B,4,T]");
  EXPECT_EQ(r.Type("S"), "tensor(float)[B,4,2]");
}

}  // namespace
}  // namespace onnx_opt::schema::inference
