// Tests for fuse-rotary-embedding: x * cos + rotate_half(x) * sin becomes RotaryEmbedding (opset
// 23), checked structurally and numerically.
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
    "int64[1] zero = {0}, int64[1] half = {2}, int64[1] big = {9223372036854775807}, int64[1] last "
    "= {-1}";

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
  equivalence::EquivalenceOptions options;
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
    })",
                               "fuse-rotary-embedding");
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

// The tables as current exporters compute them from position ids (here the Mul spelling: positions
// [N, S, 1] times inv_freq [2]), cat(freqs, freqs), Cos/Sin times an attention scaling, then the
// head axis: RotaryEmbedding gets the half tables Cos(freqs) * scaling [N, S, 2] and no position
// ids.
constexpr char kComputedTables[] = R"(
    <ir_version: 10, opset_import: ["" : 23]>
    g (float[N,2,S,4] X, float[N,1,S,4] K, int64[N,S] ids) => (float[N,2,S,4] Y, float[N,1,S,4] Z)
    <int64[1] zero = {0}, int64[1] half = {2}, int64[1] big = {9223372036854775807}, int64[1] last = {-1},
     int64[1] one = {1}, int64[1] two = {2}, float[2] inv_freq = {1.0, 0.01}, float scaling = {0.9}>
    {
      pos_u = Unsqueeze(ids, two)
      pos = Cast<to = 1>(pos_u)
      freqs = Mul(pos, inv_freq)
      emb = Concat<axis = -1>(freqs, freqs)
      cos_e = Cos(emb)
      cos_s = Mul(cos_e, scaling)
      sin_e = Sin(emb)
      sin_s = Mul(scaling, sin_e)
      c = Unsqueeze(cos_s, one)
      s = Unsqueeze(sin_s, one)
      k1 = Slice(K, zero, half, last)
      k2 = Slice(K, half, big, last)
      kn = Neg(k2)
      kr = Concat<axis = -1>(kn, k1)
      kc = Mul(c, K)
      ks = Mul(s, kr)
      Z = Add(ks, kc)
)";

TEST(FuseRotaryEmbeddingTest, TablesComputedFromPositionIdsBecomeHalfTables) {
  auto run = RunPipelineOnText(std::string(kComputedTables) + kRotateHalf,
                               "infer-shapes,fuse-rotary-embedding,cse,dead-nodes");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()),
              ElementsAre("Unsqueeze", "Cast", "Mul", "Cos", "Mul", "Sin", "Mul", "RotaryEmbedding",
                          "RotaryEmbedding"));
  for (const ir::Node* n : run->after->graph().nodes()) {
    if (n->op_type() != "RotaryEmbedding") continue;
    EXPECT_EQ(n->num_inputs(), 3);  // no position ids: the caches are [N, S, 2]
    EXPECT_EQ(n->input(1)->producer()->op_type(), "Mul");
    EXPECT_EQ(n->input(1)->producer()->input(0)->producer()->op_type(), "Cos");
  }
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
}

TEST(FuseRotaryEmbeddingTest, ComputedTablesWhoseHalvesMayDifferStay) {
  const std::string fused = std::string(kComputedTables) + kRotateHalf;
  // Concat of two different values; a table of one batch row broadcast over N (RotaryEmbedding
  // takes [N, S, 2] only); an op that is not elementwise between the Concat and the use.
  std::string different = fused;
  different.replace(different.find("emb = Concat<axis = -1>(freqs, freqs)"), 37,
                    "emb = Concat<axis = -1>(freqs, pos_u2)\n      pos_u2 = Mul(freqs, scaling)");
  std::string one_row = fused;
  one_row.replace(one_row.find("int64[N,S] ids"), 14, "int64[1,S] ids");
  std::string softmax = fused;
  softmax.replace(softmax.find("cos_e = Cos(emb)"), 16, "cos_e = Softmax(emb)");
  for (const std::string& text : {different, one_row, softmax}) {
    auto run = RunPipelineOnText(text, "infer-shapes,fuse-rotary-embedding");
    ASSERT_TRUE(run.ok()) << run.status();
    EXPECT_THAT(OpTypes(run->after->graph()), Not(Contains("RotaryEmbedding"))) << text;
  }
}

