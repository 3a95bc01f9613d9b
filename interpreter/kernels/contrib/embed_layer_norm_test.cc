// EmbedLayerNormalization against Gather + Add + LayerNormalization (and ReduceSum of the mask) run
// by the same interpreter.
#include "gtest/gtest.h"
#include "interpreter/testing/contrib_test_util.h"

namespace onnx_opt::interpreter::contrib {
namespace {

using testing::ExpectError;
using testing::ExpectSameOutputs;
using testing::I32;
using testing::Model;
using testing::RandomF;

TEST(ContribEmbedLayerNorm, AllInputsAndOutputs) {
  ExpectSameOutputs(
      Model(
          R"(g (int32[2,3] ids, int32[2,3] seg, float[10,8] we, float[6,8] pe, float[2,8] se, float[8] ga, float[8] be,
                 int32[2,3] mask) => (float[2,3,8] y, int32[2] mi, float[2,3,8] sum) {
                 y, mi, sum = com.microsoft.EmbedLayerNormalization<epsilon = 1e-5>(ids, seg, we, pe, se, ga, be, mask) })"),
      Model(
          R"(g (int32[2,3] ids, int32[2,3] seg, float[10,8] we, float[6,8] pe, float[2,8] se, float[8] ga, float[8] be,
                 int32[2,3] mask) => (float[2,3,8] y, int32[2] mi, float[2,3,8] sum)
               <int64[1] z = {0}, int64[1] three = {3}, int64[1] ax = {1}> {
                 w = Gather(we, ids) p3 = Slice(pe, z, three) s = Gather(se, seg) t = Add(w, p3) sum = Add(t, s)
                 y = LayerNormalization<epsilon = 1e-5>(sum, ga, be)
                 one = Constant<value = int32[1] {1}>() ones = Equal(mask, one) oi = Cast<to = 6>(ones)
                 mi = ReduceSum<keepdims = 0>(oi, ax) })"),
      {I32({2, 3}, {1, 5, 9, 0, 2, 2}), I32({2, 3}, {0, 0, 1, 1, 1, 0}), RandomF({10, 8}, 1),
       RandomF({6, 8}, 2), RandomF({2, 8}, 3), RandomF({8}, 4), RandomF({8}, 5),
       I32({2, 3}, {1, 1, 0, 1, 0, 0})});
}

TEST(ContribEmbedLayerNorm, PositionIdsNoSegmentsNoMask) {
  // position_ids of [1, S] for every batch; mask_index without a mask is zeros.
  ExpectSameOutputs(
      Model(
          R"(g (int32[2,3] ids, float[10,8] we, float[6,8] pe, float[8] ga, float[8] be, int32[1,3] pos)
                 => (float[2,3,8] y, int32[2] mi) {
                 y, mi = com.microsoft.EmbedLayerNormalization(ids, , we, pe, , ga, be, , pos) })"),
      Model(
          R"(g (int32[2,3] ids, float[10,8] we, float[6,8] pe, float[8] ga, float[8] be, int32[1,3] pos)
                 => (float[2,3,8] y, int32[2] mi) <int64[1] two = {2}> {
                 w = Gather(we, ids) p = Gather(pe, pos) t = Add(w, p) y = LayerNormalization<epsilon = 1e-12>(t, ga, be)
                 mi = ConstantOfShape<value = int32[1] {0}>(two) })"),
      {I32({2, 3}, {1, 5, 9, 0, 2, 2}), RandomF({10, 8}, 1), RandomF({6, 8}, 2), RandomF({8}, 4),
       RandomF({8}, 5), I32({1, 3}, {5, 3, 4})});
}

TEST(ContribEmbedLayerNorm, IdsOutsideTheTablesAreErrors) {
  const std::string m = Model(
      R"(g (int32[1,2] ids, float[4,8] we, float[2,8] pe, float[8] ga, float[8] be) => (float[1,2,8] y) {
                                   y = com.microsoft.EmbedLayerNormalization(ids, , we, pe, , ga, be) })");
  ExpectError(m,
              {I32({1, 2}, {1, 4}), RandomF({4, 8}, 1), RandomF({2, 8}, 2), RandomF({8}, 4),
               RandomF({8}, 5)},
              "input 'input_ids' holds 4, outside word_embedding's 4 rows");
  ExpectError(m,
              {I32({1, 2}, {1, 3}), RandomF({4, 8}, 1), RandomF({1, 8}, 2), RandomF({8}, 4),
               RandomF({8}, 5)},
              "position 1 is outside position_embedding's 1 rows");
}

}  // namespace
}  // namespace onnx_opt::interpreter::contrib
