// Kernels given inputs that break their operator's shape rules return an error naming the problem;
// none may read or write out of bounds. Each case here once crashed (found by the adapter sweep).
#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include "gtest/gtest.h"
#include "interpreter/evaluator.h"
#include "interpreter/tensor_limit.h"
#include "interpreter/testing/test_util.h"

namespace onnx_opt::interpreter {
namespace {

using testing::F;
using testing::I64;
using testing::OneNode;

std::vector<float> Zeros(size_t n) { return std::vector<float>(n, 0.5f); }

void ExpectError(OneNode& g, std::vector<RuntimeValue> inputs, int64_t opset,
                 const std::string& part) {
  auto r = g.Run(std::move(inputs), opset);
  ASSERT_FALSE(r.ok()) << g.node->op_type() << " ran; expected an error with '" << part << "'";
  EXPECT_NE(r.status().message().find(part), std::string::npos) << r.status();
}

// Found by the run fuzzer: a MaxPool window of 63 x 35M cells over a 1x5 input, nearly all padding,
// was tried cell by cell (a timeout). Only the cells inside the input are visited now.
TEST(BadInputTest, PoolingWindowsFarWiderThanTheInput) {
  const int64_t kWide = 100000001;
  auto pool = [&](const char* op, bool count_pad, ir::DataType type) {
    OneNode g(op, 1);
    g.node->SetAttribute(ir::Attribute::Ints("kernel_shape", {1, kWide}));
    g.node->SetAttribute(ir::Attribute::Ints("pads", {0, kWide / 2, 0, kWide / 2}));
    if (count_pad) g.node->SetAttribute(ir::Attribute::Int("count_include_pad", 1));
    Tensor x = F({1, 1, 2, 3}, {1, 5, 3, -4, -2, -6});
    if (type != ir::DataType::kFloat) {
      absl::StatusOr<Tensor> cast = CastTensor(x, type);
      EXPECT_TRUE(cast.ok());
      x = *cast;
    }
    auto r = g.Run({x}, 19);
    EXPECT_TRUE(r.ok()) << op << ": " << r.status();
    if (!r.ok()) return std::vector<double>{};
    EXPECT_EQ((*r)[0].tensor().dims(), (std::vector<int64_t>{1, 1, 2, 3}));
    absl::StatusOr<Tensor> d = CastTensor((*r)[0].tensor(), ir::DataType::kDouble);
    return d.ok() ? d->ToVector<double>() : std::vector<double>{};
  };
  // Every output's window covers its whole row.
  const std::vector<double> row_max = {5, 5, 5, -2, -2, -2};
  EXPECT_EQ(pool("MaxPool", false, ir::DataType::kFloat), row_max);   // the vector path
  EXPECT_EQ(pool("MaxPool", false, ir::DataType::kDouble), row_max);  // the generic loops
  EXPECT_EQ(pool("AveragePool", false, ir::DataType::kDouble),
            (std::vector<double>{3, 3, 3, -4, -4, -4}));
  const std::vector<double> padded = pool("AveragePool", true, ir::DataType::kDouble);
  ASSERT_EQ(padded.size(), 6u);
  EXPECT_DOUBLE_EQ(padded[0], 9.0 / kWide);
  EXPECT_DOUBLE_EQ(padded[5], -12.0 / kWide);
}

// SAME padding over an empty spatial dim has no output positions; the generic loops (indices
// wanted) ran once anyway and wrote past the empty output.
TEST(BadInputTest, PoolingAnEmptyInputWithSamePadding) {
  OneNode g("MaxPool", 1, 2);
  g.node->SetAttribute(ir::Attribute::Ints("kernel_shape", {2, 2}));
  g.node->SetAttribute(ir::Attribute::String("auto_pad", "SAME_UPPER"));
  auto r = g.Run({F({1, 1, 0, 5}, {})}, 12);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)[0].tensor().dims(), (std::vector<int64_t>{1, 1, 0, 5}));
  EXPECT_EQ((*r)[1].tensor().dims(), (std::vector<int64_t>{1, 1, 0, 5}));
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
  ExpectError(h, {F({1, 1, 2, 2}, Zeros(4)), F({1, 4}, Zeros(4)), I64({1}, {5})}, 16,
              "batch index");
}

TEST(BadInputTest, NonMaxSuppressionShapes) {
  OneNode g("NonMaxSuppression", 2);
  ExpectError(g, {F({3, 3}, Zeros(9)), F({3, 3}, Zeros(9))}, 11, "boxes [B, N, 4]");
}

