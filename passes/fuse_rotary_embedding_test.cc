// Tests for fuse-rotary-embedding: x * cos + rotate_half(x) * sin becomes RotaryEmbedding (opset 23),
// checked structurally and numerically.
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "passes/testing/pass_test_util.h"

namespace onnx_opt::passes {
namespace {

using ::onnx_opt::passes::testing::ExpectSameOutputs;
using ::onnx_opt::passes::testing::OpTypes;
using ::onnx_opt::passes::testing::RunPipelineOnText;
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::Not;

// x [2, 2, 3, 4]: the halves of the last axis by Slice, then the rotation.
constexpr char kRotateHalf[] = R"(
      x1 = Slice(X, zero, half, last)
      x2 = Slice(X, half, big, last)
      n = Neg(x2)
      r = Concat<axis = -1>(n, x1)
      xc = Mul(X, c)
      rs = Mul(r, s)
      Y = Add(xc, rs)
    })";

constexpr char kSliceConstants[] =
    "int64[1] zero = {0}, int64[1] half = {2}, int64[1] big = {9223372036854775807}, int64[1] last = {-1}";

TEST(FuseRotaryEmbeddingTest, CachesGatheredByPositionIds) {
  auto run = RunPipelineOnText(std::string(R"(
    <ir_version: 10, opset_import: ["" : 23]>
    g (float[2,2,3,4] X, int64[2,3] ids) => (float[2,2,3,4] Y)
    <)") + kSliceConstants + R"(, int64[1] one = {1},
     float[6,4] cos_cached = {1.0,0.5,1.0,0.5, 0.9,0.4,0.9,0.4, 0.8,0.3,0.8,0.3, 0.7,0.2,0.7,0.2, 0.6,0.1,0.6,0.1, 0.5,0.0,0.5,0.0},
     float[6,4] sin_cached = {0.0,0.1,0.0,0.1, 0.2,0.3,0.2,0.3, 0.4,0.5,0.4,0.5, 0.6,0.7,0.6,0.7, 0.8,0.9,0.8,0.9, 1.0,-0.1,1.0,-0.1}>
    {
      cg = Gather(cos_cached, ids)
      c = Unsqueeze(cg, one)
      sg = Gather(sin_cached, ids)
      s = Unsqueeze(sg, one)
)" + kRotateHalf,
                               "fuse-rotary-embedding");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("RotaryEmbedding"));
  EXPECT_EQ(run->after->graph().outputs()[0]->name(), "Y");
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
}

TEST(FuseRotaryEmbeddingTest, QueriesAndKeysShareTheGatheredTables) {
  auto run = RunPipelineOnText(std::string(R"(
    <ir_version: 10, opset_import: ["" : 23]>
    g (float[N,2,3,4] X, float[N,1,3,4] K, int64[N,3] ids) => (float[N,2,3,4] Y, float[N,1,3,4] Z)
    <)") + kSliceConstants + R"(, int64[1] one = {1},
     float[4,4] cos_cached = {1.0,0.5,1.0,0.5, 0.9,0.4,0.9,0.4, 0.8,0.3,0.8,0.3, 0.7,0.2,0.7,0.2},
     float[4,4] sin_cached = {0.0,0.1,0.0,0.1, 0.2,0.3,0.2,0.3, 0.4,0.5,0.4,0.5, 0.6,0.7,0.6,0.7}>
    {
      cg = Gather(cos_cached, ids)
      c = Unsqueeze(cg, one)
      sg = Gather(sin_cached, ids)
      s = Unsqueeze(sg, one)
      k1 = Slice(K, zero, half, last)
      k2 = Slice(K, half, big, last)
      kn = Neg(k2)
      kr = Concat<axis = -1>(kn, k1)
      kc = Mul(c, K)
      ks = Mul(s, kr)
      Z = Add(ks, kc)
)" + kRotateHalf,
                               "fuse-rotary-embedding");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("RotaryEmbedding", "RotaryEmbedding"));
  verify::EquivalenceOptions options;
  options.dims = {{"N", 2}};
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after, options));
}

