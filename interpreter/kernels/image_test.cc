#include <cmath>
#include <cstdint>

#include "gtest/gtest.h"
#include "interpreter/testing/test_util.h"

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

// Nearest Resize is a gather: 2x up on a [1, 1, 2, 3] uint8 image, exact values (also beyond what
// float holds, for int64), and a 0.5x down with the default half_pixel/round_prefer_floor.
TEST(ImageTest, NearestResizeGathersExactValues) {
  {
    OneNode g("Resize", 3);
    g.node->SetAttribute(ir::Attribute::String("mode", "nearest"));
    g.node->SetAttribute(ir::Attribute::String("coordinate_transformation_mode", "asymmetric"));
    g.node->SetAttribute(ir::Attribute::String("nearest_mode", "floor"));
    const Tensor x = Tensor::FromVector<int64_t>(DataType::kInt64, {1, 1, 2, 3},
                                                 {1, (int64_t{1} << 60) + 1, 3, 4, 5, -6});
    auto r = g.Run({x, F({0}, {}), F({4}, {1, 1, 2, 2})}, 13);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ((*r)[0].tensor().dims(), (std::vector<int64_t>{1, 1, 4, 6}));
    const int64_t big = (int64_t{1} << 60) + 1;
    EXPECT_EQ((*r)[0].tensor().ToVector<int64_t>(),
              (std::vector<int64_t>{1, 1, big, big, 3,  3,  1, 1, big, big, 3,  3,  //
                                    4, 4, 5,   5,   -6, -6, 4, 4, 5,   5,   -6, -6}));
  }
  {
    OneNode g("Resize", 3);
    g.node->SetAttribute(ir::Attribute::String("mode", "nearest"));
    std::vector<float> x(16);
    for (int i = 0; i < 16; ++i) x[i] = static_cast<float>(i);
    auto r = g.Run({F({1, 1, 4, 4}, x), F({0}, {}), F({4}, {1, 1, 0.5f, 0.5f})}, 13);
    ASSERT_TRUE(r.ok()) << r.status();
    // half_pixel: output 0 reads (0 + 0.5) / 0.5 - 0.5 = 0.5 -> round_prefer_floor 0; output 1
    // reads 2.5 -> 2.
    EXPECT_EQ((*r)[0].tensor().ToVector<float>(), (std::vector<float>{0, 2, 8, 10}));
  }
}

// Float linear and cubic (antialiased) resizes of the last two axes take a path of their own; it
// must give the same values as the general loop, which a double input takes.
TEST(ImageTest, ImageResizeOfFloatMatchesTheGeneralPath) {
  for (const std::string mode : {"linear", "cubic"}) {
    std::vector<float> x(2 * 3 * 7 * 9);
    for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>((i * 37) % 101) / 10 - 5;
    auto run = [&](DataType type) {
      OneNode g("Resize", 3);
      g.node->SetAttribute(ir::Attribute::String("mode", mode));
      g.node->SetAttribute(ir::Attribute::Int("antialias", mode == "cubic" ? 1 : 0));
      Tensor input = type == DataType::kFloat
                         ? F({2, 3, 7, 9}, x)
                         : Tensor::FromVector<double>(DataType::kDouble, {2, 3, 7, 9},
                                                      std::vector<double>(x.begin(), x.end()));
      return g.Run({input, F({0}, {}), F({4}, {1, 1, 1.7f, 0.6f})}, 18);
    };
    auto f = run(DataType::kFloat);
    auto d = run(DataType::kDouble);
    ASSERT_TRUE(f.ok()) << f.status();
    ASSERT_TRUE(d.ok()) << d.status();
    const Tensor& got = (*f)[0].tensor();
    const Tensor& want = (*d)[0].tensor();
    ASSERT_EQ(got.dims(), (std::vector<int64_t>{2, 3, 11, 5}));
    ASSERT_EQ(got.dims(), want.dims());
    for (int64_t i = 0; i < got.size(); ++i) {
      EXPECT_EQ(got.data<float>()[i], static_cast<float>(want.data<double>()[i]))
          << mode << " element " << i;
    }
  }
}

