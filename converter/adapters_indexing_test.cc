#include "converter/testing/test_util.h"
#include "gtest/gtest.h"

namespace onnx_opt::converter::testing {
namespace {

// The indices are initializers: random ones (0..3) could fall outside axis 1 (size 3) or repeat,
// where the result is undefined, so the numeric check would prove nothing.
TEST(IndexingAdapters, ScatterBecomesScatterElementsAndBack) {
  ExpectConversion(R"(
    <ir_version: 4, opset_import: ["" : 9]>
    g (float[2,3] D, float[1,2] U) => (float[2,3] Y) <int64[1,2] I = {2, 0}> { Y = Scatter<axis = 1>(D, I, U) })",
                   11, R"(
    <ir_version: 6, opset_import: ["" : 11]>
    g (float[2,3] D, float[1,2] U) => (float[2,3] Y) <int64[1,2] I = {2, 0}> {
      Y = ScatterElements<axis = 1>(D, I, U)
    })");
  ExpectConversion(R"(
    <ir_version: 7, opset_import: ["" : 13]>
    g (float[2,3] D, float[1,2] U) => (float[2,3] Y) <int64[1,2] I = {2, 0}> {
      Y = ScatterElements<axis = 1>(D, I, U)
    })",
                   10, R"(
    <ir_version: 5, opset_import: ["" : 10]>
    g (float[2,3] D, float[1,2] U) => (float[2,3] Y) <int64[1,2] I = {2, 0}> { Y = Scatter<axis = 1>(D, I, U) })");
  ExpectRefusal(R"(
    <ir_version: 8, opset_import: ["" : 18]>
    g (float[2,3] D, int64[1,2] I, float[1,2] U) => (float[2,3] Y) { Y = ScatterElements<reduction = "max">(D, I, U) })",
                17, "max");
}

TEST(IndexingAdapters, GatherNegativeConstantIndices) {
  ExpectConversion(R"(
    <ir_version: 6, opset_import: ["" : 11]>
    g (float[4,3] X) => (float[2,3] Y) <int64[2] i = {-1, 0}> { Y = Gather<axis = 0>(X, i) })",
                   10, R"(
    <ir_version: 5, opset_import: ["" : 10]>
    g (float[4,3] X) => (float[2,3] Y) <int64[2] indices = {3, 0}> { Y = Gather<axis = 0>(X, indices) })");
}

TEST(IndexingAdapters, TopKMovesKAndKeepsDefaults) {
  ExpectConversion(R"(
    <ir_version: 3, opset_import: ["" : 9]>
    g (float[2,5] X) => (float[2,2] V, int64[2,2] I) { V, I = TopK<k = 2>(X) })",
                   11, R"(
    <ir_version: 6, opset_import: ["" : 11]>
    g (float[2,5] X) => (float[2,2] V, int64[2,2] I) <int64[1] k = {2}> { V, I = TopK(X, k) })");
  ExpectRefusal(R"(
    <ir_version: 6, opset_import: ["" : 11]>
    g (float[2,5] X) => (float[2,2] V, int64[2,2] I) <int64[1] k = {2}> { V, I = TopK<largest = 0>(X, k) })",
                10, "largest");
}

}  // namespace
}  // namespace onnx_opt::converter::testing
