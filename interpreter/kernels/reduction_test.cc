#include <cmath>
#include <limits>

#include "gtest/gtest.h"
#include "interpreter/testing/test_util.h"

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
  // A scalar has no axis 0: the mask of reduced axes is empty (found by the run fuzzer: a write
  // past it).
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

// Integer reductions in the integer type: through a double, int64 values past 2^53 lost their low
// bits and sums past the range saturated; they wrap as in onnxruntime.
TEST(ReductionTest, IntegerReductionsAreExactAndWrap) {
  auto reduce = [](const char* op, Tensor x) {
    OneNode g(op, 1);
    g.node->SetAttribute(ir::Attribute::Int("keepdims", 0));
    auto r = g.Run({std::move(x)}, 13);
    EXPECT_TRUE(r.ok()) << op << ": " << r.status();
    return r.ok() ? (*r)[0].tensor() : Tensor();
  };
  const int64_t big = (int64_t{1} << 53) + 1, kMax = std::numeric_limits<int64_t>::max();
  EXPECT_EQ(reduce("ReduceMax", I64({2}, {big, 0})).ToVector<int64_t>(),
            (std::vector<int64_t>{big}));
  EXPECT_EQ(reduce("ReduceMin", I64({2}, {-big, 0})).ToVector<int64_t>(),
            (std::vector<int64_t>{-big}));
  EXPECT_EQ(reduce("ReduceSum", I64({2}, {big, 2})).ToVector<int64_t>(),
            (std::vector<int64_t>{big + 2}));
  EXPECT_EQ(reduce("ReduceSum", I64({2}, {kMax, 1})).ToVector<int64_t>(),
            (std::vector<int64_t>{std::numeric_limits<int64_t>::min()}));
  EXPECT_EQ(
      reduce("ReduceProd", Tensor::FromVector<int32_t>(ir::DataType::kInt32, {2}, {65536, 65536}))
          .ToVector<int32_t>(),
      (std::vector<int32_t>{0}));
  EXPECT_EQ(reduce("ReduceL1", Tensor::FromVector<int32_t>(ir::DataType::kInt32, {2}, {-3, 4}))
                .ToVector<int32_t>(),
            (std::vector<int32_t>{7}));
  EXPECT_EQ(
      reduce("ReduceSumSquare", Tensor::FromVector<int32_t>(ir::DataType::kInt32, {2}, {-3, 4}))
          .ToVector<int32_t>(),
      (std::vector<int32_t>{25}));
  // Empty integer ReduceMax is 0, as before.
  EXPECT_EQ(reduce("ReduceMax", I64({2, 0}, {})).ToVector<int64_t>(), (std::vector<int64_t>{0}));
}

// ArgMax over an empty axis read the first element of an empty tensor.
TEST(ReductionTest, ArgMaxOfAnEmptyAxisIsAnError) {
  OneNode g("ArgMax", 1);
  g.node->SetAttribute(ir::Attribute::Int("axis", 1));
  auto r = g.Run({F({3, 0}, {})}, 13);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("empty"), std::string::npos) << r.status();
  OneNode ok("ArgMax", 1);
  ok.node->SetAttribute(ir::Attribute::Int("axis", 0));
  auto e = ok.Run({F({3, 0}, {})}, 13);  // nothing to compute: an empty result
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_EQ((*e)[0].tensor().dims(), (std::vector<int64_t>{1, 0}));
}

// CumSum of integers wraps (signed overflow was undefined).
TEST(ReductionTest, IntegerCumSumWraps) {
  OneNode g("CumSum", 2);
  auto r = g.Run({I64({3}, {std::numeric_limits<int64_t>::max(), 1, 1}), I64({}, {0})}, 14);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)[0].tensor().ToVector<int64_t>(),
            (std::vector<int64_t>{std::numeric_limits<int64_t>::max(),
                                  std::numeric_limits<int64_t>::min(),
                                  std::numeric_limits<int64_t>::min() + 1}));
}

}  // namespace
}  // namespace onnx_opt::interpreter