// GPT-J's interleaved rotation of x [N, 2, S, 4]: rotate_every_two(x) =
// torch.stack((-x[..., 1::2], x[..., ::2]), -1).flatten(-2), the pairs (x0, x1), (x2, x3).
constexpr char kRotateEveryTwo[] = R"(
      odd = Slice(X, one_s, big, last, two_s)
      even = Slice(X, zero, big, last, two_s)
      n = Neg(odd)
      nu = Unsqueeze(n, minus_one)
      eu = Unsqueeze(even, minus_one)
      pairs = Concat<axis = -1>(nu, eu)
      r = Reshape(pairs, x_shape)
      xc = Mul(X, c)
      rs = Mul(r, s)
      Y = Add(xc, rs)
    })";

constexpr char kEveryTwoConstants[] =
    "int64[1] zero = {0}, int64[1] one_s = {1}, int64[1] two_s = {2}, int64[1] minus_one = {-1}, "
    "int64[1] big = {9223372036854775807}, int64[1] last = {-1}, int64[1] one = {1}, "
    "int64[1] two = {2}";

TEST(FuseRotaryEmbeddingTest, InterleavedCachesGatheredByPositionIds) {
  // Caches of pairs (repeat_interleave(half, 2)): RotaryEmbedding's interleaved = 1 on their
  // halves.
  const std::string text = std::string(R"(
    <ir_version: 10, opset_import: ["" : 23]>
    g (float[2,2,3,4] X, int64[2,3] ids) => (float[2,2,3,4] Y)
    <)") + kEveryTwoConstants +
                           R"(, int64[4] x_shape = {2, 2, 3, 4},
     float[6,4] cos_cached = {1.0,1.0,0.5,0.5, 0.9,0.9,0.4,0.4, 0.8,0.8,0.3,0.3, 0.7,0.7,0.2,0.2, 0.6,0.6,0.1,0.1, 0.5,0.5,0.0,0.0},
     float[6,4] sin_cached = {0.0,0.0,0.1,0.1, 0.2,0.2,0.3,0.3, 0.4,0.4,0.5,0.5, 0.6,0.6,0.7,0.7, 0.8,0.8,0.9,0.9, 1.0,1.0,-0.1,-0.1}>
    {
      cg = Gather(cos_cached, ids)
      c = Unsqueeze(cg, one)
      sg = Gather(sin_cached, ids)
      s = Unsqueeze(sg, one)
)" + kRotateEveryTwo;
  auto run = RunPipelineOnText(text, "infer-shapes,fuse-rotary-embedding");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("RotaryEmbedding"));
  const ir::Node* rotary = run->after->graph().first_node();
  EXPECT_EQ(rotary->GetInt("interleaved", 0), 1);
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));

  // Caches of halves (cat(freqs, freqs)) with the interleaved rotation are no RotaryEmbedding.
  std::string halves = text;
  halves.replace(halves.find("1.0,1.0,0.5,0.5"), 15, "1.0,0.5,1.0,0.5");
  run = RunPipelineOnText(halves, "infer-shapes,fuse-rotary-embedding");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), Not(Contains("RotaryEmbedding")));
}

