#include "gtest/gtest.h"
#include "interpreter/test_util.h"

namespace onnx_opt::interpreter {
namespace {

using testing::F;
using testing::OneNode;

TEST(LinalgTest, MatMulBatchedBroadcast) {
  OneNode g("MatMul", 2);
  // [2,1,2] x [2,1] -> [2,1,1]
  auto r = g.Run({F({2, 1, 2}, {1, 2, 3, 4}), F({2, 1}, {10, 1})});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)[0].tensor().dims(), (std::vector<int64_t>{2, 1, 1}));
  EXPECT_EQ((*r)[0].tensor().ToVector<float>(), (std::vector<float>{12, 34}));
}

TEST(LinalgTest, GemmTransposeAlphaBeta) {
  OneNode g("Gemm", 3);
  g.node->SetAttribute(ir::Attribute::Int("transA", 1));
  g.node->SetAttribute(ir::Attribute::Float("alpha", 2));
  g.node->SetAttribute(ir::Attribute::Float("beta", 0.5));
  auto r = g.Run({F({2, 1}, {1, 2}), F({2, 1}, {3, 4}), F({1}, {10})});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)[0].tensor().ToVector<float>(), (std::vector<float>{2 * 11 + 5}));
}

TEST(ConvPoolTest, Conv2DPaddedAndStrided) {
  OneNode g("Conv", 2);
  g.node->SetAttribute(ir::Attribute::Ints("pads", {1, 1, 1, 1}));
  g.node->SetAttribute(ir::Attribute::Ints("strides", {2, 2}));
  std::vector<float> x(9);
  for (int i = 0; i < 9; ++i) x[i] = i;
  auto r = g.Run({F({1, 1, 3, 3}, x), F({1, 1, 3, 3}, std::vector<float>(9, 1))});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)[0].tensor().dims(), (std::vector<int64_t>{1, 1, 2, 2}));
  // Windows centred on (0,0), (0,2), (2,0), (2,2).
  EXPECT_EQ((*r)[0].tensor().ToVector<float>(), (std::vector<float>{8, 12, 20, 24}));
}

TEST(ConvPoolTest, MaxPoolCeilModeAndAveragePoolPads) {
  OneNode m("MaxPool", 1);
  m.node->SetAttribute(ir::Attribute::Ints("kernel_shape", {2}));
  m.node->SetAttribute(ir::Attribute::Ints("strides", {2}));
  m.node->SetAttribute(ir::Attribute::Int("ceil_mode", 1));
  auto r = m.Run({F({1, 1, 5}, {1, 5, 2, 4, 3})});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)[0].tensor().ToVector<float>(), (std::vector<float>{5, 4, 3}));
  OneNode a("AveragePool", 1);
  a.node->SetAttribute(ir::Attribute::Ints("kernel_shape", {2}));
  a.node->SetAttribute(ir::Attribute::Ints("pads", {1, 0}));
  r = a.Run({F({1, 1, 2}, {2, 4})});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)[0].tensor().ToVector<float>(), (std::vector<float>{2, 3}));  // pads not counted
}

TEST(NormalizationTest, LayerNormalizationLastAxis) {
  OneNode g("LayerNormalization", 2);
  auto r = g.Run({F({1, 2}, {1, 3}), F({2}, {1, 1})}, 17);
  ASSERT_TRUE(r.ok()) << r.status();
  auto v = (*r)[0].tensor().ToVector<float>();
  EXPECT_NEAR(v[0], -1, 1e-4);
  EXPECT_NEAR(v[1], 1, 1e-4);
}

}  // namespace
}  // namespace onnx_opt::interpreter
