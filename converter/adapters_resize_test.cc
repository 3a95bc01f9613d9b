#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "converter/testing/test_util.h"
#include "equivalence/equivalence.h"
#include "gtest/gtest.h"
#include "interpreter/tensor.h"
#include "ir/node.h"

namespace onnx_opt::converter::testing {
namespace {

TEST(ResizeAdapters, UpsampleBecomesResizeWithItsOldCoordinateModes) {
  ExpectConversion(R"(
    <ir_version: 4, opset_import: ["" : 9]>
    g (float[1,1,2,2] X) => (float[1,1,4,4] Y) <float[4] s = {1.0, 1.0, 2.0, 2.0}> { Y = Upsample(X, s) })",
                   11, R"(
    <ir_version: 6, opset_import: ["" : 11]>
    g (float[1,1,2,2] X) => (float[1,1,4,4] Y) <float[4] s = {1.0, 1.0, 2.0, 2.0}, float[0] roi = {}> {
      Y = Resize<coordinate_transformation_mode = "asymmetric", nearest_mode = "floor">(X, roi, s)
    })");
  ExpectRoundTrip(R"(
    <ir_version: 3, opset_import: ["" : 7]>
    g (float[1,1,2,3] X) => (float[1,1,4,6] Y) { Y = Upsample<scales = [1.0, 1.0, 2.0, 2.0], mode = "linear">(X) })",
                  19);
}

TEST(ResizeAdapters, ResizeWithSizesDowngradesWhenScalesAreExact) {
  ExpectConversion(R"(
    <ir_version: 7, opset_import: ["" : 13]>
    g (float[1,1,2,2] X) => (float[1,1,4,6] Y) <int64[4] sz = {1, 1, 4, 6}> {
      Y = Resize<coordinate_transformation_mode = "asymmetric", nearest_mode = "floor">(X, , , sz)
    })",
                   10, R"(
    <ir_version: 5, opset_import: ["" : 10]>
    g (float[1,1,2,2] X) => (float[1,1,4,6] Y) <float[4] scales_1 = {1.0, 1.0, 2.0, 3.0}> { Y = Resize(X, scales_1) })");
  ExpectRefusal(R"(
    <ir_version: 7, opset_import: ["" : 13]>
    g (float[1,1,2,2] X) => (float[1,1,4,4] Y) <float[4] s = {1.0, 1.0, 2.0, 2.0}> { Y = Resize(X, , s) })",
                10, "asymmetric");
}

// --- tf_half_pixel_for_nn (Resize-11 only)
// ---------------------------------------------------------- x = (o + 0.5) / scale. In nearest mode
// floor and round_prefer_floor (the default) of it are half_pixel with round_prefer_ceil and ceil;
// round_prefer_ceil and ceil of it are refused (see adapters_resize.cc for the algebra).

TEST(ResizeAdapters, TfHalfPixelForNnBecomesHalfPixelForTwoRoundings) {
  ExpectConversion(R"(
    <ir_version: 6, opset_import: ["" : 11]>
    g (float[1,1,2,2] X) => (float[1,1,4,4] Y) <float[0] roi = {}, float[4] s = {1.0, 1.0, 2.0, 2.0}> {
      Y = Resize<coordinate_transformation_mode = "tf_half_pixel_for_nn", nearest_mode = "floor">(X, roi, s)
    })",
                   13, R"(
    <ir_version: 7, opset_import: ["" : 13]>
    g (float[1,1,2,2] X) => (float[1,1,4,4] Y) <float[0] roi = {}, float[4] s = {1.0, 1.0, 2.0, 2.0}> {
      Y = Resize<coordinate_transformation_mode = "half_pixel", nearest_mode = "round_prefer_ceil">(X, roi, s)
    })");
  // nearest_mode absent: Resize-11's default, round_prefer_floor.
  ExpectConversion(R"(
    <ir_version: 6, opset_import: ["" : 11]>
    g (float[1,1,2,2] X) => (float[1,1,4,4] Y) <float[0] roi = {}, float[4] s = {1.0, 1.0, 2.0, 2.0}> {
      Y = Resize<coordinate_transformation_mode = "tf_half_pixel_for_nn">(X, roi, s)
    })",
                   13, R"(
    <ir_version: 7, opset_import: ["" : 13]>
    g (float[1,1,2,2] X) => (float[1,1,4,4] Y) <float[0] roi = {}, float[4] s = {1.0, 1.0, 2.0, 2.0}> {
      Y = Resize<coordinate_transformation_mode = "half_pixel", nearest_mode = "ceil">(X, roi, s)
    })");
}

