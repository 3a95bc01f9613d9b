// Sweep cases for pooling, convolution-like, image and signal operators.
#include "converter/testing/sweep_cases/sweep_cases.h"

namespace onnx_opt::converter {

REGISTER_SWEEP_CASES(
    pooling, {
                 {"AveragePool-1", R"(
      <ir_version: 3, opset_import: ["" : 1]>
      g (float[1,2,4,4] x) => (y) { y = AveragePool<kernel_shape = [2, 2], strides = [2, 2]>(x) })"},
                 {"AveragePool-1-pads", R"(
      <ir_version: 3, opset_import: ["" : 1]>
      g (float[1,1,5,5] x) => (y) { y = AveragePool<kernel_shape = [3, 3], pads = [1, 1, 1, 1]>(x) })"},
                 {"MaxPool-1", R"(
      <ir_version: 3, opset_import: ["" : 1]>
      g (float[1,2,4,4] x) => (y) { y = MaxPool<kernel_shape = [2, 2], strides = [1, 1]>(x) })"},
                 {"LpPool-1", R"(
      <ir_version: 3, opset_import: ["" : 1]>
      g (float[1,2,4,4] x) => (y) { y = LpPool<kernel_shape = [2, 2], p = 2.0>(x) })"},
                 {"LpPool-2", R"(
      <ir_version: 3, opset_import: ["" : 2]>
      g (float[1,2,4,4] x) => (y) { y = LpPool<kernel_shape = [2, 2], p = 3>(x) })"},
                 {"ConvTranspose-1", R"(
      <ir_version: 4, opset_import: ["" : 1]>
      g (float[1,2,3,3] x) => (y) <float[2,1,2,2] w = {0.5, -0.5, 1.0, 0.25, -1.0, 0.5, 0.75, -0.25}> {
        y = ConvTranspose<strides = [2, 2]>(x, w)
      })"},
                 {"MaxUnpool-9", R"(
      <ir_version: 4, opset_import: ["" : 9]>
      g (float[1,1,4,4] x) => (z) {
        y, i = MaxPool<kernel_shape = [2, 2], strides = [2, 2]>(x)
        z = MaxUnpool<kernel_shape = [2, 2], strides = [2, 2]>(y, i)
      })"},
                 {"MaxRoiPool-1", R"(
      <ir_version: 4, opset_import: ["" : 1]>
      g (float[1,1,4,4] x) => (y) <float[2,5] rois = {0.0, 0.0, 0.0, 3.0, 3.0, 0.0, 1.0, 1.0, 2.0, 3.0}> {
        y = MaxRoiPool<pooled_shape = [2, 2]>(x, rois)
      })"},
                 {"RoiAlign-10", R"(
      <ir_version: 5, opset_import: ["" : 10]>
      g (float[1,1,4,4] x) => (y) <float[1,4] rois = {0.5, 0.5, 3.0, 2.5}, int64[1] b = {0}> {
        y = RoiAlign<output_height = 2, output_width = 2, sampling_ratio = 2>(x, rois, b)
      })"},
                 {"GridSample-16", R"(
      <ir_version: 8, opset_import: ["" : 16]>
      g (float[1,1,3,3] x, float[1,2,2,2] grid) => (y) { y = GridSample<align_corners = 1>(x, grid) })"},
                 {"DeformConv-19", R"(
      <ir_version: 9, opset_import: ["" : 19]>
      g (float[1,1,3,3] x, float[1,8,2,2] offset) => (y)
      <float[1,1,2,2] w = {0.5, -0.25, 1.0, 0.75}> { y = DeformConv(x, w, offset) })"},
                 // The quantized products: scales and zero points per tensor or per
                 // row/column/channel, given as constants (random scales could be 0).
                 {"QLinearConv-10", R"(
      <ir_version: 5, opset_import: ["" : 10]>
      g (uint8[1,1,3,3] x) => (y)
      <float xs = {0.5}, uint8 xz = {3}, uint8[2,1,2,2] w = {1, 2, 3, 4, 5, 6, 7, 8}, float[2] ws = {0.25, 0.5},
       uint8[2] wz = {2, 4}, float ys = {0.75}, uint8 yz = {10}, int32[2] bias = {5, -7}> {
        y = QLinearConv(x, xs, xz, w, ws, wz, ys, yz, bias)
      })"},
                 {"QLinearMatMul-10", R"(
      <ir_version: 5, opset_import: ["" : 10]>
      g (uint8[2,3] a) => (y)
      <float as = {0.5}, uint8 az = {3}, uint8[2,3,2] b = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, float bs = {0.25},
       uint8 bz = {2}, float ys = {2.0}, uint8 yz = {10}> { y = QLinearMatMul(a, as, az, b, bs, bz, ys, yz) })"},
                 {"QLinearMatMul-21", R"(
      <ir_version: 10, opset_import: ["" : 21]>
      g (int8[2,3] a) => (y)
      <float[2] as = {0.5, 0.25}, int8[2] az = {3, -1}, int8[3,2] b = {1, -2, 3, -4, 5, -6}, float[2] bs = {0.25, 0.125},
       int8[2] bz = {2, 0}, float ys = {0.5}, int8 yz = {-3}> { y = QLinearMatMul(a, as, az, b, bs, bz, ys, yz) })"},
                 {"LRN-1", R"(
      <ir_version: 3, opset_import: ["" : 1]>
      g (float[1,3,2,2] x) => (y) { y = LRN<size = 3, alpha = 0.001, beta = 0.75, bias = 1.0>(x) })"},
                 {"BatchNormalization-6", R"(
      <ir_version: 4, opset_import: ["" : 6]>
      g (float[1,2,2,2] x) => (y) <float[2] s = {1.5, 0.5}, float[2] b = {0.1, -0.1}, float[2] m = {0.2, -0.3},
                                    float[2] v = {1.0, 0.5}> {
        y = BatchNormalization<is_test = 1, epsilon = 0.001>(x, s, b, m, v)
      })"},
                 {"Dropout-6", R"(
      <ir_version: 3, opset_import: ["" : 6]>
      g (float[2,3] x) => (y) { y = Dropout<is_test = 1>(x) })"},
                 {"GroupNormalization-21", R"(
      <ir_version: 10, opset_import: ["" : 21]>
      g (float[1,4,2,2] x) => (y) <float[4] s = {1.5, 0.5, 1.0, 2.0}, float[4] b = {0.1, -0.1, 0.0, 0.2}> {
        y = GroupNormalization<num_groups = 2, epsilon = 0.001>(x, s, b)
      })"},
                 {"Col2Im-18", R"(
      <ir_version: 8, opset_import: ["" : 18]>
      g (float[1,4,4] x) => (y) <int64[2] image = {3, 3}, int64[2] block = {2, 2}> { y = Col2Im(x, image, block) })"},
                 {"DFT-17", R"(
      <ir_version: 8, opset_import: ["" : 17]>
      g (float[1,4,1] x) => (y) { y = DFT<axis = 1>(x) })"},
                 {"NonMaxSuppression-10", R"(
      <ir_version: 5, opset_import: ["" : 10]>
      g (float[1,3,4] boxes) => (y)
      <float[1,1,3] scores = {0.9, 0.8, 0.3}, int64[1] k = {2}, float[1] iou = {0.5}> {
        y = NonMaxSuppression(boxes, scores, k, iou)
      })"},
                 {"Upsample-1", R"(
      <ir_version: 3, opset_import: ["" : 1]>
      g (float[1,1,2,2] x) => (y) { y = Upsample<height_scale = 2.0, width_scale = 2.0, mode = "nearest">(x) })"},
                 {"Equal-11-int", R"(
      <ir_version: 6, opset_import: ["" : 11]>
      g (int64[4] a, int64[4] b) => (y) { y = Equal(a, b) })"},
                 {"Split-1", R"(
      <ir_version: 3, opset_import: ["" : 1]>
      g (float[3,4] x) => (y, z) { y, z = Split<axis = 0, split = [1, 2]>(x) })"},
                 // Shapes the kernels accept: the generated models of these three give their inputs
                 // unrelated shapes, which the kernels now refuse (found by the run fuzzer).
                 {"AffineGrid-20", R"(
      <ir_version: 9, opset_import: ["" : 20]>
      g (float[1,2,3] theta) => (grid) <int64[4] size = {1, 1, 2, 3}> {
        grid = AffineGrid<align_corners = 0>(theta, size)
      })"},
                 {"RotaryEmbedding-23", R"(
      <ir_version: 10, opset_import: ["" : 23]>
      g (float[1,2,4] x) => (y)
      <float[2,2] cos = {1.0, 1.0, 0.6, 0.8}, float[2,2] sin = {0.0, 0.0, 0.8, 0.6}, int64[1,2] pos = {0, 1}> {
        y = RotaryEmbedding<num_heads = 1>(x, cos, sin, pos)
      })"},
                 {"CausalConvWithState-27", R"(
      <ir_version: 13, opset_import: ["" : 27]>
      g (float[1,2,3] x) => (y, state)
      <float[2,1,2] w = {0.5, -0.25, 1.0, 0.75}, float[2] b = {0.1, -0.1}, float[1,2,1] past = {0.2, -0.3}> {
        y, state = CausalConvWithState(x, w, b, past)
      })"},
             });

}  // namespace onnx_opt::converter
