#include "converter/testing/test_util.h"
#include "gtest/gtest.h"

namespace onnx_opt::converter::testing {
namespace {

TEST(TensorAdapters, UnsqueezeAndSqueezeAxesMoveAt13) {
  ExpectConversion(R"(
    <ir_version: 7, opset_import: ["" : 13]>
    g (float[2,3] X) => (float[2,3] Y) <int64[1] a = {0}> {
      u = Unsqueeze(X, a)
      Y = Squeeze(u, a)
    })",
                   12, R"(
    <ir_version: 7, opset_import: ["" : 12]>
    g (float[2,3] X) => (float[2,3] Y) {
      u = Unsqueeze<axes = [0]>(X)
      Y = Squeeze<axes = [0]>(u)
    })");
  // Axes computed from Shape/Size of static values are folded.
  ExpectConversion(R"(
    <ir_version: 7, opset_import: ["" : 13]>
    g (float[2,3] X) => (float[2,1,3] Y) <int64[1] one = {1}> {
      s = Size(one)
      Y = Unsqueeze(X, s)
    })",
                   12, R"(
    <ir_version: 7, opset_import: ["" : 12]>
    g (float[2,3] X) => (float[2,1,3] Y) { Y = Unsqueeze<axes = [1]>(X) })");
}

TEST(TensorAdapters, NegativeUnsqueezeAxesUseTheOutputRank) {
  ExpectConversion(R"(
    <ir_version: 6, opset_import: ["" : 11]>
    g (float[2,3] X) => (float[2,3,1] Y) { Y = Unsqueeze<axes = [-1]>(X) })",
                   10, R"(
    <ir_version: 5, opset_import: ["" : 10]>
    g (float[2,3] X) => (float[2,3,1] Y) { Y = Unsqueeze<axes = [2]>(X) })");
}

TEST(TensorAdapters, ReshapeShapeAttributeAndAllowzero) {
  ExpectConversion(R"(
    <ir_version: 3, opset_import: ["" : 4]>
    g (float[2,3] X) => (float[3,2] Y) { Y = Reshape<shape = [3, -1]>(X) })",
                   5, R"(
    <ir_version: 4, opset_import: ["" : 5]>
    g (float[2,3] X) => (float[3,2] Y) <int64[2] shape = {3, -1}> { Y = Reshape(X, shape) })");
  ExpectRefusal(R"(
    <ir_version: 8, opset_import: ["" : 14]>
    g (float[2,3] X) => (float[2,3] Y) <int64[2] s = {0, 3}> { Y = Reshape<allowzero = 1>(X, s) })",
                13, "allowzero");
}

TEST(TensorAdapters, SplitNumOutputsAndSplitInput) {
  ExpectConversion(R"(
    <ir_version: 8, opset_import: ["" : 18]>
    g (float[5,2] X) => (float[3,2] A, float[2,2] B) { A, B = Split<axis = 0, num_outputs = 2>(X) })",
                   13, R"(
    <ir_version: 7, opset_import: ["" : 13]>
    g (float[5,2] X) => (float[3,2] A, float[2,2] B) <int64[2] split = {3, 2}> { A, B = Split<axis = 0>(X, split) })");
  ExpectConversion(R"(
    <ir_version: 7, opset_import: ["" : 13]>
    g (float[4,2] X) => (float[2,2] A, float[2,2] B) { A, B = Split(X) })",
                   18, R"(
    <ir_version: 8, opset_import: ["" : 18]>
    g (float[4,2] X) => (float[2,2] A, float[2,2] B) { A, B = Split<num_outputs = 2>(X) })");
  ExpectRoundTrip(R"(
    <ir_version: 6, opset_import: ["" : 11]>
    g (float[5,2] X) => (float[1,2] A, float[4,2] B) { A, B = Split<split = [1, 4]>(X) })",
                  21);
}

TEST(TensorAdapters, SliceAttributesAndInputs) {
  ExpectConversion(R"(
    <ir_version: 5, opset_import: ["" : 10]>
    g (float[4,6] X) => (float[2,3] Y) <int64[2] st = {1, 0}, int64[2] en = {3, 3}> { Y = Slice(X, st, en) })",
                   9, R"(
    <ir_version: 4, opset_import: ["" : 9]>
    g (float[4,6] X) => (float[2,3] Y) { Y = Slice<starts = [1, 0], ends = [3, 3]>(X) })");
  ExpectRefusal(R"(
    <ir_version: 5, opset_import: ["" : 10]>
    g (float[4,6] X) => (float[2,3] Y) <int64[1] st = {0}, int64[1] en = {4}, int64[1] ax = {0}, int64[1] sp = {2}> {
      Y = Slice(X, st, en, ax, sp)
    })",
                9, "steps");
}

TEST(TensorAdapters, PadAttributesInputsAndAxes) {
  ExpectRoundTrip(R"(
    <ir_version: 3, opset_import: ["" : 1]>
    g (float[2,3] X) => (float[4,4] Y) { Y = Pad<paddings = [1, 0, 1, 1], value = 2.5>(X) })",
                  19);
  ExpectConversion(R"(
    <ir_version: 8, opset_import: ["" : 18]>
    g (float[2,3] X) => (float[2,5] Y) <int64[2] p = {1, 1}, int64[1] ax = {-1}> { Y = Pad(X, p, , ax) })",
                   13, R"(
    <ir_version: 7, opset_import: ["" : 13]>
    g (float[2,3] X) => (float[2,5] Y) <int64[4] pads = {0, 1, 0, 1}> { Y = Pad(X, pads) })");
  ExpectRefusal(R"(
    <ir_version: 9, opset_import: ["" : 19]>
    g (float[2,3] X) => (float[2,5] Y) <int64[4] p = {0, 1, 0, 1}> { Y = Pad<mode = "wrap">(X, p) })",
                18, "wrap");
}

