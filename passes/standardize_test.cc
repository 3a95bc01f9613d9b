// Tests for standardize on the normalizations, activations, matrix products, quantized weights,
// embeddings and rotary: contrib models (com.microsoft) become standard ONNX with the outputs the
// contrib kernels compute, checked by the checker and by running both models on the same inputs.
// The attention family is in standardize_attention_test.cc.
#include "passes/standardize.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "passes/testing/standardize_test_util.h"

namespace onnx_opt::passes {
namespace {

using ::onnx_opt::passes::testing::Bytes;
using ::onnx_opt::passes::testing::ExpectStandardized;
using ::onnx_opt::passes::testing::Header;
using ::onnx_opt::passes::testing::ReportOf;
using ::onnx_opt::passes::testing::Values;
using ::testing::HasSubstr;

TEST(StandardizeTest, SkipLayerNormalizationAllOutputs) {
  ExpectStandardized(Header() + R"(
    g (float[2,3,16] x, float[2,3,16] s) => (float[2,3,16] y, float[2,3,1] m, float[2,3,1] i, float[2,3,16] sum)
    <float[16] ga = {)" + Values(16, 0.1, 1.0) +
                         "}, float[16] be = {" + Values(16, 0.2) + "}, float[16] bias = {" +
                         Values(16, 0.3) + R"(}> {
      y, m, i, sum = com.microsoft.SkipLayerNormalization<epsilon = 1e-5>(x, s, ga, be, bias)
    })",
                     {"Add", "LayerNormalization"});
}

TEST(StandardizeTest, SkipLayerNormalizationBroadcastSkipFloat16) {
  // skip [S, H] repeats over the batch; float16 computes in float32 as the contrib kernel does.
  ExpectStandardized(Header() + R"(
    g (float16[2,3,16] x, float16[3,16] s, float16[16] ga) => (float16[2,3,16] y) {
      y = com.microsoft.SkipLayerNormalization(x, s, ga)
    })",
                     {"Cast", "Add", "LayerNormalization"});
}

TEST(StandardizeTest, SimplifiedLayerNormalizations) {
  ExpectStandardized(Header() + R"(
    g (float[2,3,16] x, float[2,3,16] s) => (float[2,3,16] y, float[2,3,16] sum, float[2,3,16] z, float[2,3,16] w)
    <float[16] ga = {)" + Values(16, 0.4, 1.0) +
                         "}, float[16] bias = {" + Values(16, 0.5) + R"(}> {
      y, , , sum = com.microsoft.SkipSimplifiedLayerNormalization<epsilon = 1e-6>(x, s, ga, bias)
      z = com.microsoft.SimplifiedLayerNormalization<epsilon = 1e-6>(y, ga)
      w = SimplifiedLayerNormalization(sum, ga)
    })",
                     {"Add", "RMSNormalization"});
}

TEST(StandardizeTest, LeavesWhatHasNoStandardFormAndSaysWhy) {
  const std::string text = Header() + R"(
    g (float[2,16] x, float[16] ga) => (float[2,16] y, float[2,1] inv) {
      y, inv = com.microsoft.SimplifiedLayerNormalization(x, ga)
    })";
  StandardizeReport report = ReportOf(text);
  EXPECT_EQ(report.rewritten, 0);
  ASSERT_EQ(report.kept.size(), 1u);
  EXPECT_THAT(report.kept[0], HasSubstr("inv_std_var"));
  // Below the opset of the standard op.
  report = ReportOf(Header(17) + R"(
    g (float[2,16] x) => (float[2,16] y, float[2,16] z) {
      y = com.microsoft.FastGelu(x)
      z = com.microsoft.QuickGelu(x)
    })");
  EXPECT_EQ(report.rewritten, 1);  // QuickGelu needs no new opset
  ASSERT_EQ(report.kept.size(), 1u);
  EXPECT_THAT(report.kept[0], HasSubstr("Gelu of opset 20 and the model is at opset 17"));
}

TEST(StandardizeTest, Activations) {
  ExpectStandardized(Header() + R"(
    g (float[2,3,8] x, float[2,3,8] skip) => (float[2,3,8] a, float[2,3,8] b, float[2,3,8] c, float[2,3,8] d,
                                             float[2,3,8] e, float[2,3,8] f)
    <float[8] bias = {)" +
                         Values(8, 0.6) + R"(}> {
      a = com.microsoft.FastGelu(x, bias)
      b = com.microsoft.FastGelu(x)
      c = com.microsoft.BiasGelu(x, bias)
      d = com.microsoft.Gelu(x)
      e = com.microsoft.QuickGelu<alpha = 1.5>(x)
      f = com.microsoft.BiasAdd(x, bias, skip)
    })",
                     {"Gelu", "Sigmoid", "Mul", "Add"});
}

