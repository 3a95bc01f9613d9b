// com.microsoft RotaryEmbedding against ai.onnx RotaryEmbedding-23 (same rotation, position_ids
// last there) run by the same interpreter, and one rotation by hand.
#include <cmath>

#include "gtest/gtest.h"
#include "interpreter/testing/contrib_test_util.h"

namespace onnx_opt::interpreter::contrib {
namespace {

using testing::ExpectError;
using testing::ExpectSameOutputs;
using testing::F;
using testing::I64;
using testing::Model;
using testing::RandomF;
using testing::RunModel;

TEST(ContribRotaryEmbedding, ThreeDimsBothLayouts) {
  for (int interleaved : {0, 1}) {
    const std::string attrs = absl::StrCat("interleaved = ", interleaved);
    ExpectSameOutputs(
        Model(absl::StrCat(
            R"(g (float[2,3,16] x, int64[2,3] p, float[8,4] c, float[8,4] s) => (float[2,3,16] y) {
                                y = com.microsoft.RotaryEmbedding<)",
            attrs, R"(>(x, p, c, s) })")),
        Model(absl::StrCat(
            R"(g (float[2,3,16] x, int64[2,3] p, float[8,4] c, float[8,4] s) => (float[2,3,16] y) {
                                y = RotaryEmbedding<num_heads = 2, )",
            attrs, R"(>(x, c, s, p) })")),
        {RandomF({2, 3, 16}, 1), I64({2, 3}, {0, 1, 2, 5, 6, 7}), RandomF({8, 4}, 2),
         RandomF({8, 4}, 3)});
  }
}

TEST(ContribRotaryEmbedding, FourDimsPartialRotaryAndStartPosition) {
  // position_ids [1]: the first token's position; rotary_embedding_dim 4 of head size 8.
  ExpectSameOutputs(
      Model(R"(g (float[2,2,3,8] x, int64[1] p, float[8,2] c, float[8,2] s) => (float[2,2,3,8] y) {
                 y = com.microsoft.RotaryEmbedding<rotary_embedding_dim = 4, num_heads = 2>(x, p, c, s) })"),
      Model(R"(g (float[2,2,3,8] x, int64[1] p, float[8,2] c, float[8,2] s) => (float[2,2,3,8] y)
               <int64 z = {0}, int64 three = {3}, int64 one = {1}, int64[2] shape = {2, 3}> {
                 r = Range(z, three, one) q = Add(r, p) ids = Expand(q, shape)
                 y = RotaryEmbedding<rotary_embedding_dim = 4>(x, c, s, ids) })"),
      {RandomF({2, 2, 3, 8}, 4), I64({1}, {2}), RandomF({8, 2}, 5), RandomF({8, 2}, 6)});
}

TEST(ContribRotaryEmbedding, ByHandAndErrors) {
  // One head of 2: (1, 2) rotated by 90 degrees is (-2, 1).
  auto r = RunModel(
      Model(R"(g (float[1,1,2] x, int64[1,1] p, float[1,1] c, float[1,1] s) => (float[1,1,2] y) {
                               y = com.microsoft.RotaryEmbedding(x, p, c, s) })"),
      {F({1, 1, 2}, {1, 2}), I64({1, 1}, {0}), F({1, 1}, {0}), F({1, 1}, {1})});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_FLOAT_EQ((*r)[0].tensor().data<float>()[0], -2);
  EXPECT_FLOAT_EQ((*r)[0].tensor().data<float>()[1], 1);
  ExpectError(
      Model(R"(g (float[1,2,4] x, int64[1,2] p, float[2,2] c, float[2,2] s) => (float[1,2,4] y) {
                         y = com.microsoft.RotaryEmbedding(x, p, c, s) })"),
      {RandomF({1, 2, 4}, 1), I64({1, 2}, {1, 2}), RandomF({2, 2}, 2), RandomF({2, 2}, 3)},
      "position 2 is outside the caches' 2 rows");
}

}  // namespace
}  // namespace onnx_opt::interpreter::contrib
