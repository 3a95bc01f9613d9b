#include "gtest/gtest.h"
#include "interpreter/testing/test_util.h"

namespace onnx_opt::interpreter {
namespace {

using testing::F;
using testing::OneNode;

TEST(RandomTest, SeededDrawsRepeatAndStayInRange) {
  auto run = [](float seed) {
    OneNode g("RandomUniform", 0);
    g.node->SetAttribute(ir::Attribute::Ints("shape", {4, 5}));
    g.node->SetAttribute(ir::Attribute::Float("low", -2.0f));
    g.node->SetAttribute(ir::Attribute::Float("high", 3.0f));
    g.node->SetAttribute(ir::Attribute::Float("seed", seed));
    auto r = g.Run({}, 1);
    EXPECT_TRUE(r.ok()) << r.status();
    return r.ok() ? (*r)[0].tensor().ToVector<float>() : std::vector<float>{};
  };
  const std::vector<float> a = run(1.0f), b = run(1.0f), c = run(2.0f);
  ASSERT_EQ(a.size(), 20u);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  for (float v : a) {
    EXPECT_GE(v, -2.0f);
    EXPECT_LT(v, 3.0f);
  }
}

TEST(RandomTest, BernoulliAndMultinomialValues) {
  OneNode bern("Bernoulli", 1);
  auto b = bern.Run({F({6}, {0.0f, 1.0f, 0.5f, 0.5f, 0.0f, 1.0f})}, 15);
  ASSERT_TRUE(b.ok()) << b.status();
  const std::vector<float> v = (*b)[0].tensor().ToVector<float>();
  EXPECT_EQ(v[0], 0.0f);
  EXPECT_EQ(v[1], 1.0f);
  for (float x : v) EXPECT_TRUE(x == 0.0f || x == 1.0f);

  OneNode multi("Multinomial", 1);
  multi.node->SetAttribute(ir::Attribute::Int("sample_size", 50));
  // Class 1 is all but certain.
  auto m = multi.Run({F({1, 3}, {-30.0f, 30.0f, -30.0f})}, 7);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ((*m)[0].tensor().dims(), (std::vector<int64_t>{1, 50}));
  for (int32_t k : (*m)[0].tensor().ToVector<int32_t>()) EXPECT_EQ(k, 1);
}

TEST(RandomTest, NegativeShapeIsAnError) {
  OneNode g("RandomNormal", 0);
  g.node->SetAttribute(ir::Attribute::Ints("shape", {2, -1}));
  EXPECT_FALSE(g.Run({}, 1).ok());
}

}  // namespace
}  // namespace onnx_opt::interpreter
