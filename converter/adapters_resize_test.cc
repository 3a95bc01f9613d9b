#include "converter/test_util.h"
#include "gtest/gtest.h"

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

TEST(ResizeAdapters, CoordinateModeRemovedAt13IsRefused) {
  ExpectRefusal(R"(
    <ir_version: 6, opset_import: ["" : 11]>
    g (float[1,1,2,2] X) => (float[1,1,4,4] Y) <float[0] roi = {}, float[4] s = {1.0, 1.0, 2.0, 2.0}> {
      Y = Resize<coordinate_transformation_mode = "tf_half_pixel_for_nn">(X, roi, s)
    })",
                13, "tf_half_pixel_for_nn");
}

}  // namespace
}  // namespace onnx_opt::converter::testing
