#include <cstdint>

#include "gtest/gtest.h"
#include "interpreter/test_util.h"

namespace onnx_opt::interpreter {
namespace {

using testing::F;
using testing::I64;
using testing::OneNode;

TEST(ElementwiseTest, AddBroadcastsNumpyStyle) {
  OneNode g("Add", 2);
  auto r = g.Run({F({2, 1}, {1, 2}), F({3}, {10, 20, 30})});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)[0].tensor().dims(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ((*r)[0].tensor().ToVector<float>(), (std::vector<float>{11, 21, 31, 12, 22, 32}));
}

TEST(ElementwiseTest, LegacyBroadcastUsesAxis) {
  OneNode g("Mul", 2);
  g.node->SetAttribute(ir::Attribute::Int("broadcast", 1));
  g.node->SetAttribute(ir::Attribute::Int("axis", 0));
  auto r = g.Run({F({2, 2}, {1, 2, 3, 4}), F({2}, {10, 100})}, 6);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)[0].tensor().ToVector<float>(), (std::vector<float>{10, 20, 300, 400}));
}

TEST(ElementwiseTest, IntegerModFollowsDivisorSign) {
  OneNode g("Mod", 2);
  auto r = g.Run({I64({2}, {-7, 7}), I64({2}, {3, -3})});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)[0].tensor().ToVector<int64_t>(), (std::vector<int64_t>{2, -2}));
}

TEST(ElementwiseTest, IntegerDivisionByZeroIsAnErrorFreeZero) {
  OneNode g("Div", 2);
  auto r = g.Run({I64({1}, {5}), I64({1}, {0})});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)[0].tensor().ToVector<int64_t>()[0], 0);
}

TEST(ElementwiseTest, ReluAndSigmoid) {
  OneNode relu("Relu", 1);
  auto r = relu.Run({F({3}, {-1, 0, 2})});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)[0].tensor().ToVector<float>(), (std::vector<float>{0, 0, 2}));
  OneNode sig("Sigmoid", 1);
  r = sig.Run({F({1}, {0})});
  ASSERT_TRUE(r.ok());
  EXPECT_FLOAT_EQ((*r)[0].tensor().ToVector<float>()[0], 0.5f);
}

TEST(ElementwiseTest, UnsupportedTypeIsAnError) {
  OneNode g("Sqrt", 1);
  auto r = g.Run({I64({1}, {4})});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("int64"), std::string::npos) << r.status();
}

TEST(ElementwiseTest, WhereBroadcastsThreeWays) {
  OneNode g("Where", 3);
  Tensor c = Tensor::FromVector<bool>(DataType::kBool, {2, 1}, {true, false});
  auto r = g.Run({c, F({2}, {1, 2}), F({1}, {9})});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)[0].tensor().ToVector<float>(), (std::vector<float>{1, 2, 9, 9}));
}

// Found by auditing the kernels: an integer power without an int64 value (0 ^ -1 is inf, 2 ^ 70 too
// large) was an undefined conversion; it saturates.
TEST(ElementwiseTest, IntegerPowOutOfRangeSaturates) {
  OneNode g("Pow", 2);
  auto r = g.Run({I64({3}, {0, 2, 2}), I64({3}, {-1, 70, 3})}, 15);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)[0].tensor().ToVector<int64_t>(),
            (std::vector<int64_t>{INT64_MAX, INT64_MAX, 8}));
}

}  // namespace
}  // namespace onnx_opt::interpreter
