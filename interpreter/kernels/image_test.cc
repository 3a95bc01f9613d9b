#include "gtest/gtest.h"
#include "interpreter/test_util.h"

namespace onnx_opt::interpreter {
namespace {

using testing::F;
using testing::OneNode;

TEST(ImageTest, MaxRoiPoolTakesTheMaximumOfEachBin) {
  std::vector<float> x(16);
  for (int i = 0; i < 16; ++i) x[i] = static_cast<float>(i);
  OneNode g("MaxRoiPool", 2);
  g.node->SetAttribute(ir::Attribute::Ints("pooled_shape", {2, 2}));
  // The whole 4x4 image (bins of 2x2), then its top-left 2x2 corner (bins of one pixel).
  auto r = g.Run({F({1, 1, 4, 4}, x), F({2, 5}, {0, 0, 0, 3, 3, 0, 0, 0, 1, 1})}, 1);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)[0].tensor().dims(), (std::vector<int64_t>{2, 1, 2, 2}));
  EXPECT_EQ((*r)[0].tensor().ToVector<float>(), (std::vector<float>{5, 7, 13, 15, 0, 1, 4, 5}));
}

TEST(ImageTest, MaxRoiPoolRefusesBadRois) {
  OneNode g("MaxRoiPool", 2);
  g.node->SetAttribute(ir::Attribute::Ints("pooled_shape", {2, 2}));
  auto r = g.Run({F({1, 1, 4, 4}, std::vector<float>(16, 0)), F({1, 5}, {3, 0, 0, 1, 1})}, 1);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("batch index"), std::string::npos) << r.status();
}

}  // namespace
}  // namespace onnx_opt::interpreter
