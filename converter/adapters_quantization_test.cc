#include "converter/testing/test_util.h"
#include "gtest/gtest.h"

namespace onnx_opt::converter::testing {
namespace {

TEST(QuantizationAdapters, PerTensorQuantizationCrossesAllSteps) {
  ExpectRoundTrip(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[2,3] X) => (float[2,3] Y) <float s = {0.1}, uint8 z = {3}> {
      q = QuantizeLinear<axis = 1, block_size = 0>(X, s, z)
      Y = DequantizeLinear(q, s, z)
    })",
                  10);
  ExpectRefusal(R"(
    <ir_version: 7, opset_import: ["" : 13]>
    g (float[2,3] X) => (uint8[2,3] Y) <float[3] s = {0.1, 0.2, 0.3}> { Y = QuantizeLinear<axis = 1>(X, s) })",
                10, "per-axis");
}

TEST(QuantizationAdapters, OutputDtypeBecomesAZeroPoint) {
  ExpectConversion(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[2,3] X) => (int8[2,3] Y) <float s = {0.1}> { Y = QuantizeLinear<output_dtype = 3>(X, s) })",
                   20, R"(
    <ir_version: 9, opset_import: ["" : 20]>
    g (float[2,3] X) => (int8[2,3] Y) <float s = {0.1}, int8 zero_point = {0}> { Y = QuantizeLinear(X, s, zero_point) })");
}

}  // namespace
}  // namespace onnx_opt::converter::testing