TEST(BadInputTest, DeformConvShapes) {
  OneNode g("DeformConv", 3);
  ExpectError(g,
              {F({1, 2, 3, 3}, Zeros(18)), F({1, 2, 2, 2}, Zeros(8)), F({1, 3, 2, 2}, Zeros(12))},
              19, "do not fit X");
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

// Found by the run fuzzer: a kernel_shape larger than the weights made the depthwise path read past
// W.
TEST(BadInputTest, ConvKernelShapeMustBeTheWeights) {
  OneNode g("Conv", 2);
  g.node->SetAttribute(ir::Attribute::Ints("kernel_shape", {6, 3}));
  g.node->SetAttribute(ir::Attribute::Ints("strides", {2, 2}));
  ExpectError(g, {F({1, 1, 7, 5}, Zeros(35)), F({1, 1, 3, 3}, Zeros(9))}, 22,
              "kernel_shape differs");
  OneNode t("ConvTranspose", 2);
  t.node->SetAttribute(ir::Attribute::Ints("kernel_shape", {4, 4}));
  ExpectError(t, {F({1, 1, 3, 3}, Zeros(9)), F({1, 1, 3, 3}, Zeros(9))}, 22,
              "kernel_shape differs");
}

TEST(BadInputTest, ConvWindowAttributesMustBePositiveAndOfTheRank) {
  OneNode zero_stride("Conv", 2);
  zero_stride.node->SetAttribute(ir::Attribute::Ints("strides", {0, 1}));
  ExpectError(zero_stride, {F({1, 1, 3, 3}, Zeros(9)), F({1, 1, 2, 2}, Zeros(4))}, 22,
              "must be positive");
  OneNode negative_pad("Conv", 2);
  negative_pad.node->SetAttribute(ir::Attribute::Ints("pads", {-1, 0, 0, 0}));
  ExpectError(negative_pad, {F({1, 1, 3, 3}, Zeros(9)), F({1, 1, 2, 2}, Zeros(4))}, 22,
              "not be negative");
  OneNode short_output_shape("ConvTranspose", 2);
  short_output_shape.node->SetAttribute(ir::Attribute::Ints("output_shape", {5}));
  ExpectError(short_output_shape, {F({1, 1, 3, 3}, Zeros(9)), F({1, 1, 2, 2}, Zeros(4))}, 22,
              "output_shape");
  OneNode pool_dilation("MaxPool", 1);
  pool_dilation.node->SetAttribute(ir::Attribute::Ints("kernel_shape", {2, 2}));
  pool_dilation.node->SetAttribute(ir::Attribute::Ints("dilations", {1, -1}));
  ExpectError(pool_dilation, {F({1, 1, 3, 3}, Zeros(9))}, 22, "must be positive");
}

// Found by the run fuzzer: K of lower rank than Q was indexed as 4-D.
TEST(BadInputTest, AttentionShapesMustFit) {
  OneNode rank("Attention", 3);
  ExpectError(rank, {F({1, 1, 2, 2}, Zeros(4)), F({2, 2}, Zeros(4)), F({1, 1, 2, 2}, Zeros(4))}, 23,
              "same rank");
  OneNode head_size("Attention", 3);
  ExpectError(head_size,
              {F({1, 1, 2, 2}, Zeros(4)), F({1, 1, 2, 3}, Zeros(6)), F({1, 1, 2, 2}, Zeros(4))}, 23,
              "do not fit");
  OneNode kv_length("Attention", 3);
  ExpectError(kv_length,
              {F({1, 1, 2, 2}, Zeros(4)), F({1, 1, 3, 2}, Zeros(6)), F({1, 1, 2, 2}, Zeros(4))}, 23,
              "do not fit");
}

// Found by the run fuzzer: a target of another shape than the input's was read past its end.
TEST(BadInputTest, NegativeLogLikelihoodShapesMustFit) {
  OneNode g("NegativeLogLikelihoodLoss", 2);
  ExpectError(g, {F({2, 3}, Zeros(6)), I64({1}, {0})}, 22, "does not fit");
  OneNode w("NegativeLogLikelihoodLoss", 3);
  ExpectError(w, {F({2, 3}, Zeros(6)), I64({2}, {0, 1}), F({2}, Zeros(2))}, 22,
              "one value per class");
}

TEST(BadInputTest, TensorsOverTheLimitAreAnErrorNotACrash) {
  OneNode g("ConstantOfShape", 1);
  ExpectError(g, {I64({2}, {1000000, 1000000})}, 21, "may allocate for one tensor");
  OneNode overflow("ConstantOfShape", 1);
  ExpectError(overflow, {I64({3}, {int64_t{1} << 40, int64_t{1} << 40, 1 << 20})}, 21,
              "may allocate");
  const uint64_t saved = MaxTensorBytes();
  SetMaxTensorBytes(1024);
  OneNode small("ConstantOfShape", 1);
  auto r = small.Run({I64({1}, {1000})}, 21);
  SetMaxTensorBytes(saved);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kResourceExhausted) << r.status();
}