TEST(StandardizeTest, FusedMatMul) {
  ExpectStandardized(Header() + R"(
    g (float[2,4,3] a, float[5,3,2] b, float[3,4] c, float[4,6] d) => (float[2,3,6] y, float[5,4,2] z, float[3,6] w) {
      y = com.microsoft.FusedMatMul<transA = 1, alpha = 0.5>(a, d)
      z = com.microsoft.FusedMatMul<transA = 1>(c, b)
      w = com.microsoft.FusedMatMul(c, d)
    })",
                     {"Transpose", "MatMul", "Mul"});
  // transBatchB: B [2, 3, 5] read as [3, 2, 5] (its first dim moved behind the other batch dims).
  ExpectStandardized(Header() + R"(
    g (float[3,4,2] a, float[2,3,5] b) => (float[3,4,5] y) {
      y = com.microsoft.FusedMatMul<transBatchB = 1>(a, b)
    })",
                     {"Transpose", "MatMul"});
}

TEST(StandardizeTest, MatMulNBits) {
  // K = 64, N = 8, blocks of 32: weights [8, 2, 16] bytes.
  ExpectStandardized(Header() + R"(
    g (float[2,3,64] a) => (float[2,3,8] y, float[2,3,8] z)
    <uint8[8,2,16] w = {)" +
                         Bytes(256, 1) + "}, float[16] sc = {" + Values(16, 0.7, 0.1) +
                         "}, uint8[8,1] zp = {" + Bytes(8, 2) + "}, float[8] bias = {" +
                         Values(8, 0.8) + R"(}> {
      y = com.microsoft.MatMulNBits<K = 64, N = 8, bits = 4, block_size = 32>(a, w, sc)
      z = com.microsoft.MatMulNBits<K = 64, N = 8, bits = 4, block_size = 32>(a, w, sc, zp, , bias)
    })",
                     {"DequantizeLinear", "MatMul", "Add"});
  // 8 bits, float zero points, K not a multiple of the block.
  ExpectStandardized(Header() + R"(
    g (float[3,40] a) => (float[3,4] y)
    <uint8[4,2,32] w = {)" +
                         Bytes(256, 3) + "}, float[8] sc = {" + Values(8, 0.9, 0.01) +
                         R"(}, float[4,2] zp = {128, 120, 3, 255, 0, 7, 128, 130}> {
      y = com.microsoft.MatMulNBits<K = 40, N = 4, bits = 8, block_size = 32>(a, w, sc, zp)
    })",
                     {"DequantizeLinear", "MatMul"});
}

TEST(StandardizeTest, GatherBlockQuantized) {
  // A [6, 32] table packed two 4-bit values a byte ([6, 16] bytes), blocks of 16 along dim 1.
  ExpectStandardized(Header() + R"(
    g (int64[2,3] ids) => (float[2,3,32] y, float[2,3,32] z)
    <uint8[6,16] t = {)" +
                         Bytes(96, 4) + "}, float[6,2] sc = {" + Values(12, 1.0, 0.2) +
                         "}, uint8[6,1] zp = {" + Bytes(6, 5) + R"(}> {
      y = com.microsoft.GatherBlockQuantized<block_size = 16, bits = 4>(t, ids, sc)
      z = com.microsoft.GatherBlockQuantized<block_size = 16, bits = 4>(t, ids, sc, zp)
    })",
                     {"DequantizeLinear", "Gather"});
}

TEST(StandardizeTest, EmbedLayerNormalization) {
  const std::string tables = "<float[6,8] word = {" + Values(48, 1.1) + "}, float[8,8] pos = {" +
                             Values(64, 1.2) + "}, float[4,8] seg = {" + Values(32, 1.3) +
                             "}, float[8] ga = {" + Values(8, 1.4, 1.0) + "}, float[8] be = {" +
                             Values(8, 1.5) + "}>";
  ExpectStandardized(Header() + R"(
    g (int32[2,5] ids, int32[2,5] segs, int32[2,5] mask) => (float[2,5,8] y, int32[2] mi, float[2,5,8] sum)
    )" + tables + R"( {
      y, mi, sum = com.microsoft.EmbedLayerNormalization<epsilon = 1e-5>(ids, segs, word, pos, seg, ga, be, mask)
    })",
                     {"Gather", "LayerNormalization", "ReduceSum"});
  // Position ids given, no segments, no mask: mask_index is zeros.
  ExpectStandardized(Header() + R"(
    g (int32[2,5] ids, int32[1,5] p) => (float[2,5,8] y, int32[2] mi)
    )" + tables + R"( {
      y, mi = com.microsoft.EmbedLayerNormalization(ids, , word, pos, , ga, be, , p)
    })",
                     {"Gather", "LayerNormalization", "ConstantOfShape"});
}

TEST(StandardizeTest, RotaryEmbedding) {
  const std::string caches = "<float[8,4] cosc = {" + Values(32, 1.6, 1.0) +
                             "}, float[8,4] sinc = {" + Values(32, 1.7, 1.0) + "}>";
  ExpectStandardized(Header() + R"(
    g (float[2,2,3,8] x, int64[2,3] p, float[2,3,16] h, int64[1] start) => (float[2,2,3,8] y, float[2,3,16] z)
    )" + caches + R"( {
      y = com.microsoft.RotaryEmbedding(x, p, cosc, sinc)
      z = com.microsoft.RotaryEmbedding<interleaved = 1>(h, start, cosc, sinc)
    })",
                     {"RotaryEmbedding", "Range", "Expand"});
}

}  // namespace
}  // namespace onnx_opt::passes
