#include "gtest/gtest.h"
#include "interpreter/test_util.h"

namespace onnx_opt::interpreter {
namespace {

using testing::F;
using testing::I64;
using testing::OneNode;

TEST(ShapeTest, ReshapeWithZeroAndMinusOne) {
  OneNode g("Reshape", 2);
  auto r = g.Run({F({2, 3, 4}, std::vector<float>(24, 1)), I64({2}, {0, -1})});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)[0].tensor().dims(), (std::vector<int64_t>{2, 12}));
}

TEST(ShapeTest, TransposeDefaultReverses) {
  OneNode g("Transpose", 1);
  auto r = g.Run({F({2, 3}, {1, 2, 3, 4, 5, 6})});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)[0].tensor().ToVector<float>(), (std::vector<float>{1, 4, 2, 5, 3, 6}));
}

TEST(ShapeTest, SliceNegativeStep) {
  OneNode g("Slice", 5);
  auto r = g.Run({F({5}, {0, 1, 2, 3, 4}), I64({1}, {-1}), I64({1}, {-6}), I64({1}, {0}), I64({1}, {-2})});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)[0].tensor().ToVector<float>(), (std::vector<float>{4, 2, 0}));
}

TEST(ShapeTest, UnsqueezeAttributeFormBeforeOpset13) {
  OneNode g("Unsqueeze", 1);
  g.node->SetAttribute(ir::Attribute::Ints("axes", {0, 3}));
  auto r = g.Run({F({2, 3}, std::vector<float>(6, 0))}, 11);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)[0].tensor().dims(), (std::vector<int64_t>{1, 2, 3, 1}));
}

TEST(ShapeTest, ConcatAndGather) {
  OneNode c("Concat", 2);
  c.node->SetAttribute(ir::Attribute::Int("axis", 1));
  auto r = c.Run({F({2, 1}, {1, 2}), F({2, 2}, {3, 4, 5, 6})});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)[0].tensor().ToVector<float>(), (std::vector<float>{1, 3, 4, 2, 5, 6}));
  OneNode g("Gather", 2);
  r = g.Run({F({3}, {10, 20, 30}), I64({2}, {2, -3})});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)[0].tensor().ToVector<float>(), (std::vector<float>{30, 10}));
}

TEST(ShapeTest, PadReflect) {
  OneNode g("Pad", 2);
  g.node->SetAttribute(ir::Attribute::String("mode", "reflect"));
  auto r = g.Run({F({3}, {1, 2, 3}), I64({2}, {2, 1})});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)[0].tensor().ToVector<float>(), (std::vector<float>{3, 2, 1, 2, 3, 2}));
}

TEST(ShapeTest, ReshapeSizeMismatchIsAnError) {
  OneNode g("Reshape", 2);
  EXPECT_FALSE(g.Run({F({4}, {1, 2, 3, 4}), I64({1}, {3})}).ok());
}

}  // namespace
}  // namespace onnx_opt::interpreter