TEST(ResizeAdapters, TfHalfPixelForNnIsRefusedWhereHalfPixelCannotSayIt) {
  for (const char* rounding : {"round_prefer_ceil", "ceil"}) {
    ExpectRefusal(absl::StrCat(R"(
      <ir_version: 6, opset_import: ["" : 11]>
      g (float[1,1,2,2] X) => (float[1,1,4,4] Y) <float[0] roi = {}, float[4] s = {1.0, 1.0, 2.0, 2.0}> {
        Y = Resize<coordinate_transformation_mode = "tf_half_pixel_for_nn", nearest_mode = ")",
                               rounding, R"(">(X, roi, s)
      })"),
                  13,
                  absl::StrCat("nearest_mode \"", rounding,
                               "\": this coordinate mode was removed at opset 13"));
  }
  ExpectRefusal(R"(
    <ir_version: 6, opset_import: ["" : 11]>
    g (float[1,1,2,2] X) => (float[1,1,4,4] Y) <float[0] roi = {}, float[4] s = {1.0, 1.0, 2.0, 2.0}> {
      Y = Resize<coordinate_transformation_mode = "tf_half_pixel_for_nn", mode = "linear">(X, roi, s)
    })",
                13, "only nearest mode has an equivalent");
}

// One axis of a sweep case: input size and either a float scale or an output size.
struct AxisCase {
  int64_t in;
  float scale;   // used when `by_size` is false
  int64_t size;  // used when `by_size` is true
};

// The spec's tf_half_pixel_for_nn in nearest mode, written out on its own (not the interpreter's
// code): the input index output position `o` reads.
int64_t TfHalfPixelIndex(const std::string& rounding, int64_t o, double scale, int64_t in) {
  const double x = (o + 0.5) / scale;
  double i;
  if (rounding == "floor") {
    i = std::floor(x);
  } else if (rounding == "ceil") {
    i = std::ceil(x);
  } else if (x - std::floor(x) == 0.5) {
    i = rounding == "round_prefer_ceil" ? std::ceil(x) : std::floor(x);
  } else {
    i = std::floor(x + 0.5);
  }
  return std::clamp<int64_t>(static_cast<int64_t>(i), 0, in - 1);
}

// Per-axis cases: up and down, odd sizes, scales that are not integers (nor exact in binary), scale
// 1 (where tf_half_pixel_for_nn still rounds ties at o + 0.5), scales whose positions fall exactly
// on integers (0.5) and on halves (1/3 by size), and a size-1 axis.
const std::vector<AxisCase>& Axes() {
  static const std::vector<AxisCase> kAxes = {
      {4, 2.0f, 8},  {6, 0.5f, 3}, {5, 1.0f, 5},  {3, 1.5f, 7},  {7, 0.6f, 2},  {6, 1.0f / 3, 2},
      {5, 0.4f, 11}, {1, 3.0f, 3}, {9, 0.25f, 4}, {3, 2.5f, 1},  {8, 0.75f, 5}, {2, 1.75f, 9},
      {3, 5.0f, 15}, {7, 0.3f, 3}, {10, 0.7f, 7}, {4, 1.25f, 6},
  };
  return kAxes;
}

