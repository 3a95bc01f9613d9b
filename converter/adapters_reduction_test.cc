#include "converter/testing/test_util.h"
#include "gtest/gtest.h"

namespace onnx_opt::converter::testing {
namespace {

TEST(ReductionAdapters, AxesMoveToAnInputAt13And18) {
  ExpectConversion(R"(
    <ir_version: 7, opset_import: ["" : 12]>
    g (float[2,3,4] X) => (float[2,1,4] Y) { Y = ReduceSum<axes = [1], keepdims = 1>(X) })",
                   13, R"(
    <ir_version: 7, opset_import: ["" : 13]>
    g (float[2,3,4] X) => (float[2,1,4] Y) <int64[1] axes = {1}> { Y = ReduceSum<keepdims = 1>(X, axes) })");
  ExpectConversion(R"(
    <ir_version: 8, opset_import: ["" : 18]>
    g (float[2,3,4] X) => (float[2,4] Y) <int64[1] axes = {-2}> { Y = ReduceMean<keepdims = 0>(X, axes) })",
                   17, R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2,3,4] X) => (float[2,4] Y) { Y = ReduceMean<keepdims = 0, axes = [-2]>(X) })");
}

TEST(ReductionAdapters, NegativeAxesBecomePositiveBelow11) {
  ExpectConversion(R"(
    <ir_version: 6, opset_import: ["" : 11]>
    g (float[2,3,4] X) => (float[2,3] Y) { Y = ReduceMax<axes = [-1], keepdims = 0>(X) })",
                   10, R"(
    <ir_version: 5, opset_import: ["" : 10]>
    g (float[2,3,4] X) => (float[2,3] Y) { Y = ReduceMax<axes = [2], keepdims = 0>(X) })");
  ExpectRefusal(R"(
    <ir_version: 6, opset_import: ["" : 11]>
    g (float[] X) => (float[] Y) { Y = ArgMax<axis = -1>(X) })",
                10, "rank is unknown");
}

TEST(ReductionAdapters, NoopWithEmptyAxesBecomesIdentity) {
  ExpectConversion(R"(
    <ir_version: 8, opset_import: ["" : 18]>
    g (float[2,3] X) => (float[2,3] Y) { Y = ReduceProd<noop_with_empty_axes = 1>(X) })",
                   17, R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2,3] X) => (float[2,3] Y) { Y = Identity(X) })");
}

TEST(ReductionAdapters, RunTimeAxesAreRefusedClearly) {
  ExpectRefusal(R"(
    <ir_version: 7, opset_import: ["" : 13]>
    g (float[2,3] X, int64[1] axes) => (float Y) { Y = ReduceSum(X, axes) })",
                12, "must be a compile-time constant");
}

TEST(ReductionAdapters, SelectLastIndexOnlyWithItsDefault) {
  ExpectConversion(R"(
    <ir_version: 7, opset_import: ["" : 12]>
    g (float[2,3] X) => (int64[2,1] Y) { Y = ArgMin<axis = 1, select_last_index = 0>(X) })",
                   11, R"(
    <ir_version: 6, opset_import: ["" : 11]>
    g (float[2,3] X) => (int64[2,1] Y) { Y = ArgMin<axis = 1>(X) })");
  ExpectRoundTrip(R"(
    <ir_version: 7, opset_import: ["" : 12]>
    g (float[2,3] X) => (int64[2,1] Y) { Y = ArgMax<axis = 1, select_last_index = 1>(X) })",
                  11);
  ExpectRoundTrip(R"(
    <ir_version: 7, opset_import: ["" : 12]>
    g (float[2,N] X) => (int64[2] Y) { Y = ArgMin<axis = -1, keepdims = 0, select_last_index = 1>(X) })",
                  11);
}

TEST(ReductionAdapters, RoundTrip) {
  ExpectRoundTrip(R"(
    <ir_version: 6, opset_import: ["" : 11]>
    g (float[2,3,4] X) => (float[2,4] A, float[3] B, int64[2,4] C) {
      A = ReduceL2<axes = [1], keepdims = 0>(X)
      B = ReduceLogSumExp<axes = [0, 2], keepdims = 0>(X)
      C = ArgMax<axis = 1, keepdims = 0>(X)
    })",
                  21);
}

}  // namespace
}  // namespace onnx_opt::converter::testing
