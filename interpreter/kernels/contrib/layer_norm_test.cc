// SkipLayerNormalization, SkipSimplifiedLayerNormalization and SimplifiedLayerNormalization against
// Add + LayerNormalization-17 / RMSNormalization-23 run by the same interpreter.
#include "gtest/gtest.h"
#include "interpreter/testing/contrib_test_util.h"

namespace onnx_opt::interpreter::contrib {
namespace {

using testing::ExpectError;
using testing::ExpectSameOutputs;
using testing::F;
using testing::Model;
using testing::RandomF;
using testing::RunModel;

TEST(ContribLayerNorm, SkipLayerNormalizationAllOutputs) {
  ExpectSameOutputs(
      Model(R"(g (float[2,3,16] x, float[2,3,16] s, float[16] ga, float[16] be, float[16] b)
                 => (float[2,3,16] y, float[2,3,1] m, float[2,3,1] i, float[2,3,16] sum) {
                 y, m, i, sum = com.microsoft.SkipLayerNormalization<epsilon = 1e-5>(x, s, ga, be, b) })"),
      Model(R"(g (float[2,3,16] x, float[2,3,16] s, float[16] ga, float[16] be, float[16] b)
                 => (float[2,3,16] y, float[2,3,1] m, float[2,3,1] i, float[2,3,16] sum) {
                 t = Add(x, s) sum = Add(t, b) y, m, i = LayerNormalization<epsilon = 1e-5>(sum, ga, be) })"),
      {RandomF({2, 3, 16}, 1, 3), RandomF({2, 3, 16}, 2), RandomF({16}, 3), RandomF({16}, 4),
       RandomF({16}, 5)});
}

TEST(ContribLayerNorm, SkipBroadcastAndDefaultEpsilon) {
  // skip of [S, H] repeats over the batch; epsilon defaults to 1e-12; beta and bias omitted.
  ExpectSameOutputs(Model(R"(g (float[2,3,16] x, float[3,16] s, float[16] ga) => (float[2,3,16] y) {
                 y = com.microsoft.SkipLayerNormalization(x, s, ga) })"),
                    Model(R"(g (float[2,3,16] x, float[3,16] s, float[16] ga) => (float[2,3,16] y) {
                 t = Add(x, s) y = LayerNormalization<epsilon = 1e-12>(t, ga) })"),
                    {RandomF({2, 3, 16}, 6, 2), RandomF({3, 16}, 7), RandomF({16}, 8)});
  ExpectError(Model(R"(g (float[2,3,16] x, float[2,16] s, float[16] ga) => (float[2,3,16] y) {
                         y = com.microsoft.SkipLayerNormalization(x, s, ga) })"),
              {RandomF({2, 3, 16}, 6), RandomF({2, 16}, 7), RandomF({16}, 8)},
              "input 'skip' of shape [2,16]");
  ExpectError(Model(R"(g (float[2,3,16] x, float[2,3,16] s, float[8] ga) => (float[2,3,16] y) {
                         y = com.microsoft.SkipLayerNormalization(x, s, ga) })"),
              {RandomF({2, 3, 16}, 6), RandomF({2, 3, 16}, 7), RandomF({8}, 8)},
              "input 'gamma' must have shape [16]");
}

TEST(ContribLayerNorm, SkipSimplifiedLayerNormalization) {
  ExpectSameOutputs(
      Model(R"(g (float[2,3,16] x, float[2,3,16] s, float[16] ga, float[16] b)
                 => (float[2,3,16] y, float[2,3,16] sum) {
                 y, , , sum = com.microsoft.SkipSimplifiedLayerNormalization<epsilon = 1e-6>(x, s, ga, b) })"),
      Model(R"(g (float[2,3,16] x, float[2,3,16] s, float[16] ga, float[16] b)
                 => (float[2,3,16] y, float[2,3,16] sum) {
                 t = Add(x, s) sum = Add(t, b) y = RMSNormalization<epsilon = 1e-6>(sum, ga) })"),
      {RandomF({2, 3, 16}, 9, 3), RandomF({2, 3, 16}, 10), RandomF({16}, 11), RandomF({16}, 12)});
  // By hand: rows [3, 4] -> rms = sqrt(12.5); inv_std_var output.
  auto r = RunModel(
      Model(R"(g (float[1,2] x, float[1,2] s, float[2] ga) => (float[1,2] y, float[1,1] i) {
                          y, , i = com.microsoft.SkipSimplifiedLayerNormalization<epsilon = 0.0>(x, s, ga) })"),
      {F({1, 2}, {1, 3}), F({1, 2}, {2, 1}), F({2}, {1, 2})});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_NEAR((*r)[0].tensor().data<float>()[0], 3 / std::sqrt(12.5), 1e-6);
  EXPECT_NEAR((*r)[0].tensor().data<float>()[1], 8 / std::sqrt(12.5), 1e-6);
  EXPECT_NEAR((*r)[1].tensor().data<float>()[0], 1 / std::sqrt(12.5), 1e-6);
}

TEST(ContribLayerNorm, SimplifiedLayerNormalizationInBothDomains) {
  const std::string standard = Model(R"(g (float[2,3,16] x, float[16] ga) => (float[2,3,16] y) {
                                          y = RMSNormalization<epsilon = 1e-5>(x, ga) })");
  ExpectSameOutputs(Model(R"(g (float[2,3,16] x, float[16] ga) => (float[2,3,16] y) {
                               y = com.microsoft.SimplifiedLayerNormalization(x, ga) })"),
                    standard, {RandomF({2, 3, 16}, 13, 3), RandomF({16}, 14)});
  // Over the last two dims, with inv_std_var.
  ExpectSameOutputs(
      Model(R"(g (float[2,3,16] x, float[3,16] ga) => (float[2,3,16] y) {
                 y = com.microsoft.SimplifiedLayerNormalization<axis = 1>(x, ga) })"),
      Model(
          R"(g (float[2,3,16] x, float[3,16] ga) => (float[2,3,16] y) { y = RMSNormalization<axis = 1>(x, ga) })"),
      {RandomF({2, 3, 16}, 15, 3), RandomF({3, 16}, 16)});
  // The default domain spelling (onnxruntime's own, which has no ai.onnx schema) runs too.
  interpreter::testing::OneNode n("SimplifiedLayerNormalization", 2);
  auto r = n.Run({F({1, 2}, {3, 4}), F({2}, {1, 1})}, 17);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_NEAR((*r)[0].tensor().data<float>()[0], 3 / std::sqrt(12.5 + 1e-5), 1e-6);
}

TEST(ContribLayerNorm, Float16) {
  ExpectSameOutputs(
      Model(R"(g (float16[2,16] x, float16[2,16] s, float16[16] ga) => (float16[2,16] y) {
                 y = com.microsoft.SkipLayerNormalization(x, s, ga) })"),
      Model(R"(g (float16[2,16] x, float16[2,16] s, float16[16] ga) => (float16[2,16] y) {
                 a = Cast<to = 1>(x) b = Cast<to = 1>(s) c = Cast<to = 1>(ga) t = Add(a, b)
                 n = LayerNormalization<epsilon = 1e-12>(t, c) y = Cast<to = 10>(n) })"),
      {*CastTensor(RandomF({2, 16}, 17, 2), DataType::kFloat16),
       *CastTensor(RandomF({2, 16}, 18), DataType::kFloat16),
       *CastTensor(RandomF({16}, 19), DataType::kFloat16)});
}

}  // namespace
}  // namespace onnx_opt::interpreter::contrib
