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

// Found by the run fuzzer: a theta of another shape than [N, r, r + 1] was read past its end.
TEST(BadInputTest, AffineGridThetaMustFitSize) {
  OneNode g("AffineGrid", 2);
  ExpectError(g, {F({2, 3, 2}, Zeros(12)), I64({5}, {2, 1, 2, 2, 2})}, 20, "needs [2, 3, 4]");
  OneNode batch("AffineGrid", 2);
  ExpectError(batch, {F({1, 2, 3}, Zeros(6)), I64({4}, {2, 1, 2, 2})}, 20, "needs [2, 2, 3]");
  OneNode negative("AffineGrid", 2);
  ExpectError(negative, {F({1, 2, 3}, Zeros(6)), I64({4}, {1, 1, -2, 2})}, 20, "negative");
}

// Found by the run fuzzer: num_heads that did not divide the hidden size gave a view of fewer
// elements than the input, which the kernel then copied past its end; the caches and position ids
// were not checked against the input either.
TEST(BadInputTest, RotaryEmbeddingShapes) {
  auto rope = [](int64_t heads) {
    auto g = std::make_unique<OneNode>("RotaryEmbedding", 4);
    g->node->SetAttribute(ir::Attribute::Int("num_heads", heads));
    return g;
  };
  ExpectError(*rope(5), {F({1, 2, 8}, Zeros(16)), F({4, 4}, Zeros(16)), F({4, 4}, Zeros(16)), I64({1, 2}, {0, 1})},
              23, "not a multiple of num_heads");
  ExpectError(*rope(2), {F({1, 2, 8}, Zeros(16)), F({4, 3}, Zeros(12)), F({4, 3}, Zeros(12)), I64({1, 2}, {0, 1})},
              23, "cos_cache has shape");
  ExpectError(*rope(2), {F({1, 2, 8}, Zeros(16)), F({4, 2}, Zeros(8)), F({4, 2}, Zeros(8)), I64({1, 2}, {0, 4})},
              23, "position id 4");
  ExpectError(*rope(2), {F({1, 2, 8}, Zeros(16)), F({4, 2}, Zeros(8)), F({4, 2}, Zeros(8)), I64({1, 1}, {0})},
              23, "position_ids has 1 values");
}

// Found by the run fuzzer: a grid of another batch size than X was read past its end. Non-finite
// coordinates are refused, and far ones no longer overflow the integer tap indices.
TEST(BadInputTest, GridSampleGridMustFitX) {
  OneNode g("GridSample", 2);
  ExpectError(g, {F({2, 1, 3, 4}, Zeros(24)), F({1, 2, 2, 2}, Zeros(8))}, 20, "first dim 2");
  OneNode nan("GridSample", 2);
  ExpectError(nan, {F({1, 1, 2, 2}, Zeros(4)), F({1, 1, 1, 2}, {0.0f, NAN})}, 20, "non-finite");
  for (const char* pad : {"zeros", "border", "reflection"}) {
    OneNode far("GridSample", 2);
    far.node->SetAttribute(ir::Attribute::String("padding_mode", pad));
    auto r = far.Run({F({1, 1, 2, 2}, {1, 2, 3, 4}), F({1, 1, 1, 2}, {1e30f, -1e30f})}, 20);
    ASSERT_TRUE(r.ok()) << pad << ": " << r.status();
  }
}

// Found by the run fuzzer: ngram_counts past the end of the pool were read past it; negative or
// missing ngram_indexes and short weights were not checked either.
TEST(BadInputTest, TfIdfVectorizerAttributesMustFitThePool) {
  auto tfidf = [](std::vector<int64_t> counts, std::vector<int64_t> indexes) {
    auto g = std::make_unique<OneNode>("TfIdfVectorizer", 1);
    g->node->SetAttribute(ir::Attribute::Int("max_gram_length", 2));
    g->node->SetAttribute(ir::Attribute::Ints("pool_int64s", {2, 3, 5, 4}));
    g->node->SetAttribute(ir::Attribute::Ints("ngram_counts", std::move(counts)));
    g->node->SetAttribute(ir::Attribute::Ints("ngram_indexes", std::move(indexes)));
    return g;
  };
  const Tensor x = I64({6}, {2, 3, 5, 4, 2, 3});
  ExpectError(*tfidf({0, 93}, {0, 1, 2, 3}), {x}, 9, "ngram_counts");
  ExpectError(*tfidf({0, 2}, {0, 1}), {x}, 9, "2 entries for 3 n-grams");
  ExpectError(*tfidf({0, 2}, {0, -1, 2}), {x}, 9, "non-negative");
  auto ok = tfidf({0, 2}, {0, 1, 2})->Run({x}, 9);
  ASSERT_TRUE(ok.ok()) << ok.status();
}