TEST(ResizeAdapters, TfHalfPixelForNnConvertedComputesTheSameBitsEverywhere) {
  const std::vector<AxisCase>& axes = Axes();
  int converted = 0, refused = 0;
  for (const std::string rounding : {"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"}) {
    const bool exact = rounding == "floor" || rounding == "round_prefer_floor";
    const std::string equivalent = rounding == "floor" ? "round_prefer_ceil" : "ceil";
    for (int64_t rank = 1; rank <= 4; ++rank) {
      for (bool by_size : {false, true}) {
        for (size_t c = 0; c < axes.size(); ++c) {
          std::vector<int64_t> in_dims, out_dims, sizes;
          std::vector<float> scales;
          std::vector<double> axis_scales;  // as the spec computes them
          for (int64_t d = 0; d < rank; ++d) {
            const AxisCase& a = axes[(c + 5 * d) % axes.size()];
            in_dims.push_back(a.in);
            if (by_size) {
              sizes.push_back(a.size);
              out_dims.push_back(a.size);
              axis_scales.push_back(static_cast<double>(a.size) / a.in);
            } else {
              scales.push_back(a.scale);
              out_dims.push_back(
                  static_cast<int64_t>(std::floor(a.in * static_cast<double>(a.scale))));
              axis_scales.push_back(a.scale);
            }
          }
          if (std::find(out_dims.begin(), out_dims.end(), 0) != out_dims.end()) continue;
          std::vector<std::string> scale_text;
          for (float s : scales) scale_text.push_back(absl::StrFormat("%.9g", s));
          const std::string inputs =
              by_size
                  ? absl::StrCat("float[0] sc = {}, int64[", rank, "] sz = {",
                                 absl::StrJoin(sizes, ", "), "}")
                  : absl::StrCat("float[", rank, "] sc = {", absl::StrJoin(scale_text, ", "), "}");
          const std::string text = absl::StrCat(
              "<ir_version: 6, opset_import: [\"\" : 11]>\n g (float[", absl::StrJoin(in_dims, ","),
              "] X) => (float[", absl::StrJoin(out_dims, ","), "] Y) <float[0] roi = {}, ", inputs,
              "> {\n Y = Resize<coordinate_transformation_mode = \"tf_half_pixel_for_nn\", "
              "nearest_mode = \"",
              rounding, "\">(X, roi, sc", by_size ? ", sz" : "", ")\n}");
          SCOPED_TRACE(text);
          std::unique_ptr<ir::Model> before = ParseText(text);
          ASSERT_NE(before, nullptr);

          // The input's elements are their own flat indices, so each output element names the input
          // element it was gathered from.
          int64_t n = 1;
          for (int64_t d : in_dims) n *= d;
          std::vector<float> iota(n);
          for (int64_t i = 0; i < n; ++i) iota[i] = static_cast<float>(i);
          const std::vector<interpreter::RuntimeValue> x = {
              interpreter::Tensor::FromVector<float>(ir::DataType::kFloat, in_dims, iota)};
          absl::StatusOr<std::vector<interpreter::RuntimeValue>> want =
              equivalence::RunModel(*before, x);
          ASSERT_TRUE(want.ok()) << want.status();
          const std::vector<float> got11 = (*want)[0].tensor().ToVector<float>();
          ASSERT_EQ((*want)[0].tensor().dims(), out_dims);

          // Resize-11 itself follows the spec's tf_half_pixel_for_nn formula.
          std::vector<int64_t> in_strides(rank, 1);
          for (int64_t d = rank - 2; d >= 0; --d)
            in_strides[d] = in_strides[d + 1] * in_dims[d + 1];
          std::vector<int64_t> idx(rank, 0);
          for (size_t o = 0; o < got11.size(); ++o) {
            int64_t from = 0;
            for (int64_t d = 0; d < rank; ++d) {
              from +=
                  TfHalfPixelIndex(rounding, idx[d], axis_scales[d], in_dims[d]) * in_strides[d];
            }
            ASSERT_EQ(got11[o], static_cast<float>(from)) << "Resize-11 output element " << o;
            for (int64_t d = rank - 1; d >= 0 && ++idx[d] == out_dims[d]; --d) idx[d] = 0;
          }

          for (int64_t opset : {13, 19}) {
            absl::StatusOr<std::unique_ptr<ir::Model>> after = ConvertTo(*before, opset);
            if (!exact) {
              ASSERT_FALSE(after.ok()) << "converted to " << opset << ":\n" << Print(**after);
              EXPECT_NE(after.status().message().find("tf_half_pixel_for_nn"), std::string::npos)
                  << after.status();
              ++refused;
              continue;
            }
            ASSERT_TRUE(after.ok()) << after.status();
            const ir::Node* resize = *(*after)->graph().nodes().begin();
            ASSERT_EQ(resize->op_type(), "Resize");
            EXPECT_EQ(resize->FindAttribute("coordinate_transformation_mode")->s, "half_pixel");
            EXPECT_EQ(resize->FindAttribute("nearest_mode")->s, equivalent);
            absl::StatusOr<std::vector<interpreter::RuntimeValue>> got =
                equivalence::RunModel(**after, x);
            ASSERT_TRUE(got.ok()) << got.status();
            ASSERT_EQ((*got)[0].tensor().dims(), out_dims);
            EXPECT_EQ((*got)[0].tensor().ToVector<float>(), got11) << "opset " << opset << ":\n"
                                                                   << Print(**after);
            ++converted;
          }
        }
      }
    }
  }
  // Every case ran (none skipped as empty beyond the few with a zero-size axis).
  EXPECT_GT(converted, 200);
  EXPECT_EQ(refused, converted);
}