TEST(TensorAdapters, CastToIsANameInCast1) {
  ExpectConversion(R"(
    <ir_version: 3, opset_import: ["" : 6]>
    g (float[3] X) => (int32[3] Y) { Y = Cast<to = 6>(X) })",
                   5, R"(
    <ir_version: 3, opset_import: ["" : 5]>
    g (float[3] X) => (int32[3] Y) { Y = Cast<to = "INT32">(X) })");
  ExpectRefusal(R"(
    <ir_version: 9, opset_import: ["" : 19]>
    g (float[3] X) => (float8e4m3fn[3] Y) { Y = Cast<to = 17, saturate = 0>(X) })",
                18, "float8e4m3fn");
}

TEST(TensorAdapters, ConstantFormsAndTypesBelowTheirOpsets) {
  ExpectConversion(R"(
    <ir_version: 7, opset_import: ["" : 12]>
    g (float[2] X) => (float[2] Y) { c = Constant<value_floats = [1.0, 2.0]>() Y = Add(X, c) })",
                   11, R"(
    <ir_version: 6, opset_import: ["" : 11]>
    g (float[2] X) => (float[2] Y) { c = Constant<value = float[2] {1.0, 2.0}>() Y = Add(X, c) })");
  // Constant-1 has only float types: an int64 constant becomes an initializer.
  ExpectConversion(R"(
    <ir_version: 4, opset_import: ["" : 9]>
    g (float[2,3] X) => (float[3,2] Y) { s = Constant<value = int64[2] {3, 2}>() Y = Reshape(X, s) })",
                   8, R"(
    <ir_version: 4, opset_import: ["" : 8]>
    g (float[2,3] X) => (float[3,2] Y) <int64[2] s_value = {3, 2}> { Y = Reshape(X, s_value) })");
}

TEST(TensorAdapters, AnInitializerReplacingAGraphOutputGoesThroughIdentity) {
  ExpectConversion(R"(
    <ir_version: 4, opset_import: ["" : 9]>
    g (float[2] X) => (int64[2] Y, float[2] Z) { Y = Constant<value = int64[2] {1, 2}>() Z = Relu(X) })",
                   8, R"(
    <ir_version: 4, opset_import: ["" : 8]>
    g (float[2] X) => (int64[2] Y, float[2] Z) <int64[2] Y_value = {1, 2}> { Y = Identity(Y_value) Z = Relu(X) })");
}

TEST(TensorAdapters, ShapeStartEndBecomeASlice) {
  ExpectConversion(R"(
    <ir_version: 8, opset_import: ["" : 15]>
    g (float[2,3,4] X) => (int64[2] Y) { Y = Shape<start = 1>(X) })",
                   14, R"(
    <ir_version: 7, opset_import: ["" : 14]>
    g (float[2,3,4] X) => (int64[2] Y) <int64[1] shape_start = {1}, int64[1] shape_end = {9223372036854775807}, int64[1] shape_axes = {0}> {
      Y_1 = Shape(X)
      Y = Slice(Y_1, shape_start, shape_end, shape_axes)
    })");
}

TEST(TensorAdapters, TileRepeatsAndTile1) {
  ExpectConversion(R"(
    <ir_version: 3, opset_import: ["" : 6]>
    g (float[2,3] X) => (float[4,3] Y) <int64[2] r = {2, 1}> { Y = Tile(X, r) })",
                   5, R"(
    <ir_version: 3, opset_import: ["" : 5]>
    g (float[2,3] X) => (float[4,3] Y) { Y = Concat<axis = 0>(X, X) })");
}

// The shape is an initializer: random ones (the first draws are 0, 0) give an empty output, which
// a wrong fill value would match.
TEST(TensorAdapters, ConstantOfShapeBecomesExpandBelow9) {
  ExpectConversion(R"(
    <ir_version: 4, opset_import: ["" : 9]>
    g () => (float[2,3] Y) <int64[2] S = {2, 3}> { Y = ConstantOfShape<value = float[1] {1.5}>(S) })",
                   8, R"(
    <ir_version: 4, opset_import: ["" : 8]>
    g () => (float[2,3] Y) <int64[2] S = {2, 3}, float Y_value = {1.5}> { Y = Expand(Y_value, S) })");
}

TEST(TensorAdapters, CastLikeBecomesCastBelow15) {
  ExpectConversion(R"(
    <ir_version: 8, opset_import: ["" : 15]>
    g (float[3] X, int32[1] like) => (int32[3] Y) { Y = CastLike(X, like) })",
                   14, R"(
    <ir_version: 7, opset_import: ["" : 14]>
    g (float[3] X, int32[1] like) => (int32[3] Y) { Y = Cast<to = 6>(X) })");
}

}  // namespace
}  // namespace onnx_opt::converter::testing