TEST(FuseRotaryEmbeddingTest, InterleavedConstantTablesOfTheSequence) {
  auto run = RunPipelineOnText(std::string(R"(
    <ir_version: 10, opset_import: ["" : 23]>
    g (float[2,2,3,4] X) => (float[2,2,3,4] Y)
    <)") + kEveryTwoConstants + R"(, int64[4] x_shape = {2, 2, 3, 4},
     float[3,4] c = {1.0,1.0,0.5,0.5, 0.9,0.9,0.4,0.4, 0.8,0.8,0.3,0.3},
     float[1,1,3,4] s = {0.0,0.0,0.1,0.1, 0.2,0.2,0.3,0.3, 0.4,0.4,0.5,0.5}>
    {
)" + kRotateEveryTwo,
                               "infer-shapes,fuse-rotary-embedding");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("RotaryEmbedding"));
  EXPECT_EQ(run->after->graph().first_node()->GetInt("interleaved", 0), 1);
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
}

// The interleaved tables computed from position ids: each frequency twice in a row
// (torch.stack((freqs, freqs), -1).flatten(-2)), Cos/Sin, the head axis.
constexpr char kInterleavedComputedTables[] = R"(
    <ir_version: 10, opset_import: ["" : 23]>
    g (float[N,2,S,4] X, int64[N,S] ids) => (float[N,2,S,4] Y)
    <@CONSTANTS, float[2] inv_freq = {1.0, 0.01}>
    {
      x_shape = Shape(X)
      pos_u = Unsqueeze(ids, two)
      pos = Cast<to = 1>(pos_u)
      freqs = Mul(pos, inv_freq)
      fu = Unsqueeze(freqs, minus_one)
      fpairs = Concat<axis = -1>(fu, fu)
      t_shape = Shape(pos)
      t_head = Slice(t_shape, zero, two, zero)
      t_full = Concat<axis = 0>(t_head, four)
      emb = Reshape(fpairs, t_full)
      cos_e = Cos(emb)
      sin_e = Sin(emb)
      c = Unsqueeze(cos_e, one)
      s = Unsqueeze(sin_e, one)
)";

TEST(FuseRotaryEmbeddingTest, InterleavedTablesComputedFromPositionIds) {
  std::string text = std::string(kInterleavedComputedTables) + kRotateEveryTwo;
  text.replace(text.find("@CONSTANTS"), 10,
               std::string(kEveryTwoConstants) + ", int64[1] four = {4}");
  auto run = RunPipelineOnText(text, "infer-shapes,fuse-rotary-embedding,cse,dead-nodes");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()),
              ElementsAre("Unsqueeze", "Cast", "Mul", "Cos", "Sin", "RotaryEmbedding"));
  const ir::Node* rotary = run->after->graph().last_node();
  EXPECT_EQ(rotary->GetInt("interleaved", 0), 1);
  EXPECT_EQ(rotary->num_inputs(), 3u);
  equivalence::EquivalenceOptions options;
  options.dims = {{"N", 2}, {"S", 3}};
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after, options));

  // A rotation of halves over interleaved tables stays.
  std::string mixed = std::string(kInterleavedComputedTables) + kRotateHalf;
  mixed.replace(mixed.find("@CONSTANTS"), 10,
                std::string(kEveryTwoConstants) + ", int64[1] four = {4}, int64[1] half = {2}");
  run = RunPipelineOnText(mixed, "infer-shapes,fuse-rotary-embedding");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), Not(Contains("RotaryEmbedding")));
}

// Phi's partial rotation: the first 4 of 8 rotated, the rest passed through.
constexpr char kPartialRotation[] = R"(
    <ir_version: 10, opset_import: ["" : 23]>
    g (float[N,2,S,8] X, int64[N,S] ids) => (float[N,2,S,8] Y)
    <int64[1] zero = {0}, int64[1] half = {2}, int64[1] rot = {4}, int64[1] pass = {4},
     int64[1] big = {9223372036854775807}, int64[1] last = {-1}, int64[1] one = {1}, int64[1] two = {2},
     float[2] inv_freq = {1.0, 0.01}>
    {
      pos_u = Unsqueeze(ids, two)
      pos = Cast<to = 1>(pos_u)
      freqs = Mul(pos, inv_freq)
      emb = Concat<axis = -1>(freqs, freqs)
      cos_e = Cos(emb)
      sin_e = Sin(emb)
      c = Unsqueeze(cos_e, one)
      s = Unsqueeze(sin_e, one)
      xr = Slice(X, zero, rot, last)
      xp = Slice(X, pass, big, last)
      x1 = Slice(xr, zero, half, last)
      x2 = Slice(xr, half, big, last)
      n = Neg(x2)
      r = Concat<axis = -1>(n, x1)
      xc = Mul(xr, c)
      rs = Mul(r, s)
      y = Add(xc, rs)
      Y = Concat<axis = -1>(y, xp)
    })";