// Found by the run fuzzer (ScatterND): updates and indices of shapes the data does not fit were
// read or written past their ends.
TEST(BadInputTest, GatherAndScatterShapesMustFit) {
  OneNode scatter_nd("ScatterND", 3);
  ExpectError(scatter_nd, {F({4}, Zeros(4)), I64({2, 1}, {0, 1}), F({1}, Zeros(1))}, 18,
              "updates must be [2]");
  OneNode gather_elements("GatherElements", 2);
  ExpectError(gather_elements, {F({2, 2}, Zeros(4)), I64({1, 3}, {0, 0, 0})}, 13,
              "exceed the data's");
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
  ExpectError(
      *rope(5),
      {F({1, 2, 8}, Zeros(16)), F({4, 4}, Zeros(16)), F({4, 4}, Zeros(16)), I64({1, 2}, {0, 1})},
      23, "not a multiple of num_heads");
  ExpectError(
      *rope(2),
      {F({1, 2, 8}, Zeros(16)), F({4, 3}, Zeros(12)), F({4, 3}, Zeros(12)), I64({1, 2}, {0, 1})},
      23, "cos_cache has shape");
  ExpectError(
      *rope(2),
      {F({1, 2, 8}, Zeros(16)), F({4, 2}, Zeros(8)), F({4, 2}, Zeros(8)), I64({1, 2}, {0, 4})}, 23,
      "position id 4");
  ExpectError(*rope(2),
              {F({1, 2, 8}, Zeros(16)), F({4, 2}, Zeros(8)), F({4, 2}, Zeros(8)), I64({1, 1}, {0})},
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
  ExpectError(
      past,
      {F({1, 2, 3}, Zeros(6)), F({2, 1, 2}, Zeros(4)), F({2}, Zeros(2)), F({1, 2, 3}, Zeros(6))},
      27, "past_state has shape");
  OneNode ok("CausalConvWithState", 2);
  auto r = ok.Run({F({1, 2, 3}, Zeros(6)), F({2, 1, 2}, Zeros(4))}, 27);
  ASSERT_TRUE(r.ok()) << r.status();
}

// Found by the run fuzzer: with axes, a sizes (or scales, roi) input shorter than axes was read
// past its end.
TEST(BadInputTest, ResizeInputsHaveOneValuePerListedAxis) {
  OneNode g("Resize", 4);
  g.node->SetAttribute(ir::Attribute::Ints("axes", {2, 3}));
  g.node->SetAttribute(ir::Attribute::String("mode", "linear"));
  ExpectError(g, {F({1, 1, 2, 2}, Zeros(4)), F({0}, {}), F({0}, {}), I64({1}, {3})}, 19,
              "per axis of the 2");
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

// ---- Found by auditing the kernels for unchecked shapes, attributes and values
// ----------------------

Tensor U8(std::vector<int64_t> dims, std::vector<uint8_t> v) {
  return Tensor::FromVector<uint8_t>(ir::DataType::kUint8, std::move(dims), v);
}
constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();
constexpr int64_t kInt64Min = std::numeric_limits<int64_t>::min();

// Runs a node of another domain (ai.onnx.ml, ai.onnx.preview.training).
absl::StatusOr<std::vector<RuntimeValue>> RunInDomain(OneNode& g, const std::string& domain,
                                                      int64_t version,
                                                      std::vector<RuntimeValue> inputs) {
  g.node->set_domain(domain);
  Evaluator ev(*g.graph, {{"", 21}, {domain, version}});
  return ev.Run(std::move(inputs));
}

TEST(BadInputTest, ConvTransposeGroupMustBePositive) {
  OneNode g("ConvTranspose", 2);
  g.node->SetAttribute(ir::Attribute::Int("group", 0));  // C % 0 divided by zero
  ExpectError(g, {F({1, 1, 2, 2}, Zeros(4)), F({1, 1, 2, 2}, Zeros(4))}, 22,
              "group must be positive");
}

TEST(BadInputTest, HugeWindowAttributesDoNotOverflow) {
  OneNode same("Conv", 2);
  same.node->SetAttribute(ir::Attribute::String("auto_pad", "SAME_UPPER"));
  same.node->SetAttribute(ir::Attribute::Ints("strides", {kInt64Max, 1}));
  ExpectError(same, {F({1, 1, 3, 3}, Zeros(9)), F({1, 1, 1, 1}, Zeros(1))}, 22, "too large");
  OneNode dilated("MaxPool", 1);
  dilated.node->SetAttribute(ir::Attribute::Ints("kernel_shape", {3, 1}));
  dilated.node->SetAttribute(ir::Attribute::Ints("dilations", {int64_t{1} << 62, 1}));
  ExpectError(dilated, {F({1, 1, 3, 3}, Zeros(9))}, 22, "too large");
  OneNode transpose("ConvTranspose", 2);
  transpose.node->SetAttribute(ir::Attribute::Ints("strides", {int64_t{1} << 61, 1}));
  ExpectError(transpose, {F({1, 1, 3, 3}, Zeros(9)), F({1, 1, 1, 1}, Zeros(1))}, 22, "too large");
  OneNode unpool("MaxUnpool", 2);
  unpool.node->SetAttribute(ir::Attribute::Ints("kernel_shape", {1, 1}));
  unpool.node->SetAttribute(ir::Attribute::Ints("strides", {int64_t{1} << 61, 1}));
  ExpectError(unpool, {F({1, 1, 3, 1}, Zeros(3)), I64({1, 1, 3, 1}, {0, 1, 2})}, 11, "too large");
  // A large but representable stride is fine: one output position.
  OneNode ok("Conv", 2);
  ok.node->SetAttribute(ir::Attribute::Ints("strides", {int64_t{1} << 40, 1}));
  auto r = ok.Run({F({1, 1, 3, 3}, Zeros(9)), F({1, 1, 1, 1}, {2.0f})}, 22);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)[0].tensor().dims(), (std::vector<int64_t>{1, 1, 1, 3}));
}

