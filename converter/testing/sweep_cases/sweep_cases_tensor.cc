// Sweep cases for tensor-shaping and indexing operators: the attributes and constant inputs the
// generated one-node models cannot have.
#include "converter/testing/sweep_cases/sweep_cases.h"

namespace onnx_opt::converter {

REGISTER_SWEEP_CASES(tensor, {
                                 // A scalar axis, and a crop shape with one value per axis (a
                                 // generated model would give these
                                 // inputs the data's shape).
                                 {"CumSum-11", R"(
      <ir_version: 8, opset_import: ["" : 11]>
      g (float[2,3] x) => (y) <int64 axis = {1}> { y = CumSum<exclusive = 1>(x, axis) })"},
                                 {"CumSum-14", R"(
      <ir_version: 8, opset_import: ["" : 14]>
      g (float[2,3] x) => (y) <int32 axis = {0}> { y = CumSum<reverse = 1>(x, axis) })"},
                                 {"CenterCropPad-18", R"(
      <ir_version: 8, opset_import: ["" : 18]>
      g (float[4,3,2] x) => (y) <int64[2] shape = {2, 5}> { y = CenterCropPad<axes = [0, 1]>(x, shape) })"},
                                 {"CumProd-26", R"(
      <ir_version: 8, opset_import: ["" : 26]>
      g (float[2,3] x) => (y) <int64 axis = {-1}> { y = CumProd(x, axis) })"},
                                 {"Reshape-5", R"(
      <ir_version: 8, opset_import: ["" : 5]>
      g (float[2,3,4] x) => (y) <int64[2] shape = {4, 6}> { y = Reshape(x, shape) })"},
                                 {"Reshape-1", R"(
      <ir_version: 3, opset_import: ["" : 1]>
      g (float[2,3,4] x) => (y) { y = Reshape<shape = [4, 6]>(x) })"},
                                 {"Squeeze-1", R"(
      <ir_version: 8, opset_import: ["" : 1]>
      g (float[2,1,4] x) => (y) { y = Squeeze<axes = [1]>(x) })"},
                                 {"Squeeze-13", R"(
      <ir_version: 8, opset_import: ["" : 13]>
      g (float[2,1,4] x) => (y) <int64[1] axes = {-2}> { y = Squeeze(x, axes) })"},
                                 {"Unsqueeze-1", R"(
      <ir_version: 8, opset_import: ["" : 1]>
      g (float[2,4] x) => (y) { y = Unsqueeze<axes = [0, 3]>(x) })"},
                                 {"Unsqueeze-13", R"(
      <ir_version: 8, opset_import: ["" : 13]>
      g (float[2,4] x) => (y) <int64[1] axes = {1}> { y = Unsqueeze(x, axes) })"},
                                 {"Concat-4", R"(
      <ir_version: 8, opset_import: ["" : 4]>
      g (float[2,3] a, float[2,1] b) => (y) { y = Concat<axis = 1>(a, b) })"},
                                 {"Split-2", R"(
      <ir_version: 8, opset_import: ["" : 2]>
      g (float[3,4] x) => (y, z) { y, z = Split<axis = 0, split = [1, 2]>(x) })"},
                                 {"Split-13", R"(
      <ir_version: 8, opset_import: ["" : 13]>
      g (float[3,4] x) => (y, z) <int64[2] split = {3, 1}> { y, z = Split<axis = 1>(x, split) })"},
                                 {"Split-18-outputs", R"(
      <ir_version: 8, opset_import: ["" : 18]>
      g (float[4,4] x) => (y, z) { y, z = Split<axis = 0, num_outputs = 2>(x) })"},
                                 {"Pad-2", R"(
      <ir_version: 8, opset_import: ["" : 2]>
      g (float[2,3] x) => (y) { y = Pad<pads = [0, 1, 1, 0], value = 0.5>(x) })"},
                                 {"Pad-11", R"(
      <ir_version: 8, opset_import: ["" : 11]>
      g (float[2,3] x) => (y) <int64[4] pads = {1, 0, 0, 2}, float v = {1.5}> { y = Pad<mode = "constant">(x, pads, v) })"},
                                 {"Pad-11-reflect", R"(
      <ir_version: 8, opset_import: ["" : 11]>
      g (float[3,4] x) => (y) <int64[4] pads = {1, 1, 1, 1}> { y = Pad<mode = "reflect">(x, pads) })"},
                                 {"Slice-1", R"(
      <ir_version: 8, opset_import: ["" : 1]>
      g (float[4,5] x) => (y) { y = Slice<starts = [1, 0], ends = [3, 4], axes = [0, 1]>(x) })"},
                                 {"Slice-10", R"(
      <ir_version: 8, opset_import: ["" : 10]>
      g (float[4,5] x) => (y) <int64[1] s = {1}, int64[1] e = {4}, int64[1] a = {1}, int64[1] p = {2}> {
        y = Slice(x, s, e, a, p)
      })"},
                                 {"Tile-6", R"(
      <ir_version: 8, opset_import: ["" : 6]>
      g (float[2,3] x) => (y) <int64[2] r = {2, 1}> { y = Tile(x, r) })"},
                                 {"Expand-8", R"(
      <ir_version: 8, opset_import: ["" : 8]>
      g (float[3,1] x) => (y) <int64[2] s = {3, 4}> { y = Expand(x, s) })"},
                                 {"Gather-1", R"(
      <ir_version: 8, opset_import: ["" : 1]>
      g (float[4,3] x) => (y) <int64[2] i = {3, 0}> { y = Gather<axis = 0>(x, i) })"},
                                 {"GatherElements-11", R"(
      <ir_version: 8, opset_import: ["" : 11]>
      g (float[3,3] x) => (y) <int64[2,3] i = {0, 2, 1, 1, 0, 2}> { y = GatherElements<axis = 0>(x, i) })"},
                                 {"GatherND-11", R"(
      <ir_version: 8, opset_import: ["" : 11]>
      g (float[3,3] x) => (y) <int64[2,2] i = {0, 2, 1, 1}> { y = GatherND(x, i) })"},
                                 {"ScatterElements-11", R"(
      <ir_version: 8, opset_import: ["" : 11]>
      g (float[3,3] x, float[1,2] u) => (y) <int64[1,2] i = {2, 0}> { y = ScatterElements<axis = 1>(x, i, u) })"},
                                 {"ScatterND-11", R"(
      <ir_version: 8, opset_import: ["" : 11]>
      g (float[3,3] x, float[2,3] u) => (y) <int64[2,1] i = {2, 0}> { y = ScatterND(x, i, u) })"},
                                 {"Scatter-9", R"(
      <ir_version: 8, opset_import: ["" : 9]>
      g (float[3,3] x, float[1,2] u) => (y) <int64[1,2] i = {2, 0}> { y = Scatter<axis = 1>(x, i, u) })"},
                                 {"OneHot-9", R"(
      <ir_version: 8, opset_import: ["" : 9]>
      g (int64[3] i) => (y) <float d = {4.0}, float[2] v = {0.0, 1.0}> { y = OneHot<axis = -1>(i, d, v) })"},
                                 {"DepthToSpace-1", R"(
      <ir_version: 8, opset_import: ["" : 1]>
      g (float[1,4,2,3] x) => (y) { y = DepthToSpace<blocksize = 2>(x) })"},
                                 {"SpaceToDepth-1", R"(
      <ir_version: 8, opset_import: ["" : 1]>
      g (float[1,2,4,4] x) => (y) { y = SpaceToDepth<blocksize = 2>(x) })"},
                                 {"ConstantOfShape-9", R"(
      <ir_version: 8, opset_import: ["" : 9]>
      g (float[3] x) => (y) <int64[2] s = {2, 3}> { c = ConstantOfShape<value = float[1] {2.5}>(s)  y = Add(c, x) })"},
                                 {"Constant-1", R"(
      <ir_version: 8, opset_import: ["" : 1]>
      g (float[2] x) => (y) { c = Constant<value = float[2] {1.0, 2.0}>()  y = Add(x, c) })"},
                                 {"TopK-1", R"(
      <ir_version: 8, opset_import: ["" : 1]>
      g (float[3,5] x) => (v, i) { v, i = TopK<k = 2>(x) })"},
                                 {"TopK-10", R"(
      <ir_version: 8, opset_import: ["" : 10]>
      g (float[3,5] x) => (v, i) <int64[1] k = {3}> { v, i = TopK<axis = 0>(x, k) })"},
                                 {"Range-11", R"(
      <ir_version: 8, opset_import: ["" : 11]>
      g (float[5] x) => (y) <float s = {1.0}, float l = {6.0}, float d = {1.0}> { r = Range(s, l, d)  y = Mul(x, r) })"},
                                 {"Einsum-12", R"(
      <ir_version: 8, opset_import: ["" : 12]>
      g (float[2,3] a, float[3,4] b) => (y) { y = Einsum<equation = "ij,jk->ik">(a, b) })"},
                                 {"Cast-6", R"(
      <ir_version: 8, opset_import: ["" : 6]>
      g (int32[4] x) => (y) { y = Cast<to = 1>(x) })"},
                                 {"Cast-13-float-to-int", R"(
      <ir_version: 8, opset_import: ["" : 13]>
      g (float[4] x) => (y) { y = Cast<to = 7>(x) })"},
                                 {"CastLike-15", R"(
      <ir_version: 8, opset_import: ["" : 15]>
      g (int32[4] x, float[1] t) => (y) { y = CastLike(x, t) })"},
                                 {"Trilu-14", R"(
      <ir_version: 8, opset_import: ["" : 14]>
      g (float[3,4] x) => (y) <int64 k = {1}> { y = Trilu<upper = 0>(x, k) })"},
                                 {"ReverseSequence-10", R"(
      <ir_version: 8, opset_import: ["" : 10]>
      g (float[4,2] x) => (y) <int64[2] l = {3, 1}> { y = ReverseSequence<batch_axis = 1, time_axis = 0>(x, l) })"},
                                 {"Compress-9", R"(
      <ir_version: 8, opset_import: ["" : 9]>
      g (float[3,2] x) => (y) <bool[3] c = {1, 0, 1}> { y = Compress<axis = 0>(x, c) })"},
                                 {"Upsample-9", R"(
      <ir_version: 8, opset_import: ["" : 9]>
      g (float[1,1,2,2] x) => (y) <float[4] s = {1.0, 1.0, 2.0, 2.0}> { y = Upsample<mode = "nearest">(x, s) })"},
                                 {"Upsample-7", R"(
      <ir_version: 8, opset_import: ["" : 7]>
      g (float[1,1,2,2] x) => (y) { y = Upsample<mode = "linear", scales = [1.0, 1.0, 2.0, 2.0]>(x) })"},
                                 {"Resize-10", R"(
      <ir_version: 8, opset_import: ["" : 10]>
      g (float[1,1,2,2] x) => (y) <float[4] s = {1.0, 1.0, 2.0, 2.0}> { y = Resize<mode = "nearest">(x, s) })"},
                                 {"Resize-11-linear", R"(
      <ir_version: 8, opset_import: ["" : 11]>
      g (float[1,1,2,2] x) => (y) <float[0] roi = {}, float[4] s = {1.0, 1.0, 2.0, 2.0}> {
        y = Resize<mode = "linear", coordinate_transformation_mode = "half_pixel">(x, roi, s)
      })"},
                             });

}  // namespace onnx_opt::converter