TEST(FuseRotaryEmbeddingTest, ConstantTablesOfTheSequence) {
  auto run = RunPipelineOnText(std::string(R"(
    <ir_version: 10, opset_import: ["" : 23]>
    g (float[2,2,3,4] X) => (float[2,2,3,4] Y)
    <)") + kSliceConstants + R"(,
     float[3,4] c = {1.0,0.5,1.0,0.5, 0.9,0.4,0.9,0.4, 0.8,0.3,0.8,0.3},
     float[1,1,3,4] s = {0.0,0.1,0.0,0.1, 0.2,0.3,0.2,0.3, 0.4,0.5,0.4,0.5}>
    {
)" + kRotateHalf,
                               "fuse-rotary-embedding");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("RotaryEmbedding"));
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
}

TEST(FuseRotaryEmbeddingTest, HalvesBySplit) {
  auto run = RunPipelineOnText(R"(
    <ir_version: 10, opset_import: ["" : 23]>
    g (float[2,2,3,4] X, float[2,2,3,4] K) => (float[2,2,3,4] Y, float[2,2,3,4] Z)
    <float[3,4] c = {1.0,0.5,1.0,0.5, 0.9,0.4,0.9,0.4, 0.8,0.3,0.8,0.3},
     float[3,4] s = {0.0,0.1,0.0,0.1, 0.2,0.3,0.2,0.3, 0.4,0.5,0.4,0.5}, int64[2] sizes = {2, 2}>
    {
      x1, x2 = Split<axis = -1, num_outputs = 2>(X)
      n = Neg(x2)
      r = Concat<axis = -1>(n, x1)
      xc = Mul(X, c)
      rs = Mul(r, s)
      Y = Add(rs, xc)
      k1, k2 = Split<axis = 3>(K, sizes)
      kn = Neg(k2)
      kr = Concat<axis = 3>(kn, k1)
      kc = Mul(c, K)
      ks = Mul(s, kr)
      Z = Add(kc, ks)
    })", "fuse-rotary-embedding");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("RotaryEmbedding", "RotaryEmbedding"));
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
}

TEST(FuseRotaryEmbeddingTest, UnequalHalvesOtherSplitsAndOldOpsetsStay) {
  const std::string unequal = std::string(R"(
    <ir_version: 10, opset_import: ["" : 23]>
    g (float[2,2,3,4] X) => (float[2,2,3,4] Y)
    <)") + kSliceConstants + R"(,
     float[3,4] c = {1.0,0.5,1.0,0.6, 0.9,0.4,0.9,0.4, 0.8,0.3,0.8,0.3},
     float[3,4] s = {0.0,0.1,0.0,0.1, 0.2,0.3,0.2,0.3, 0.4,0.5,0.4,0.5}>
    {
)" + kRotateHalf;
  auto run = RunPipelineOnText(unequal, "fuse-rotary-embedding");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), Not(Contains("RotaryEmbedding")));

  std::string equal = unequal;
  equal.replace(equal.find("1.0,0.6"), 7, "1.0,0.5");
  std::string shifted = equal;
  shifted.replace(shifted.find("half = {2}"), 10, "half = {1}");
  run = RunPipelineOnText(shifted, "fuse-rotary-embedding");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), Not(Contains("RotaryEmbedding")));

  std::string old = equal;
  old.replace(old.find("\"\" : 23"), 7, "\"\" : 22");
  run = RunPipelineOnText(old, "fuse-rotary-embedding");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), Not(Contains("RotaryEmbedding")));

  run = RunPipelineOnText(equal, "fuse-rotary-embedding");  // the control: this one fuses
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("RotaryEmbedding"));
}

}  // namespace
}  // namespace onnx_opt::passes