TEST(BadInputTest, ConvTransposeAndMaxUnpoolOutputShapeNotNegative) {
  OneNode t("ConvTranspose", 2);
  t.node->SetAttribute(ir::Attribute::Ints("output_shape", {kInt64Min, 3}));
  ExpectError(t, {F({1, 1, 2, 2}, Zeros(4)), F({1, 1, 2, 2}, Zeros(4))}, 22,
              "must not be negative");
  OneNode unpool("MaxUnpool", 3);
  unpool.node->SetAttribute(ir::Attribute::Ints("kernel_shape", {1, 1}));
  ExpectError(unpool, {F({1, 1, 1, 1}, Zeros(1)), I64({1, 1, 1, 1}, {0}), I64({4}, {1, 1, -2, 2})},
              11, "must not be negative");
}

TEST(BadInputTest, QLinearConvScalesHaveOneValuePerChannel) {
  OneNode g("QLinearConv", 8);
  const Tensor x = U8({1, 1, 2, 2}, {1, 2, 3, 4}), w = U8({2, 1, 1, 1}, {1, 1});
  ExpectError(
      g, {x, F({}, {1}), U8({}, {0}), w, F({3}, {1, 1, 1}), U8({}, {0}), F({}, {1}), U8({}, {0})},
      10, "w_scale and w_zero_point");
  ExpectError(
      g,
      {x, F({}, {1}), U8({}, {0}), w, F({2}, {1, 1}), U8({3}, {0, 0, 0}), F({}, {1}), U8({}, {0})},
      10, "w_scale and w_zero_point");
  auto ok = g.Run(
      {x, F({}, {1}), U8({}, {0}), w, F({2}, {1, 2}), U8({}, {0}), F({}, {1}), U8({}, {0})}, 10);
  ASSERT_TRUE(ok.ok()) << ok.status();
  EXPECT_EQ((*ok)[0].tensor().ToVector<uint8_t>(), (std::vector<uint8_t>{1, 2, 3, 4, 2, 4, 6, 8}));
}

TEST(BadInputTest, DeformConvWeightRankAndNonFiniteOffsets) {
  OneNode rank("DeformConv", 3);
  ExpectError(rank, {F({1, 1, 2, 2}, Zeros(4)), F({1}, Zeros(1)), F({1, 2, 2, 2}, Zeros(8))}, 19,
              "rank 4");
  // NaN offsets give NaN, far ones read only padding (both were undefined conversions to int64).
  OneNode g("DeformConv", 3);
  std::vector<float> off(8, 0.0f);
  off[0] = NAN;    // y offset of output (0, 0)
  off[1] = 1e30f;  // y offset of output (0, 1)
  auto r = g.Run({F({1, 1, 2, 2}, {1, 2, 3, 4}), F({1, 1, 1, 1}, {1}), F({1, 2, 2, 2}, off)}, 19);
  ASSERT_TRUE(r.ok()) << r.status();
  const std::vector<float> y = (*r)[0].tensor().ToVector<float>();
  EXPECT_TRUE(std::isnan(y[0]));
  EXPECT_EQ(y[1], 0.0f);
  EXPECT_EQ(y[2], 3.0f);
  EXPECT_EQ(y[3], 4.0f);
}

TEST(BadInputTest, Col2ImImageShapeNotNegative) {
  OneNode g("Col2Im", 3);
  g.node->SetAttribute(ir::Attribute::Ints("pads", {1, 0, 1, 0}));
  ExpectError(g, {F({1, 1, 1}, Zeros(1)), I64({2}, {-1, 1}), I64({2}, {1, 1})}, 18,
              "image_shape must not be negative");
}

TEST(BadInputTest, SliceStepsNearInt64Limits) {
  OneNode g("Slice", 5);
  auto r = g.Run(
      {F({4}, {1, 2, 3, 4}), I64({1}, {1}), I64({1}, {4}), I64({1}, {0}), I64({1}, {kInt64Max})},
      13);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)[0].tensor().ToVector<float>(), (std::vector<float>{2}));
  auto back = g.Run({F({4}, {1, 2, 3, 4}), I64({1}, {3}), I64({1}, {kInt64Min}), I64({1}, {0}),
                     I64({1}, {kInt64Min})},
                    13);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ((*back)[0].tensor().ToVector<float>(), (std::vector<float>{4}));
  auto two = g.Run(
      {F({4}, {1, 2, 3, 4}), I64({1}, {3}), I64({1}, {kInt64Min}), I64({1}, {0}), I64({1}, {-2})},
      13);
  ASSERT_TRUE(two.ok()) << two.status();
  EXPECT_EQ((*two)[0].tensor().ToVector<float>(), (std::vector<float>{4, 2}));
}

TEST(BadInputTest, PadsThatOverflowTheOutputDims) {
  OneNode g("Pad", 2);
  ExpectError(g, {F({2}, Zeros(2)), I64({2}, {kInt64Max, 1})}, 13, "overflow");
}

TEST(BadInputTest, OneHotDepthAndValues) {
  OneNode nan("OneHot", 3);
  ExpectError(nan, {I64({2}, {0, 1}), F({}, {NAN}), F({2}, {0, 1})}, 11, "not an int64 value");
  OneNode negative("OneHot", 3);
  ExpectError(negative, {I64({2}, {0, 1}), I64({}, {-3}), F({2}, {0, 1})}, 11,
              "must not be negative");
  OneNode values("OneHot", 3);
  ExpectError(values, {I64({2}, {0, 1}), I64({}, {3}), F({1}, {1})}, 11,
              "values must hold 2 elements");
  // Empty indices with a huge depth: an empty output, at once.
  OneNode empty("OneHot", 3);
  auto r = empty.Run({I64({2, 0}, {}), I64({}, {int64_t{1} << 62}), F({2}, {0, 1})}, 11);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)[0].tensor().size(), 0);
  OneNode ok("OneHot", 3);
  auto v = ok.Run({I64({2}, {0, 2}), F({}, {3.0f}), F({2}, {0, 1})}, 11);
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_EQ((*v)[0].tensor().ToVector<float>(), (std::vector<float>{1, 0, 0, 0, 0, 1}));
}