// Found by auditing the kernels: scales, rois and counts whose conversions to int64 were undefined.
void ExpectImageError(OneNode& g, std::vector<RuntimeValue> inputs, int64_t opset,
                      const std::string& part) {
  auto r = g.Run(std::move(inputs), opset);
  ASSERT_FALSE(r.ok()) << g.node->op_type() << " ran; expected an error with '" << part << "'";
  EXPECT_NE(r.status().message().find(part), std::string::npos) << r.status();
}

TEST(ImageTest, ResizeHugeScaleAndEmptyOutput) {
  OneNode huge("Resize", 3);
  ExpectImageError(huge, {F({1, 1, 2, 2}, {1, 2, 3, 4}), F({0}, {}), F({4}, {1, 1, 3e38f, 1})}, 13,
                   "too large");
  // An empty output with a long other axis: no plan for it.
  OneNode empty("Resize", 4);
  auto r = empty.Run(
      {F({1, 2}, {1, 2}), F({0}, {}), F({0}, {}), testing::I64({2}, {0, int64_t{1} << 40})}, 13);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)[0].tensor().dims(), (std::vector<int64_t>{0, int64_t{1} << 40}));
}

TEST(ImageTest, ResizeCropWithNaNRoiExtrapolates) {
  OneNode g("Resize", 4);
  g.node->SetAttribute(
      ir::Attribute::String("coordinate_transformation_mode", "tf_crop_and_resize"));
  g.node->SetAttribute(ir::Attribute::Float("extrapolation_value", 9.0f));
  auto r = g.Run({F({1, 1, 2, 2}, {1, 2, 3, 4}), F({8}, {0, 0, NAN, 0, 1, 1, NAN, 1}), F({0}, {}),
                  testing::I64({4}, {1, 1, 2, 2})},
                 13);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)[0].tensor().ToVector<float>(), (std::vector<float>{9, 9, 9, 9}));
}

TEST(ImageTest, RoiPoolingNeedsFiniteRois) {
  OneNode max_roi("MaxRoiPool", 2);
  max_roi.node->SetAttribute(ir::Attribute::Ints("pooled_shape", {1, 1}));
  ExpectImageError(max_roi, {F({1, 1, 2, 2}, {1, 2, 3, 4}), F({1, 5}, {0, 0, 0, NAN, 1})}, 1,
                   "rois");
  ExpectImageError(max_roi, {F({1, 1, 2, 2}, {1, 2, 3, 4}), F({1, 5}, {1e30f, 0, 0, 1, 1})}, 1,
                   "rois");
  auto ok = max_roi.Run({F({1, 1, 2, 2}, {1, 2, 3, 4}), F({1, 5}, {0, 0, 0, 1, 1})}, 1);
  ASSERT_TRUE(ok.ok()) << ok.status();
  EXPECT_EQ((*ok)[0].tensor().ToVector<float>(), (std::vector<float>{4}));
  OneNode align("RoiAlign", 3);
  ExpectImageError(
      align,
      {F({1, 1, 2, 2}, {1, 2, 3, 4}), F({1, 4}, {0, 0, INFINITY, 1}), testing::I64({1}, {0})}, 16,
      "rois must be finite");
  ExpectImageError(
      align,
      {F({1, 1, 2, 2}, {1, 2, 3, 4}), F({1, 4}, {0, 0, 1e20f, 1e20f}), testing::I64({1}, {0})}, 16,
      "sampling grid");
}

TEST(ImageTest, NonMaxSuppressionMaxOutputReadExactly) {
  OneNode g("NonMaxSuppression", 3);
  auto r = g.Run({F({1, 2, 4}, {0, 0, 1, 1, 5, 5, 6, 6}), F({1, 1, 2}, {0.9f, 0.8f}),
                  testing::I64({1}, {INT64_MAX})},
                 11);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)[0].tensor().dims(), (std::vector<int64_t>{2, 3}));
}

}  // namespace
}  // namespace onnx_opt::interpreter
