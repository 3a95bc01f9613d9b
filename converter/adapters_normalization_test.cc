#include "converter/testing/test_util.h"
#include "gtest/gtest.h"

namespace onnx_opt::converter::testing {
namespace {

TEST(NormalizationAdapters, BatchNormTestModeAcrossOpset7) {
  ExpectConversion(R"(
    <ir_version: 3, opset_import: ["" : 6]>
    g (float[1,2,3] X, float[2] s, float[2] b, float[2] m, float[2] v) => (float[1,2,3] Y) {
      Y = BatchNormalization<is_test = 1, epsilon = 0.001>(X, s, b, m, v)
    })",
                   9, R"(
    <ir_version: 4, opset_import: ["" : 9]>
    g (float[1,2,3] X, float[2] s, float[2] b, float[2] m, float[2] v) => (float[1,2,3] Y) {
      Y = BatchNormalization<epsilon = 0.001>(X, s, b, m, v)
    })");
  ExpectRefusal(R"(
    <ir_version: 3, opset_import: ["" : 6]>
    g (float[1,2,3] X, float[2] s, float[2] b, float[2] m, float[2] v) => (float[1,2,3] Y) {
      Y = BatchNormalization(X, s, b, m, v)
    })",
                7, "training mode");
  ExpectConversion(R"(
    <ir_version: 7, opset_import: ["" : 15]>
    g (float[1,2,3] X, float[2] s, float[2] b, float[2] m, float[2] v) => (float[1,2,3] Y) {
      Y = BatchNormalization(X, s, b, m, v)
    })",
                   5, R"(
    <ir_version: 3, opset_import: ["" : 5]>
    g (float[1,2,3] X, float[2] s, float[2] b, float[2] m, float[2] v) => (float[1,2,3] Y) {
      Y = BatchNormalization<is_test = 1, consumed_inputs = [0, 0, 0, 0, 0]>(X, s, b, m, v)
    })");
  ExpectRefusal(R"(
    <ir_version: 8, opset_import: ["" : 15]>
    g (float[1,2,3] X, double[2] s, double[2] b, float[2] m, float[2] v) => (float[1,2,3] Y) {
      Y = BatchNormalization(X, s, b, m, v)
    })",
                14, "but T is already bound to tensor(float) by input 0");
}

TEST(NormalizationAdapters, DropoutRatioMovesAndMaskTypeChanges) {
  ExpectConversion(R"(
    <ir_version: 7, opset_import: ["" : 12]>
    g (float[2,3] X) => (float[2,3] Y) <float r = {0.25}> { Y = Dropout(X, r) })",
                   10, R"(
    <ir_version: 5, opset_import: ["" : 10]>
    g (float[2,3] X) => (float[2,3] Y) { Y = Dropout<ratio = 0.25>(X) })");
  ExpectConversion(R"(
    <ir_version: 5, opset_import: ["" : 10]>
    g (float[2,3] X) => (float[2,3] Y, bool[2,3] M) { Y, M = Dropout(X) })",
                   7, R"(
    <ir_version: 3, opset_import: ["" : 7]>
    g (float[2,3] X) => (float[2,3] Y, bool[2,3] M) {
      Y, M_1 = Dropout(X)
      M = Cast<to = 9>(M_1)
    })");
  ExpectRefusal(R"(
    <ir_version: 7, opset_import: ["" : 12]>
    g (float[2,3] X, bool t) => (float[2,3] Y) { Y = Dropout(X, , t) })",
                11, "training_mode");
}

TEST(NormalizationAdapters, LayerNormalizationExpandsBelow17) {
  ExpectRoundTrip(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2,3,4] X, float[4] s, float[4] b) => (float[2,3,4] Y) {
      Y = LayerNormalization<axis = -1, epsilon = 0.0001>(X, s, b)
    })",
                  13);
  ExpectRoundTrip(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2,3,4] X, float[3,4] s) => (float[2,3,4] Y, float[2,1,1] M, float[2,1,1] I) {
      Y, M, I = LayerNormalization<axis = 1>(X, s)
    })",
                  16);
}

TEST(NormalizationAdapters, GroupNormalizationExpandsBelow21) {
  ExpectRoundTrip(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[2,4,3,3] X, float[4] s, float[4] b) => (float[2,4,3,3] Y) {
      Y = GroupNormalization<num_groups = 2, epsilon = 0.001>(X, s, b)
    })",
                  18);
}

// Per-group scale and bias (18) become per-channel ones (21): each group's value repeated for its
// channels. A round trip from 21 never reaches this adapter (21 -> 18 expands the node away).
TEST(NormalizationAdapters, GroupNormalizationScaleBecomesPerChannelAt21) {
  ExpectConversion(R"(
    <ir_version: 8, opset_import: ["" : 18]>
    g (float[2,4,2,2] X, float[2] s, float[2] b) => (float[2,4,2,2] Y) {
      Y = GroupNormalization<num_groups = 2, epsilon = 0.001>(X, s, b)
    })",
                   21, R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[2,4,2,2] X, float[2] s, float[2] b) => (float[2,4,2,2] Y) <
      int64[2] gn_col = {2, 1}, int64[2] gn_wide = {2, 2}, int64[1] gn_flat = {4},
      int64[2] gn_col_1 = {2, 1}, int64[2] gn_wide_1 = {2, 2}, int64[1] gn_flat_1 = {4}
    > {
      s_col = Reshape(s, gn_col)
      s_wide = Expand(s_col, gn_wide)
      s_per_channel = Reshape(s_wide, gn_flat)
      b_col = Reshape(b, gn_col_1)
      b_wide = Expand(b_col, gn_wide_1)
      b_per_channel = Reshape(b_wide, gn_flat_1)
      Y = GroupNormalization<num_groups = 2, epsilon = 0.001>(X, s_per_channel, b_per_channel)
    })");
}

TEST(NormalizationAdapters, RmsNormalizationExpandsBelow23) {
  ExpectRoundTrip(R"(
    <ir_version: 11, opset_import: ["" : 23]>
    g (float[2,3,4] X, float[4] s) => (float[2,3,4] Y) { Y = RMSNormalization(X, s) })",
                  18);
}

}  // namespace
}  // namespace onnx_opt::converter::testing