TEST(BadInputTest, TopKAndWindowIntegerInputsAreReadExactly) {
  OneNode topk("TopK", 2, 2);
  ExpectError(topk, {F({3}, {1, 2, 3}), I64({1}, {kInt64Max})}, 11, "k out of range");
  OneNode window("HannWindow", 1);
  ExpectError(window, {F({}, {NAN})}, 17, "not an int64 value");
  auto ok = window.Run({I64({}, {4})}, 17);
  ASSERT_TRUE(ok.ok()) << ok.status();
  EXPECT_EQ((*ok)[0].tensor().size(), 4);
}

TEST(BadInputTest, MelWeightMatrixFarBandEdges) {
  OneNode g("MelWeightMatrix", 5);
  ExpectError(g, {I64({}, {4}), I64({}, {16}), I64({}, {8000}), F({}, {0}), F({}, {1e30f})}, 17,
              "band edges");
  ExpectError(g, {I64({}, {4}), I64({}, {16}), I64({}, {8000}), F({}, {NAN}), F({}, {4000})}, 17,
              "band edges");
  auto ok = g.Run({I64({}, {4}), I64({}, {16}), I64({}, {8000}), F({}, {0}), F({}, {4000})}, 17);
  ASSERT_TRUE(ok.ok()) << ok.status();
  EXPECT_EQ((*ok)[0].tensor().dims(), (std::vector<int64_t>{9, 4}));
}

TEST(BadInputTest, TensorScatterWriteIndexNearInt64Max) {
  OneNode g("TensorScatter", 3);
  ExpectError(g, {F({1, 4, 2}, Zeros(8)), F({1, 1, 2}, Zeros(2)), I64({1}, {kInt64Max})}, 24,
              "write index");
  OneNode circular("TensorScatter", 3);
  circular.node->SetAttribute(ir::Attribute::String("mode", "circular"));
  auto r = circular.Run({F({1, 4, 1}, Zeros(4)), F({1, 2, 1}, {7, 8}), I64({1}, {kInt64Max})}, 24);
  ASSERT_TRUE(r.ok()) << r.status();
  // 2^63 - 1 = 3 (mod 4): writes positions 3 and 0.
  EXPECT_EQ((*r)[0].tensor().ToVector<float>(), (std::vector<float>{8, 0.5f, 0.5f, 7}));
}

TEST(BadInputTest, DftAndStftIntegerInputsAreReadExactly) {
  OneNode dft("DFT", 3);
  ExpectError(dft, {F({1, 4, 1}, Zeros(4)), I64({0}, {}), I64({}, {kInt64Max})}, 20,
              "axis out of range");
  OneNode stft("STFT", 4);
  auto r =
      stft.Run({F({1, 4, 1}, {1, 2, 3, 4}), I64({}, {kInt64Max}), F({0}, {}), I64({}, {2})}, 17);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)[0].tensor().dims(), (std::vector<int64_t>{1, 1, 2, 2}));
}

TEST(BadInputTest, OptimizerStatesMustHaveTheShapeOfX) {
  OneNode g("Adagrad", 5, 2);
  auto r = RunInDomain(
      g, "ai.onnx.preview.training", 1,
      {F({}, {0.1f}), I64({}, {0}), F({3}, Zeros(3)), F({1}, Zeros(1)), F({3}, Zeros(3))});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("must have its shape"), std::string::npos) << r.status();
}