TEST(FuseRotaryEmbeddingTest, PartialRotationBecomesRotaryEmbeddingDim) {
  auto run = RunPipelineOnText(kPartialRotation, "infer-shapes,fuse-rotary-embedding,dead-nodes");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()),
              ElementsAre("Unsqueeze", "Cast", "Mul", "Cos", "Sin", "RotaryEmbedding"));
  const ir::Node* rotary = run->after->graph().outputs()[0]->producer();
  EXPECT_EQ(rotary->GetInt("rotary_embedding_dim", 0), 4);
  EXPECT_EQ(rotary->input(0)->name(), "X");
  EXPECT_EQ(run->after->graph().outputs()[0]->name(), "Y");
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));

  // A gap between the rotated part and the rest, or the rest first: the rotation of the slice
  // alone.
  std::string gap = kPartialRotation;
  gap.replace(gap.find("pass = {4}"), 10, "pass = {5}");
  std::string swapped = kPartialRotation;
  swapped.replace(swapped.find("Concat<axis = -1>(y, xp)"), 24, "Concat<axis = -1>(xp, y)");
  for (const std::string& text : {gap, swapped}) {
    run = RunPipelineOnText(text, "infer-shapes,fuse-rotary-embedding,dead-nodes");
    ASSERT_TRUE(run.ok()) << run.status();
    EXPECT_THAT(OpTypes(run->after->graph()), Contains("Slice").Times(2)) << text;
    const ir::Node* y = run->after->graph().outputs()[0]->producer();
    EXPECT_EQ(y->op_type(), "Concat");
    EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
  }
}

// Heads split from [N, S, 8] by the exporter's Reshape/Transpose, then rotated: the rotation moves
// before the split (RotaryEmbedding's 3-D form, num_heads = 2).
TEST(FuseRotaryEmbeddingTest, HeadSplitMovesAfterTheRotation) {
  std::string text = std::string(kComputedTables) + kRotateHalf;
  text.replace(text.find("float[N,2,S,4] X,"), 17, "float[N,S,8] X3,");
  text.replace(text.find("int64[1] zero"), 0, "int64[4] split = {0, 0, 2, 4}, ");
  text.replace(
      text.find("    {\n"), 6,
      "    {\n      X4 = Reshape(X3, split)\n      X = Transpose<perm = [0, 2, 1, 3]>(X4)\n");
  // The second run moves the split (the RotaryEmbedding the first made comes before the node it
  // replaced, which one sweep has passed).
  auto run = RunPipelineOnText(
      text, "infer-shapes,fuse-rotary-embedding,fuse-rotary-embedding,cse,dead-nodes");
  ASSERT_TRUE(run.ok()) << run.status();
  const ir::Node* y = run->after->graph().outputs()[0]->producer();
  ASSERT_EQ(y->op_type(), "Transpose");
  const ir::Node* rotary = y->input(0)->producer()->input(0)->producer();
  ASSERT_EQ(rotary->op_type(), "RotaryEmbedding");
  EXPECT_EQ(rotary->GetInt("num_heads", 0), 2);
  EXPECT_EQ(rotary->input(0)->name(), "X3");
  equivalence::EquivalenceOptions options;
  options.dims = {{"N", 2}, {"S", 3}};
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after, options));
}

}  // namespace
}  // namespace onnx_opt::passes
