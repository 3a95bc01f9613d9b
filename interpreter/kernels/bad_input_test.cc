// Kernels given inputs that break their operator's shape rules return an error naming the problem;
// none may read or write out of bounds. Each case here once crashed (found by the adapter sweep).
#include "gtest/gtest.h"
#include "interpreter/test_util.h"

namespace onnx_opt::interpreter {
namespace {

using testing::F;
using testing::I64;
using testing::OneNode;

std::vector<float> Zeros(size_t n) { return std::vector<float>(n, 0.5f); }

void ExpectError(OneNode& g, std::vector<RuntimeValue> inputs, int64_t opset, const std::string& part) {
  auto r = g.Run(std::move(inputs), opset);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find(part), std::string::npos) << r.status();
}

TEST(BadInputTest, ConvWithoutSpatialDims) {
  OneNode g("Conv", 2);
  ExpectError(g, {F({3, 3}, Zeros(9)), F({3, 3}, Zeros(9))}, 11, "rank >= 3");
}

TEST(BadInputTest, SliceOfAScalar) {
  OneNode g("Slice", 3);
  ExpectError(g, {F({}, {1.0f}), I64({}, {0}), I64({}, {1})}, 13, "scalar");
}

TEST(BadInputTest, DftNeedsARealOrComplexLastDim) {
  OneNode g("DFT", 1);
  ExpectError(g, {F({3, 3}, Zeros(9))}, 17, "last dimension");
}

TEST(BadInputTest, RoiAlignShapes) {
  OneNode g("RoiAlign", 3);
  ExpectError(g, {F({3, 3}, Zeros(9)), F({3, 3}, Zeros(9)), I64({3}, {0, 0, 0})}, 16, "rank 4");
  OneNode h("RoiAlign", 3);
  ExpectError(h, {F({1, 1, 2, 2}, Zeros(4)), F({1, 4}, Zeros(4)), I64({1}, {5})}, 16, "batch index");
}

TEST(BadInputTest, NonMaxSuppressionShapes) {
  OneNode g("NonMaxSuppression", 2);
  ExpectError(g, {F({3, 3}, Zeros(9)), F({3, 3}, Zeros(9))}, 11, "boxes [B, N, 4]");
}

TEST(BadInputTest, DeformConvShapes) {
  OneNode g("DeformConv", 3);
  ExpectError(g, {F({1, 2, 3, 3}, Zeros(18)), F({1, 2, 2, 2}, Zeros(8)), F({1, 3, 2, 2}, Zeros(12))}, 19,
              "do not fit X");
}

TEST(BadInputTest, ResizeScalesMustBePositive) {
  OneNode g("Upsample", 2);
  ExpectError(g, {F({1, 1, 2, 2}, Zeros(4)), F({4}, {1.0f, 1.0f, -2.0f, 2.0f})}, 9, "positive");
  OneNode h("Upsample", 2);
  ExpectError(h, {F({1, 1, 2, 2}, Zeros(4)), F({4}, {1.0f, 1.0f, 1e9f, 1e9f})}, 9, "too large");
}

TEST(BadInputTest, TensorScatterUpdateMustFitTheCache) {
  OneNode g("TensorScatter", 2);
  ExpectError(g, {F({2, 3}, Zeros(6)), F({3, 3}, Zeros(9))}, 24, "fit the cache");
}

}  // namespace
}  // namespace onnx_opt::interpreter