TEST(BadInputTest, MlKernelsCheckRanksDefaultsAndModes) {
  OneNode afe("ArrayFeatureExtractor", 2);
  auto scalar = RunInDomain(afe, "ai.onnx.ml", 1, {F({}, {1}), I64({1}, {0})});
  ASSERT_FALSE(scalar.ok());
  EXPECT_NE(scalar.status().message().find("rank >= 1"), std::string::npos) << scalar.status();

  OneNode le("LabelEncoder", 1);
  le.node->SetAttribute(ir::Attribute::Ints("keys_int64s", {1, 2}));
  le.node->SetAttribute(ir::Attribute::Floats("values_floats", {10, 20}));
  ir::Tensor empty(ir::DataType::kFloat, {0});
  empty.SetRawData("");
  le.node->SetAttribute(ir::Attribute::FromTensor("default_tensor", empty));
  auto def = RunInDomain(le, "ai.onnx.ml", 4, {I64({2}, {1, 3})});
  ASSERT_FALSE(def.ok());
  EXPECT_NE(def.status().message().find("default_tensor"), std::string::npos) << def.status();

  OneNode te("TreeEnsemble", 1);
  auto doubles = [](std::string name, std::vector<double> v) {
    ir::Tensor t(ir::DataType::kDouble, {static_cast<int64_t>(v.size())});
    t.SetRawData(std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(double)));
    return ir::Attribute::FromTensor(std::move(name), std::move(t));
  };
  te.node->SetAttribute(ir::Attribute::Ints("tree_roots", {0}));
  te.node->SetAttribute(ir::Attribute::Ints("nodes_featureids", {0}));
  te.node->SetAttribute(ir::Attribute::Ints("nodes_truenodeids", {0}));
  te.node->SetAttribute(ir::Attribute::Ints("nodes_falsenodeids", {1}));
  te.node->SetAttribute(ir::Attribute::Ints("nodes_trueleafs", {1}));
  te.node->SetAttribute(ir::Attribute::Ints("nodes_falseleafs", {1}));
  te.node->SetAttribute(ir::Attribute::Ints("leaf_targetids", {0, 0}));
  te.node->SetAttribute(doubles("leaf_weights", {1, 2}));
  te.node->SetAttribute(doubles("nodes_splits", {0.5}));
  te.node->SetAttribute(doubles("nodes_modes", {1e30}));  // no int value
  auto mode = RunInDomain(te, "ai.onnx.ml", 5, {F({1, 1}, {0})});
  ASSERT_FALSE(mode.ok());
  EXPECT_NE(mode.status().message().find("unknown node mode"), std::string::npos) << mode.status();
  te.node->SetAttribute(doubles("nodes_modes", {0}));
  auto ok = RunInDomain(te, "ai.onnx.ml", 5, {F({1, 1}, {0})});
  ASSERT_TRUE(ok.ok()) << ok.status();
  EXPECT_EQ((*ok)[0].tensor().ToVector<float>(), (std::vector<float>{1}));
}

TEST(BadInputTest, SequenceElementsMustConcatenateAndPositionsAreExact) {
  OneNode g("ConcatFromSequence", 1);
  g.node->SetAttribute(ir::Attribute::Int("axis", 0));
  ExpectError(
      g, {RuntimeValue::Sequence({F({1, 2}, Zeros(2)), F({1, 3}, Zeros(3))}, ir::DataType::kFloat)},
      11, "cannot be concatenated");
  ExpectError(
      g, {RuntimeValue::Sequence({F({1, 2}, Zeros(2)), F({2}, Zeros(2))}, ir::DataType::kFloat)},
      11, "differ in rank");
  OneNode ins("ConcatFromSequence", 1);
  ins.node->SetAttribute(ir::Attribute::Int("axis", 2));
  ins.node->SetAttribute(ir::Attribute::Int("new_axis", 1));
  ExpectError(
      ins, {RuntimeValue::Sequence({F({1, 2}, Zeros(2)), F({2}, Zeros(2))}, ir::DataType::kFloat)},
      11, "differ in rank");
  auto ok = g.Run(
      {RuntimeValue::Sequence({F({1, 2}, {1, 2}), F({2, 2}, {3, 4, 5, 6})}, ir::DataType::kFloat)},
      11);
  ASSERT_TRUE(ok.ok()) << ok.status();
  EXPECT_EQ((*ok)[0].tensor().dims(), (std::vector<int64_t>{3, 2}));
  OneNode at("SequenceAt", 2);
  ExpectError(
      at, {RuntimeValue::Sequence({F({1}, Zeros(1))}, ir::DataType::kFloat), I64({}, {kInt64Max})},
      11, "position out of range");
}

// ---- second audit: normalization, recurrent, random, string kernels
// ------------------------------

// Scale and bias were indexed per channel without checking their length; X's channel dim was read
// from inputs of rank < 2; LRN's size - 1 overflowed.
TEST(BadInputTest, NormalizationParametersMustFitTheChannels) {
  OneNode inst("InstanceNormalization", 3);
  ExpectError(inst, {F({1, 3, 2}, Zeros(6)), F({2}, Zeros(2)), F({3}, Zeros(3))}, 6,
              "one value per channel");
  OneNode inst_rank("InstanceNormalization", 3);
  ExpectError(inst_rank, {F({3}, Zeros(3)), F({3}, Zeros(3)), F({3}, Zeros(3))}, 6, "rank >= 2");
  OneNode group("GroupNormalization", 3);
  group.node->SetAttribute(ir::Attribute::Int("num_groups", 2));
  ExpectError(group, {F({1, 4, 2}, Zeros(8)), F({3}, Zeros(3)), F({3}, Zeros(3))}, 21, "per group");
  OneNode group_ok("GroupNormalization", 3);
  group_ok.node->SetAttribute(ir::Attribute::Int("num_groups", 2));
  EXPECT_TRUE(group_ok.Run({F({1, 4, 2}, Zeros(8)), F({2}, Zeros(2)), F({2}, Zeros(2))}, 18).ok());
  OneNode lrn("LRN", 1);
  lrn.node->SetAttribute(ir::Attribute::Int("size", std::numeric_limits<int64_t>::min()));
  ExpectError(lrn, {F({1, 2, 1}, Zeros(2))}, 13, "must be positive");
  OneNode bn("BatchNormalization", 5);
  ExpectError(
      bn, {F({}, {1.0f}), F({1}, Zeros(1)), F({1}, Zeros(1)), F({1}, Zeros(1)), F({1}, Zeros(1))},
      15, "rank >= 1");
}

