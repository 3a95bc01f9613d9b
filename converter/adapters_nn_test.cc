#include "converter/testing/test_util.h"
#include "gtest/gtest.h"

namespace onnx_opt::converter::testing {
namespace {

TEST(NnAdapters, AveragePoolCountIncludePadBecomesAPad) {
  ExpectConversion(R"(
    <ir_version: 3, opset_import: ["" : 7]>
    g (float[1,1,4,4] X) => (float[1,1,4,4] Y) {
      Y = AveragePool<kernel_shape = [3, 3], pads = [1, 1, 1, 1], count_include_pad = 1>(X)
    })",
                   6, R"(
    <ir_version: 3, opset_import: ["" : 6]>
    g (float[1,1,4,4] X) => (float[1,1,4,4] Y) {
      X_padded = Pad<pads = [0, 0, 1, 1, 0, 0, 1, 1]>(X)
      Y = AveragePool<kernel_shape = [3, 3]>(X_padded)
    })");
}

TEST(NnAdapters, PoolingAttributesAddedLater) {
  ExpectConversion(R"(
    <ir_version: 9, opset_import: ["" : 19]>
    g (float[1,1,4,4] X) => (float[1,1,2,2] Y) {
      Y = AveragePool<kernel_shape = [2, 2], strides = [2, 2], dilations = [1, 1], ceil_mode = 0>(X)
    })",
                   9, R"(
    <ir_version: 4, opset_import: ["" : 9]>
    g (float[1,1,4,4] X) => (float[1,1,2,2] Y) { Y = AveragePool<kernel_shape = [2, 2], strides = [2, 2]>(X) })");
  ExpectRefusal(R"(
    <ir_version: 9, opset_import: ["" : 19]>
    g (float[1,1,5,5] X) => (float[1,1,3,3] Y) { Y = MaxPool<kernel_shape = [2, 2], dilations = [2, 2]>(X) })",
                9, "dilations");
  ExpectRefusal(R"(
    <ir_version: 3, opset_import: ["" : 8]>
    g (float[1,1,4,4] X) => (float[1,1,2,2] Y, int64[1,1,2,2] I) { Y, I = MaxPool<kernel_shape = [2, 2]>(X) })",
                7, "Indices");
}

TEST(NnAdapters, LpPoolPBecameAnInt) {
  ExpectConversion(R"(
    <ir_version: 3, opset_import: ["" : 1]>
    g (float[1,1,3,3] X) => (float[1,1,1,1] Y) { Y = GlobalLpPool<p = 3.0>(X) })",
                   2, R"(
    <ir_version: 3, opset_import: ["" : 2]>
    g (float[1,1,3,3] X) => (float[1,1,1,1] Y) { Y = GlobalLpPool<p = 3>(X) })");
}

// The region and its batch index are initializers: a random batch index (0..3) is out of range for
// a batch of one, and a region inside the image samples more than its border.
TEST(NnAdapters, RoiAlignDefaultChangedAt16) {
  ExpectConversion(R"(
    <ir_version: 5, opset_import: ["" : 10]>
    g (float[1,1,4,4] X) => (float[1,1,2,2] Y) <float[1,4] R = {0.5, 0.25, 3.0, 2.5}, int64[1] B = {0}> {
      Y = RoiAlign<output_height = 2, output_width = 2>(X, R, B)
    })",
                   16, R"(
    <ir_version: 8, opset_import: ["" : 16]>
    g (float[1,1,4,4] X) => (float[1,1,2,2] Y) <float[1,4] R = {0.5, 0.25, 3.0, 2.5}, int64[1] B = {0}> {
      Y = RoiAlign<output_height = 2, output_width = 2, coordinate_transformation_mode = "output_half_pixel">(X, R, B)
    })");
  ExpectRefusal(R"(
    <ir_version: 8, opset_import: ["" : 16]>
    g (float[1,1,4,4] X, float[1,4] R, int64[1] B) => (float[1,1,2,2] Y) { Y = RoiAlign(X, R, B) })",
                15, "half_pixel");
}

TEST(NnAdapters, GridSampleModeNames) {
  ExpectConversion(R"(
    <ir_version: 8, opset_import: ["" : 16]>
    g (float[1,1,3,3] X, float[1,2,2,2] G) => (float[1,1,2,2] Y) { Y = GridSample<mode = "bilinear">(X, G) })",
                   20, R"(
    <ir_version: 9, opset_import: ["" : 20]>
    g (float[1,1,3,3] X, float[1,2,2,2] G) => (float[1,1,2,2] Y) { Y = GridSample<mode = "linear">(X, G) })");
}

TEST(NnAdapters, ConvRoundTrip) {
  ExpectRoundTrip(R"(
    <ir_version: 6, opset_import: ["" : 11]>
    g (float[1,2,5,5] X, float[3,2,3,3] W, float[3] B) => (float[1,3,2,2] Y) {
      c = Conv<pads = [1, 1, 1, 1]>(X, W, B)
      r = Relu(c)
      Y = MaxPool<kernel_shape = [2, 2], strides = [2, 2]>(r)
    })",
                  22);
}

}  // namespace
}  // namespace onnx_opt::converter::testing
