// Gelu, FastGelu, BiasGelu, QuickGelu and BiasAdd against their decompositions into standard ops
// (Gelu-20, Add, Sigmoid, Mul) run by the same interpreter, and a few values by hand.
#include <cmath>

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

TEST(ContribActivations, GeluIsErfGelu) {
  ExpectSameOutputs(Model("g (float[2,3,8] x) => (float[2,3,8] y) { y = com.microsoft.Gelu(x) }"),
                    Model("g (float[2,3,8] x) => (float[2,3,8] y) { y = Gelu(x) }"),
                    {RandomF({2, 3, 8}, 1, 4)});
  auto r = RunModel(Model("g (float[3] x) => (float[3] y) { y = com.microsoft.Gelu(x) }"),
                    {F({3}, {0, 1, -1})});
  ASSERT_TRUE(r.ok()) << r.status();
  const float* y = (*r)[0].tensor().data<float>();
  EXPECT_FLOAT_EQ(y[0], 0);
  EXPECT_NEAR(y[1], 0.8413447, 1e-6);
  EXPECT_NEAR(y[2], -0.1586553, 1e-6);
}

TEST(ContribActivations, FastGeluWithAndWithoutBias) {
  ExpectSameOutputs(
      Model("g (float[2,3,8] x) => (float[2,3,8] y) { y = com.microsoft.FastGelu(x) }"),
      Model("g (float[2,3,8] x) => (float[2,3,8] y) { y = Gelu<approximate = \"tanh\">(x) }"),
      {RandomF({2, 3, 8}, 2, 4)});
  ExpectSameOutputs(Model("g (float[2,3,8] x, float[8] b) => (float[2,3,8] y) { y = "
                          "com.microsoft.FastGelu(x, b) }"),
                    Model("g (float[2,3,8] x, float[8] b) => (float[2,3,8] y) { s = Add(x, b) y = "
                          "Gelu<approximate = \"tanh\">(s) }"),
                    {RandomF({2, 3, 8}, 3, 4), RandomF({8}, 4)});
  // The documented formula with its rounded constants, at x = 1: 0.5 * (1 + tanh(0.797885 +
  // 0.035677)).
  auto r = RunModel(Model("g (float[1] x) => (float[1] y) { y = com.microsoft.FastGelu(x) }"),
                    {F({1}, {1})});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_NEAR((*r)[0].tensor().data<float>()[0], 0.5 * (1 + std::tanh(0.797885 + 0.035677)), 1e-6);
  ExpectError(
      Model("g (float[2,8] x, float[4] b) => (float[2,8] y) { y = com.microsoft.FastGelu(x, b) }"),
      {RandomF({2, 8}, 1), RandomF({4}, 2)}, "input 'bias' must have shape [8]");
}

TEST(ContribActivations, BiasGelu) {
  ExpectSameOutputs(
      Model("g (float[4,8] a, float[8] b) => (float[4,8] y) { y = com.microsoft.BiasGelu(a, b) }"),
      Model("g (float[4,8] a, float[8] b) => (float[4,8] y) { s = Add(a, b) y = Gelu(s) }"),
      {RandomF({4, 8}, 5, 3), RandomF({8}, 6)});
}

TEST(ContribActivations, QuickGeluDefaultAndCustomAlpha) {
  ExpectSameOutputs(Model("g (float[4,8] x) => (float[4,8] y) { y = com.microsoft.QuickGelu(x) }"),
                    Model(R"(g (float[4,8] x) => (float[4,8] y) {
                               a = Constant<value_float = 1.702>() s = Mul(x, a) t = Sigmoid(s) y = Mul(x, t) })"),
                    {RandomF({4, 8}, 7, 5)});
  ExpectSameOutputs(
      Model("g (float[4,8] x) => (float[4,8] y) { y = com.microsoft.QuickGelu<alpha = 1.0>(x) }"),
      Model("g (float[4,8] x) => (float[4,8] y) { t = Sigmoid(x) y = Mul(x, t) }"),
      {RandomF({4, 8}, 8, 5)});
}

TEST(ContribActivations, BiasAdd) {
  ExpectSameOutputs(Model("g (float[2,4,8] x, float[8] b, float[2,4,8] s) => (float[2,4,8] y) { y "
                          "= com.microsoft.BiasAdd(x, b, s) }"),
                    Model("g (float[2,4,8] x, float[8] b, float[2,4,8] s) => (float[2,4,8] y) { t "
                          "= Add(x, b) y = Add(t, s) }"),
                    {RandomF({2, 4, 8}, 9), RandomF({8}, 10), RandomF({2, 4, 8}, 11)});
  ExpectError(Model("g (float[2,4,8] x, float[8] b, float[4,8] s) => (float[2,4,8] y) { y = "
                    "com.microsoft.BiasAdd(x, b, s) }"),
              {RandomF({2, 4, 8}, 9), RandomF({8}, 10), RandomF({4, 8}, 11)},
              "input 'skip' must have the shape of X");
}

TEST(ContribActivations, Float16ComputesInFloat) {
  ExpectSameOutputs(
      Model("g (float16[4,8] x) => (float16[4,8] y) { y = com.microsoft.FastGelu(x) }"),
      Model("g (float16[4,8] x) => (float16[4,8] y) { a = Cast<to = 1>(x) b = Gelu<approximate = "
            "\"tanh\">(a) y = Cast<to = 10>(b) }"),
      {*CastTensor(RandomF({4, 8}, 12, 3), DataType::kFloat16)});
}

}  // namespace
}  // namespace onnx_opt::interpreter::contrib