Tensor D(std::vector<int64_t> dims, double fill) {
  return Tensor::FromVector<double>(ir::DataType::kDouble, dims,
                                    std::vector<double>(NumElements(dims), fill));
}

// Runs `op` on `inputs`, an absent optional leaving that input out of the node (hidden_size set
// when not negative).
absl::StatusOr<std::vector<RuntimeValue>> RunNode(const std::string& op,
                                                  std::vector<std::optional<Tensor>> inputs,
                                                  size_t num_outputs, int64_t opset,
                                                  int64_t hidden_size = -1) {
  ir::Graph g("test");
  std::vector<ir::Value*> ins;
  std::vector<RuntimeValue> feeds;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!inputs[i]) {
      ins.push_back(nullptr);
      continue;
    }
    ins.push_back(g.AddInput("in" + std::to_string(i)));
    feeds.push_back(*inputs[i]);
  }
  std::vector<std::string> outs;
  for (size_t i = 0; i < num_outputs; ++i) outs.push_back("out" + std::to_string(i));
  ir::Node* node = g.AddNode(op, ins, outs);
  if (hidden_size >= 0) node->SetAttribute(ir::Attribute::Int("hidden_size", hidden_size));
  for (size_t i = 0; i < num_outputs; ++i) g.AddOutput(node->output(i));
  Evaluator ev(g, {{"", opset}});
  return ev.Run(std::move(feeds));
}

void ExpectErrorWith(const absl::StatusOr<std::vector<RuntimeValue>>& r, const std::string& part) {
  ASSERT_FALSE(r.ok()) << "ran; expected an error with '" << part << "'";
  EXPECT_NE(r.status().message().find(part), std::string::npos) << r.status();
}

// The double (generic) recurrent path checked nothing but W: a short R, initial_h or sequence_lens
// was read past its end, and a length above seq_length read past X.
TEST(BadInputTest, RecurrentInputsAreCheckedOnEveryPath) {
  // H = 2: R must be [1, 2, 2].
  ExpectErrorWith(
      RunNode("RNN", {D({1, 1, 1}, 0.5), D({1, 2, 1}, 0.5), D({1, 2, 1}, 0.5)}, 2, 14, 2),
      "differs from R's last dim");
  ExpectErrorWith(RunNode("GRU",
                          {D({1, 1, 1}, 0.5), D({1, 3, 1}, 0.5), D({1, 3, 1}, 0.5), std::nullopt,
                           std::nullopt, D({1, 1, 2}, 0)},
                          2, 14),
                  "initial_h has the wrong shape");
  for (ir::DataType type : {ir::DataType::kFloat, ir::DataType::kDouble}) {
    auto t = [&](std::vector<int64_t> dims) {
      Tensor d = D(dims, 0.25);
      return type == ir::DataType::kDouble ? d : *CastTensor(d, type);
    };
    ExpectErrorWith(
        RunNode("LSTM", {t({2, 1, 1}), t({1, 4, 1}), t({1, 4, 1}), std::nullopt, I64({1}, {3})}, 2,
                14),
        "outside [0, 2]");
    ExpectErrorWith(
        RunNode("LSTM", {t({2, 1, 1}), t({1, 4, 1}), t({1, 4, 1}), std::nullopt, I64({1}, {-1})}, 2,
                14),
        "outside [0, 2]");
    auto ok = RunNode(
        "LSTM", {t({2, 1, 1}), t({1, 4, 1}), t({1, 4, 1}), std::nullopt, I64({1}, {1})}, 2, 14);
    ASSERT_TRUE(ok.ok()) << ok.status();
    EXPECT_EQ((*ok)[0].tensor().dims(), (std::vector<int64_t>{2, 1, 1, 1}));
  }
}

// std::normal_distribution with a NaN, infinite or negative deviation,
// std::uniform_real_distribution over an infinite range, and Multinomial rows that are no
// distribution (NaN, all -inf: classes out of range were drawn) are errors.
TEST(BadInputTest, RandomParametersMustDefineADistribution) {
  for (float scale : {NAN, -1.0f, INFINITY}) {
    OneNode g("RandomNormal", 0);
    g.node->SetAttribute(ir::Attribute::Ints("shape", {2}));
    g.node->SetAttribute(ir::Attribute::Float("scale", scale));
    ExpectError(g, {}, 1, "must be finite");
  }
  OneNode zero("RandomNormal", 0);
  zero.node->SetAttribute(ir::Attribute::Ints("shape", {2}));
  zero.node->SetAttribute(ir::Attribute::Float("mean", 3.0f));
  zero.node->SetAttribute(ir::Attribute::Float("scale", 0.0f));
  auto z = zero.Run({}, 1);
  ASSERT_TRUE(z.ok()) << z.status();
  EXPECT_EQ((*z)[0].tensor().ToVector<float>(), (std::vector<float>{3, 3}));
  OneNode uniform("RandomUniform", 0);
  uniform.node->SetAttribute(ir::Attribute::Ints("shape", {2}));
  uniform.node->SetAttribute(ir::Attribute::Float("low", -INFINITY));
  ExpectError(uniform, {}, 1, "must be finite");
  OneNode nan_row("Multinomial", 1);
  ExpectError(nan_row, {F({2, 2}, {0.0f, 1.0f, NAN, 1.0f})}, 7, "row 1");
  OneNode dead_row("Multinomial", 1);
  ExpectError(dead_row, {F({1, 2}, {-INFINITY, -INFINITY})}, 7, "probability 0");
  OneNode ok("Multinomial", 1);
  auto m = ok.Run({F({1, 2}, {-INFINITY, 0.0f})}, 7);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ((*m)[0].tensor().ToVector<int32_t>(), (std::vector<int32_t>{1}));
}

