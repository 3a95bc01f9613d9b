#include "converter/testing/test_util.h"
#include "gtest/gtest.h"

namespace onnx_opt::converter::testing {
namespace {

TEST(MiscAdapters, DftAxisMovesToAnInput) {
  ExpectConversion(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[1,8,1] X) => (float[1,8,2] Y) { Y = DFT(X) })",
                   20, R"(
    <ir_version: 9, opset_import: ["" : 20]>
    g (float[1,8,1] X) => (float[1,8,2] Y) <int64 dft_axis = {1}> { Y = DFT(X, , dft_axis) })");
  ExpectConversion(R"(
    <ir_version: 9, opset_import: ["" : 20]>
    g (float[1,8,1] X) => (float[1,8,2] Y) { Y = DFT(X) })",
                   17, R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[1,8,1] X) => (float[1,8,2] Y) { Y = DFT<axis = 1>(X) })");
}

TEST(MiscAdapters, NewerOperatorsAreRefusedWithTheirOpset) {
  ExpectRefusal(R"(
    <ir_version: 7, opset_import: ["" : 14]>
    g (float[3,3] X) => (float[3,3] Y) { Y = Trilu(X) })",
                13, "Trilu was introduced at ai.onnx opset 14");
}

TEST(MiscAdapters, ConstantComputationsOfNewerOperatorsAreFolded) {
  ExpectConversion(R"(
    <ir_version: 6, opset_import: ["" : 11]>
    g (float[3] X) => (float[3] Y) <float a = {0.0}, float b = {3.0}, float d = {1.0}> {
      r = Range(a, b, d)
      Y = Add(X, r)
    })",
                   10, R"(
    <ir_version: 5, opset_import: ["" : 10]>
    g (float[3] X) => (float[3] Y) <float[3] r_folded = {0.0, 1.0, 2.0}> { Y = Add(X, r_folded) })");
}

}  // namespace
}  // namespace onnx_opt::converter::testing