// Found by the run fuzzer: a weight with fewer channels than the input was read past its end.
TEST(BadInputTest, CausalConvWithStateShapes) {
  OneNode w("CausalConvWithState", 2);
  ExpectError(w, {F({1, 2, 3}, Zeros(6)), F({1, 1, 2}, Zeros(2))}, 27, "weight has shape");
  OneNode past("CausalConvWithState", 4);
  ExpectError(past, {F({1, 2, 3}, Zeros(6)), F({2, 1, 2}, Zeros(4)), F({2}, Zeros(2)), F({1, 2, 3}, Zeros(6))}, 27,
              "past_state has shape");
  OneNode ok("CausalConvWithState", 2);
  auto r = ok.Run({F({1, 2, 3}, Zeros(6)), F({2, 1, 2}, Zeros(4))}, 27);
  ASSERT_TRUE(r.ok()) << r.status();
}

// Found by the run fuzzer: with axes, a sizes (or scales, roi) input shorter than axes was read past
// its end.
TEST(BadInputTest, ResizeInputsHaveOneValuePerListedAxis) {
  OneNode g("Resize", 4);
  g.node->SetAttribute(ir::Attribute::Ints("axes", {2, 3}));
  g.node->SetAttribute(ir::Attribute::String("mode", "linear"));
  ExpectError(g, {F({1, 1, 2, 2}, Zeros(4)), F({0}, {}), F({0}, {}), I64({1}, {3})}, 19, "per axis of the 2");
}

// Found by the run fuzzer: a sequence length past the time axis was read past the input's end.
TEST(BadInputTest, ReverseSequenceLengthsMustFit) {
  OneNode g("ReverseSequence", 2);
  ExpectError(g, {F({2, 2}, Zeros(4)), I64({2}, {1, 3})}, 10, "sequence length 3");
  OneNode batch("ReverseSequence", 2);
  ExpectError(batch, {F({2, 2}, Zeros(4)), I64({1}, {1})}, 10, "for a batch of 2");
}

// Found by the run fuzzer: ConvTranspose of an X with an empty spatial dim scattered from an empty
// column buffer; a bias of the wrong length was read past its end.
TEST(BadInputTest, ConvTransposeEmptyInputAndBiasLength) {
  OneNode empty("ConvTranspose", 2);
  auto r = empty.Run({F({1, 1, 0, 2}, {}), F({1, 1, 2, 2}, Zeros(4))}, 22);
  ASSERT_TRUE(r.ok()) << r.status();
  OneNode bias("ConvTranspose", 3);
  ExpectError(bias, {F({1, 1, 2, 2}, Zeros(4)), F({1, 2, 2, 2}, Zeros(8)), F({1}, Zeros(1))}, 22,
              "one value per output channel");
}

TEST(BadInputTest, SplitToSequenceSplitMustTileTheAxis) {
  OneNode g("SplitToSequence", 2);
  ExpectError(g, {F({4}, Zeros(4)), I64({}, {0})}, 11, "must be positive");
  ExpectError(g, {F({4}, Zeros(4)), I64({}, {-2})}, 11, "must be positive");
  ExpectError(g, {F({4}, Zeros(4)), I64({2}, {3, 3})}, 11, "does not add up");
  ExpectError(g, {F({4}, Zeros(4)), I64({2}, {-1, 5})}, 11, "does not add up");
  ExpectError(g, {F({4}, Zeros(4)), I64({2}, {1, 2})}, 11, "does not add up");
  auto ok = g.Run({F({4}, Zeros(4)), I64({2}, {1, 3})}, 11);
  ASSERT_TRUE(ok.ok()) << ok.status();
}

TEST(BadInputTest, IntegerMaxPoolWindowInThePaddingIsTheLowestValue) {
  OneNode g("MaxPool", 1);
  g.node->SetAttribute(ir::Attribute::Ints("kernel_shape", {1, 1}));
  g.node->SetAttribute(ir::Attribute::Ints("pads", {1, 1, 1, 1}));
  auto r = g.Run({Tensor::FromVector<uint8_t>(ir::DataType::kUint8, {1, 1, 1, 1}, {7})}, 12);
  ASSERT_TRUE(r.ok()) << r.status();
  const Tensor& y = (*r)[0].tensor();
  ASSERT_EQ(y.dims(), (std::vector<int64_t>{1, 1, 3, 3}));
  for (int64_t i = 0; i < 9; ++i) EXPECT_EQ(y.data<uint8_t>()[i], i == 4 ? 7 : 0) << i;
}

TEST(BadInputTest, ReshapeTargetWhoseProductOverflows) {
  OneNode g("Reshape", 2);
  ExpectError(g, {F({2, 2}, Zeros(4)), I64({3}, {381, int64_t{1} << 57, 4})}, 14, "cannot reshape");
}

}  // namespace
}  // namespace onnx_opt::interpreter
