#include <cmath>

#include "gtest/gtest.h"
#include "interpreter/test_util.h"

namespace onnx_opt::interpreter {
namespace {

using testing::F;
using testing::I64;
using testing::OneNode;

TEST(ReductionTest, ReduceSumAxesInputKeepdims) {
  OneNode g("ReduceSum", 2);
  auto r = g.Run({F({2, 3}, {1, 2, 3, 4, 5, 6}), I64({1}, {1})});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)[0].tensor().dims(), (std::vector<int64_t>{2, 1}));
  EXPECT_EQ((*r)[0].tensor().ToVector<float>(), (std::vector<float>{6, 15}));
}

TEST(ReductionTest, AxisOfAScalarIsAnError) {
  // A scalar has no axis 0: the mask of reduced axes is empty (found by the run fuzzer: a write past it).
  OneNode g("ReduceL1", 2);
  auto r = g.Run({F({}, {3}), I64({1}, {0})});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("out of range for rank 0"), std::string::npos) << r.status();
  EXPECT_TRUE(g.Run({F({}, {-3}), I64({0}, {})}).ok());
}

TEST(ReductionTest, ReduceMeanAttributeAxesBeforeOpset18) {
  OneNode g("ReduceMean", 1);
  g.node->SetAttribute(ir::Attribute::Ints("axes", {0}));
  g.node->SetAttribute(ir::Attribute::Int("keepdims", 0));
  auto r = g.Run({F({2, 2}, {1, 2, 3, 4})}, 13);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)[0].tensor().ToVector<float>(), (std::vector<float>{2, 3}));
}

TEST(ReductionTest, SoftmaxBeforeOpset13FlattensAtAxis) {
  OneNode g("Softmax", 1);
  // axis=1 (default) over [1,2,2]: one softmax over all 4 values.
  auto r = g.Run({F({1, 2, 2}, {0, 0, 0, 0})}, 11);
  ASSERT_TRUE(r.ok());
  for (float v : (*r)[0].tensor().ToVector<float>()) EXPECT_FLOAT_EQ(v, 0.25f);
  auto r13 = g.Run({F({1, 2, 2}, {0, 0, 0, 0})}, 13);  // axis=-1: pairs
  ASSERT_TRUE(r13.ok());
  for (float v : (*r13)[0].tensor().ToVector<float>()) EXPECT_FLOAT_EQ(v, 0.5f);
}

TEST(ReductionTest, ArgMaxSelectLastIndex) {
  OneNode g("ArgMax", 1);
  g.node->SetAttribute(ir::Attribute::Int("select_last_index", 1));
  auto r = g.Run({F({4}, {1, 3, 3, 0})});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)[0].tensor().ToVector<int64_t>(), (std::vector<int64_t>{2}));
}

}  // namespace
}  // namespace onnx_opt::interpreter
