// FusedMatMul against Transpose + MatMul + Mul run by the same interpreter.
#include "gtest/gtest.h"
#include "interpreter/testing/contrib_test_util.h"

namespace onnx_opt::interpreter::contrib {
namespace {

using testing::ExpectSameOutputs;
using testing::Model;
using testing::RandomF;

TEST(ContribFusedMatMul, TransposesAndAlpha) {
  ExpectSameOutputs(Model(R"(g (float[2,5,3] a, float[2,4,5] b) => (float[2,3,4] y) {
                 y = com.microsoft.FusedMatMul<transA = 1, transB = 1, alpha = 0.5>(a, b) })"),
                    Model(R"(g (float[2,5,3] a, float[2,4,5] b) => (float[2,3,4] y) {
                 at = Transpose<perm = [0, 2, 1]>(a) bt = Transpose<perm = [0, 2, 1]>(b) p = MatMul(at, bt)
                 h = Constant<value_float = 0.5>() y = Mul(p, h) })"),
                    {RandomF({2, 5, 3}, 1), RandomF({2, 4, 5}, 2)});
}

TEST(ContribFusedMatMul, BroadcastBatchAndPlain) {
  ExpectSameOutputs(
      Model(
          R"(g (float[3,2,5,6] a, float[6,4] b) => (float[3,2,5,4] y) { y = com.microsoft.FusedMatMul(a, b) })"),
      Model(R"(g (float[3,2,5,6] a, float[6,4] b) => (float[3,2,5,4] y) { y = MatMul(a, b) })"),
      {RandomF({3, 2, 5, 6}, 3), RandomF({6, 4}, 4)});
  ExpectSameOutputs(Model(R"(g (float[2,6,5] a, float[3,1,4,5] b) => (float[3,2,6,4] y) {
                 y = com.microsoft.FusedMatMul<transB = 1>(a, b) })"),
                    Model(R"(g (float[2,6,5] a, float[3,1,4,5] b) => (float[3,2,6,4] y) {
                 bt = Transpose<perm = [0, 1, 3, 2]>(b) y = MatMul(a, bt) })"),
                    {RandomF({2, 6, 5}, 5), RandomF({3, 1, 4, 5}, 6)});
}

TEST(ContribFusedMatMul, TransBatch) {
  // transBatchA as documented: the first dim moves behind the other batch dims (perm [1, 2, 0, 3]
  // for rank 4).
  ExpectSameOutputs(Model(R"(g (float[2,3,4,5] a, float[3,4,5,6] b) => (float[3,4,2,6] y) {
                 y = com.microsoft.FusedMatMul<transBatchA = 1>(a, b) })"),
                    Model(R"(g (float[2,3,4,5] a, float[3,4,5,6] b) => (float[3,4,2,6] y) {
                 at = Transpose<perm = [1, 2, 0, 3]>(a) y = MatMul(at, b) })"),
                    {RandomF({2, 3, 4, 5}, 7), RandomF({3, 4, 5, 6}, 8)});
}

}  // namespace
}  // namespace onnx_opt::interpreter::contrib
