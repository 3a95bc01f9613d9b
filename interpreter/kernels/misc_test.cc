// Kernels of misc.cc: Dropout in inference mode.
#include <cstdint>
#include <vector>

#include "gtest/gtest.h"
#include "interpreter/testing/test_util.h"

namespace onnx_opt::interpreter {
namespace {

using testing::F;
using testing::OneNode;

// Inference keeps every element: the output is the data, and the mask says "kept" everywhere, as
// bool from opset 10 and in the data's type (1) before, where the mask's type is T.
TEST(DropoutTest, MaskHasTheDataTypeBeforeOpset10) {
  const Tensor x = F({2, 2}, {1, -2, 3, -4});
  for (int64_t opset : {7, 9}) {
    OneNode g("Dropout", 1, 2);
    g.node->SetAttribute(ir::Attribute::Float("ratio", 0.5f));
    auto r = g.Run({x}, opset);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ((*r)[0].tensor().ToVector<float>(), (std::vector<float>{1, -2, 3, -4}));
    const Tensor& mask = (*r)[1].tensor();
    EXPECT_EQ(mask.dtype(), DataType::kFloat) << "opset " << opset;
    EXPECT_EQ(mask.dims(), (std::vector<int64_t>{2, 2}));
    EXPECT_EQ(mask.ToVector<float>(), (std::vector<float>{1, 1, 1, 1}));
  }
  const Tensor xd = Tensor::FromVector<double>(DataType::kDouble, {3}, {0.5, 1, 2});
  OneNode d("Dropout", 1, 2);
  auto rd = d.Run({xd}, 9);
  ASSERT_TRUE(rd.ok()) << rd.status();
  EXPECT_EQ((*rd)[1].tensor().dtype(), DataType::kDouble);
  for (int64_t opset : {10, 12, 22}) {
    OneNode g("Dropout", 1, 2);
    auto r = g.Run({x}, opset);
    ASSERT_TRUE(r.ok()) << r.status();
    const Tensor& mask = (*r)[1].tensor();
    EXPECT_EQ(mask.dtype(), DataType::kBool) << "opset " << opset;
    EXPECT_EQ(mask.ToVector<bool>(), (std::vector<bool>{true, true, true, true}));
  }
}

}  // namespace
}  // namespace onnx_opt::interpreter
