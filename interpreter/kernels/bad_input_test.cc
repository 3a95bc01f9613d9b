// Kernels given inputs that break their operator's shape rules return an error naming the problem;
// none may read or write out of bounds. Each case here once crashed (found by the adapter sweep).
#include <cmath>

#include "gtest/gtest.h"
#include "interpreter/tensor_limit.h"
#include "interpreter/test_util.h"

namespace onnx_opt::interpreter {
namespace {

using testing::F;
using testing::I64;
using testing::OneNode;

std::vector<float> Zeros(size_t n) { return std::vector<float>(n, 0.5f); }

void ExpectError(OneNode& g, std::vector<RuntimeValue> inputs, int64_t opset, const std::string& part) {
  auto r = g.Run(std::move(inputs), opset);
  ASSERT_FALSE(r.ok()) << g.node->op_type() << " ran; expected an error with '" << part << "'";
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

// Found by the run fuzzer: a kernel_shape larger than the weights made the depthwise path read past W.
TEST(BadInputTest, ConvKernelShapeMustBeTheWeights) {
  OneNode g("Conv", 2);
  g.node->SetAttribute(ir::Attribute::Ints("kernel_shape", {6, 3}));
  g.node->SetAttribute(ir::Attribute::Ints("strides", {2, 2}));
  ExpectError(g, {F({1, 1, 7, 5}, Zeros(35)), F({1, 1, 3, 3}, Zeros(9))}, 22, "kernel_shape differs");
  OneNode t("ConvTranspose", 2);
  t.node->SetAttribute(ir::Attribute::Ints("kernel_shape", {4, 4}));
  ExpectError(t, {F({1, 1, 3, 3}, Zeros(9)), F({1, 1, 3, 3}, Zeros(9))}, 22, "kernel_shape differs");
}

TEST(BadInputTest, ConvWindowAttributesMustBePositiveAndOfTheRank) {
  OneNode zero_stride("Conv", 2);
  zero_stride.node->SetAttribute(ir::Attribute::Ints("strides", {0, 1}));
  ExpectError(zero_stride, {F({1, 1, 3, 3}, Zeros(9)), F({1, 1, 2, 2}, Zeros(4))}, 22, "must be positive");
  OneNode negative_pad("Conv", 2);
  negative_pad.node->SetAttribute(ir::Attribute::Ints("pads", {-1, 0, 0, 0}));
  ExpectError(negative_pad, {F({1, 1, 3, 3}, Zeros(9)), F({1, 1, 2, 2}, Zeros(4))}, 22, "not be negative");
  OneNode short_output_shape("ConvTranspose", 2);
  short_output_shape.node->SetAttribute(ir::Attribute::Ints("output_shape", {5}));
  ExpectError(short_output_shape, {F({1, 1, 3, 3}, Zeros(9)), F({1, 1, 2, 2}, Zeros(4))}, 22, "output_shape");
  OneNode pool_dilation("MaxPool", 1);
  pool_dilation.node->SetAttribute(ir::Attribute::Ints("kernel_shape", {2, 2}));
  pool_dilation.node->SetAttribute(ir::Attribute::Ints("dilations", {1, -1}));
  ExpectError(pool_dilation, {F({1, 1, 3, 3}, Zeros(9))}, 22, "must be positive");
}

// Found by the run fuzzer: K of lower rank than Q was indexed as 4-D.
TEST(BadInputTest, AttentionShapesMustFit) {
  OneNode rank("Attention", 3);
  ExpectError(rank, {F({1, 1, 2, 2}, Zeros(4)), F({2, 2}, Zeros(4)), F({1, 1, 2, 2}, Zeros(4))}, 23, "same rank");
  OneNode head_size("Attention", 3);
  ExpectError(head_size, {F({1, 1, 2, 2}, Zeros(4)), F({1, 1, 2, 3}, Zeros(6)), F({1, 1, 2, 2}, Zeros(4))}, 23,
              "do not fit");
  OneNode kv_length("Attention", 3);
  ExpectError(kv_length, {F({1, 1, 2, 2}, Zeros(4)), F({1, 1, 3, 2}, Zeros(6)), F({1, 1, 2, 2}, Zeros(4))}, 23,
              "do not fit");
}

// Found by the run fuzzer: a target of another shape than the input's was read past its end.
TEST(BadInputTest, NegativeLogLikelihoodShapesMustFit) {
  OneNode g("NegativeLogLikelihoodLoss", 2);
  ExpectError(g, {F({2, 3}, Zeros(6)), I64({1}, {0})}, 22, "does not fit");
  OneNode w("NegativeLogLikelihoodLoss", 3);
  ExpectError(w, {F({2, 3}, Zeros(6)), I64({2}, {0, 1}), F({2}, Zeros(2))}, 22, "one value per class");
}

TEST(BadInputTest, TensorsOverTheLimitAreAnErrorNotACrash) {
  OneNode g("ConstantOfShape", 1);
  ExpectError(g, {I64({2}, {1000000, 1000000})}, 21, "may allocate for one tensor");
  OneNode overflow("ConstantOfShape", 1);
  ExpectError(overflow, {I64({3}, {int64_t{1} << 40, int64_t{1} << 40, 1 << 20})}, 21, "may allocate");
  const uint64_t saved = MaxTensorBytes();
  SetMaxTensorBytes(1024);
  OneNode small("ConstantOfShape", 1);
  auto r = small.Run({I64({1}, {1000})}, 21);
  SetMaxTensorBytes(saved);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kResourceExhausted) << r.status();
}

// Found by the run fuzzer (ScatterND): updates and indices of shapes the data does not fit were read
// or written past their ends.
TEST(BadInputTest, GatherAndScatterShapesMustFit) {
  OneNode scatter_nd("ScatterND", 3);
  ExpectError(scatter_nd, {F({4}, Zeros(4)), I64({2, 1}, {0, 1}), F({1}, Zeros(1))}, 18, "updates must be [2]");
  OneNode gather_elements("GatherElements", 2);
  ExpectError(gather_elements, {F({2, 2}, Zeros(4)), I64({1, 3}, {0, 0, 0})}, 13, "exceed the data's");
  OneNode scatter_elements("ScatterElements", 3);
  ExpectError(scatter_elements, {F({2, 2}, Zeros(4)), I64({2, 1}, {0, 1}), F({2, 2}, Zeros(4))}, 18,
              "indices' shape");
  OneNode gather_nd("GatherND", 2);
  gather_nd.node->SetAttribute(ir::Attribute::Int("batch_dims", 1));
  ExpectError(gather_nd, {F({2, 3}, Zeros(6)), I64({3, 1}, {0, 1, 2})}, 13, "batch dims");
}

// Found by the run fuzzer: a NaN limit made the element count an undefined conversion.
TEST(BadInputTest, RangeOfNonFiniteBounds) {
  OneNode g("Range", 3);
  ExpectError(g, {F({}, {0.0f}), F({}, {std::nanf("")}), F({}, {1.0f})}, 11, "elements");
  OneNode inf("Range", 3);
  ExpectError(inf, {F({}, {0.0f}), F({}, {INFINITY}), F({}, {1.0f})}, 11, "elements");
  OneNode negative("ConstantOfShape", 1);
  ExpectError(negative, {I64({2}, {2, -1})}, 21, "negative");
}

// Found by the run fuzzer: CumProd of a scalar read the dims of a rank-0 tensor.
TEST(BadInputTest, CumulativeOpsNeedAnAxisToRunAlong) {
  OneNode g("CumSum", 2);
  ExpectError(g, {F({}, {1.0f}), I64({}, {0})}, 14, "rank >= 1");
  OneNode p("CumProd", 2);
  ExpectError(p, {F({}, {1.0f}), I64({}, {0})}, 26, "rank >= 1");
}

// Found by the run fuzzer: a LayerNormalization scale that does not broadcast to X, and MaxUnpool
// indices of another size than X, were read past their ends.
TEST(BadInputTest, LayerNormScaleAndMaxUnpoolIndicesMustFit) {
  OneNode ln("LayerNormalization", 2);
  ExpectError(ln, {F({2, 3}, Zeros(6)), F({4}, Zeros(4))}, 17, "broadcast");
  OneNode unpool("MaxUnpool", 2);
  unpool.node->SetAttribute(ir::Attribute::Ints("kernel_shape", {2, 2}));
  ExpectError(unpool, {F({1, 1, 2, 2}, Zeros(4)), I64({2}, {0, 1})}, 11, "X's shape");
}

// Found by the run fuzzer: a shape with fewer values than axes was read past its end.
TEST(BadInputTest, CenterCropPadShapeHasOneValuePerAxis) {
  OneNode g("CenterCropPad", 2);
  ExpectError(g, {F({2, 3}, Zeros(6)), I64({1}, {2})}, 18, "values for 2 axes");
}

}  // namespace
}  // namespace onnx_opt::interpreter