// The sweep's checks on tiny cases with the expected indices written out, so that a wrong formula
// in both the interpreter and TfHalfPixelIndex would still show.
TEST(ResizeAdapters, TfHalfPixelForNnIndicesByHand) {
  struct Case {
    int64_t in;
    std::string scales_or_sizes;  // the node's inputs after X
    std::string inits;
    std::string rounding;
    std::vector<float> want;
  };
  const std::vector<Case> cases = {
      // x = (o + 0.5) / 2 = 0.25, 0.75, ..., 3.75: floor 0,0,1,1,2,2,3,3; rounded
      // 0,1,1,2,2,3,3,4->3.
      {4, "roi, sc", "float[1] sc = {2.0}", "floor", {0, 0, 1, 1, 2, 2, 3, 3}},
      {4, "roi, sc", "float[1] sc = {2.0}", "round_prefer_floor", {0, 1, 1, 2, 2, 3, 3, 3}},
      // x = 2o + 1 = 1, 3, 5 (exact integers): floor keeps them.
      {6, "roi, sc", "float[1] sc = {0.5}", "floor", {1, 3, 5}},
      {6, "roi, sc", "float[1] sc = {0.5}", "round_prefer_floor", {1, 3, 5}},
      // By size 6 -> 2: x = 1.5, 4.5 (ties): round_prefer_floor takes 1, 4.
      {6, "roi, sc, sz", "float[0] sc = {}, int64[1] sz = {2}", "round_prefer_floor", {1, 4}},
      {6, "roi, sc, sz", "float[0] sc = {}, int64[1] sz = {2}", "floor", {1, 4}},
  };
  for (const Case& c : cases) {
    const size_t out = c.want.size();
    const std::string text =
        absl::StrCat("<ir_version: 6, opset_import: [\"\" : 11]>\n g (float[", c.in,
                     "] X) => (float[", out, "] Y) <float[0] roi = {}, ", c.inits,
                     "> {\n Y = Resize<coordinate_transformation_mode = \"tf_half_pixel_for_nn\", "
                     "nearest_mode = \"",
                     c.rounding, "\">(X, ", c.scales_or_sizes, ")\n}");
    SCOPED_TRACE(text);
    std::unique_ptr<ir::Model> before = ParseText(text);
    ASSERT_NE(before, nullptr);
    absl::StatusOr<std::unique_ptr<ir::Model>> after = ConvertTo(*before, 13);
    ASSERT_TRUE(after.ok()) << after.status();
    std::vector<float> iota(c.in);
    for (int64_t i = 0; i < c.in; ++i) iota[i] = static_cast<float>(i);
    const std::vector<interpreter::RuntimeValue> x = {
        interpreter::Tensor::FromVector<float>(ir::DataType::kFloat, {c.in}, iota)};
    for (const ir::Model* m : {before.get(), after->get()}) {
      absl::StatusOr<std::vector<interpreter::RuntimeValue>> y = equivalence::RunModel(*m, x);
      ASSERT_TRUE(y.ok()) << y.status();
      EXPECT_EQ((*y)[0].tensor().ToVector<float>(), c.want) << Print(*m);
    }
  }
}

// Why round_prefer_ceil and ceil are refused: at scale 1, x = o + 0.5, so both read element o + 1,
// while half_pixel (h = o) reads element o with every nearest_mode.
TEST(ResizeAdapters, TfHalfPixelForNnShiftsWhereHalfPixelCannot) {
  const std::vector<interpreter::RuntimeValue> x = {
      interpreter::Tensor::FromVector<float>(ir::DataType::kFloat, {3}, {0, 1, 2})};
  auto run = [&](int64_t opset, const std::string& coord, const std::string& rounding) {
    std::unique_ptr<ir::Model> m = ParseText(absl::StrCat(
        "<ir_version: 7, opset_import: [\"\" : ", opset, "]>\n g (float[3] X) => (float[3] Y) ",
        "<float[0] roi = {}, float[1] sc = {1.0}> {\n Y = Resize<coordinate_transformation_mode = "
        "\"",
        coord, "\", nearest_mode = \"", rounding, "\">(X, roi, sc)\n}"));
    absl::StatusOr<std::vector<interpreter::RuntimeValue>> y = equivalence::RunModel(*m, x);
    EXPECT_TRUE(y.ok()) << y.status();
    return y.ok() ? (*y)[0].tensor().ToVector<float>() : std::vector<float>{};
  };
  for (const char* rounding : {"round_prefer_ceil", "ceil"}) {
    EXPECT_EQ(run(11, "tf_half_pixel_for_nn", rounding), (std::vector<float>{1, 2, 2})) << rounding;
  }
  for (const char* rounding : {"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"}) {
    EXPECT_EQ(run(13, "half_pixel", rounding), (std::vector<float>{0, 1, 2})) << rounding;
  }
}

}  // namespace
}  // namespace onnx_opt::converter::testing