Tensor Strings(std::vector<int64_t> dims, std::vector<std::string> v) {
  return Tensor::FromVector<std::string>(ir::DataType::kString, std::move(dims), v);
}

// String kernels read any tensor as strings (a null string array for others); std::regex matched by
// recursion per character (a long input overflowed the stack) and backtracked exponentially.
TEST(BadInputTest, StringKernelsAndRegexLimits) {
  OneNode split("StringSplit", 1, 2);
  ExpectError(split, {F({2}, Zeros(2))}, 20, "string tensor");
  OneNode norm("StringNormalizer", 1);
  ExpectError(norm, {F({2}, Zeros(2))}, 10, "string tensor");
  OneNode not_strings("RegexFullMatch", 1);
  not_strings.node->SetAttribute(ir::Attribute::String("pattern", "a*"));
  ExpectError(not_strings, {F({2}, Zeros(2))}, 20, "string tensor");
  OneNode too_long("RegexFullMatch", 1);
  too_long.node->SetAttribute(ir::Attribute::String("pattern", "(a|b)*"));
  ExpectError(too_long, {Strings({1}, {std::string(100000, 'a')})}, 20, "at most");
  // Nested repetition on a non-matching input: exponential for a backtracking matcher.
  OneNode nested("RegexFullMatch", 1);
  nested.node->SetAttribute(ir::Attribute::String("pattern", "(a*)*b|(a|b)*c"));
  auto r = nested.Run({Strings({3}, {std::string(1000, 'a'), std::string(999, 'a') + "b",
                                     std::string(999, 'b') + "c"})},
                      20);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)[0].tensor().ToVector<bool>(), (std::vector<bool>{false, true, true}));
}

// Empty tensors whose other dims multiply past int64: DimProduct overflowed (NumElements refused
// [2^40, 2^40, 0] outright), and loops over the product of the non-empty dims ran "forever".
TEST(BadInputTest, LpNormalizationOrderIsOneOrTwo) {
  auto run = [](int64_t p) {
    OneNode g("LpNormalization", 1);
    g.node->SetAttribute(ir::Attribute::Int("p", p));
    return g.Run({Tensor::FromVector<float>(ir::DataType::kFloat, {1, 2}, {3, -4})}, 1);
  };
  auto l1 = run(1);
  ASSERT_TRUE(l1.ok()) << l1.status();
  EXPECT_FLOAT_EQ((*l1)[0].tensor().data<float>()[1], -4.0f / 7.0f);
  auto l2 = run(2);
  ASSERT_TRUE(l2.ok()) << l2.status();
  EXPECT_FLOAT_EQ((*l2)[0].tensor().data<float>()[0], 3.0f / 5.0f);
  for (int64_t p : {0, 3, -1}) {
    auto r = run(p);
    ASSERT_FALSE(r.ok()) << "p=" << p;
    EXPECT_NE(r.status().message().find("supports only 1 and 2"), std::string::npos) << r.status();
  }
}

TEST(BadInputTest, EmptyTensorsWithHugeDims) {
  const int64_t big = int64_t{1} << 40;
  EXPECT_EQ(NumElements({big, big, 0}), 0);
  EXPECT_EQ(NumElements({big, big, big}), std::numeric_limits<int64_t>::max());
  auto run = [](const char* op, Tensor x, int64_t axis,
                std::optional<Tensor> second = std::nullopt) {
    OneNode g(op, second ? 2 : 1);
    if (!second) g.node->SetAttribute(ir::Attribute::Int("axis", axis));
    std::vector<RuntimeValue> ins{std::move(x)};
    if (second) ins.push_back(*second);
    auto r = g.Run(std::move(ins), 14);
    EXPECT_TRUE(r.ok()) << op << ": " << r.status();
    return r.ok() ? (*r)[0].tensor().dims() : std::vector<int64_t>{-1};
  };
  const std::vector<int64_t> tail_empty{big, big, 0}, mid_empty{big, 0, big};
  EXPECT_EQ(run("Softmax", Tensor(ir::DataType::kFloat, tail_empty), -1), tail_empty);
  EXPECT_EQ(run("Softmax", Tensor(ir::DataType::kFloat, mid_empty), 2), mid_empty);
  EXPECT_EQ(run("LpNormalization", Tensor(ir::DataType::kFloat, mid_empty), 1), mid_empty);
  EXPECT_EQ(run("ArgMax", Tensor(ir::DataType::kFloat, mid_empty), 0),
            (std::vector<int64_t>{1, 0, big}));
  EXPECT_EQ(run("CumSum", Tensor(ir::DataType::kFloat, mid_empty), 0, I64({}, {2})), mid_empty);
  EXPECT_EQ(run("ReduceSum", Tensor(ir::DataType::kFloat, tail_empty), 0, I64({1}, {0})),
            (std::vector<int64_t>{1, big, 0}));
}

}  // namespace
}  // namespace onnx_opt::interpreter
