#include "converter/test_util.h"
#include "gtest/gtest.h"

namespace onnx_opt::converter::testing {
namespace {

TEST(ActivationAdapters, SoftmaxOnLastAxisOnlyMakesTheAxisExplicit) {
  ExpectConversion(R"(
    <ir_version: 6, opset_import: ["" : 11]>
    g (float[2,5] X) => (float[2,5] Y) { Y = Softmax(X) })",
                   13, R"(
    <ir_version: 7, opset_import: ["" : 13]>
    g (float[2,5] X) => (float[2,5] Y) { Y = Softmax<axis = -1>(X) })");
}

TEST(ActivationAdapters, SoftmaxCoercionUpgradesWithFlattenAndReshape) {
  ExpectConversion(R"(
    <ir_version: 6, opset_import: ["" : 11]>
    g (float[2,3,4] X) => (float[2,3,4] Y) { Y = LogSoftmax<axis = 1>(X) })",
                   13, R"(
    <ir_version: 7, opset_import: ["" : 13]>
    g (float[2,3,4] X) => (float[2,3,4] Y) {
      X_2d = Flatten<axis = 1>(X)
      X_shape = Shape(X)
      Y_1 = LogSoftmax<axis = -1>(X_2d)
      Y = Reshape(Y_1, X_shape)
    })");
}

TEST(ActivationAdapters, SoftmaxOnInnerAxisDowngradesWithTransposes) {
  ExpectConversion(R"(
    <ir_version: 7, opset_import: ["" : 13]>
    g (float[2,3,4] X) => (float[2,3,4] Y) { Y = Softmax<axis = 1>(X) })",
                   12, R"(
    <ir_version: 7, opset_import: ["" : 12]>
    g (float[2,3,4] X) => (float[2,3,4] Y) {
      X_axis_last = Transpose<perm = [0, 2, 1]>(X)
      Y_1 = Softmax<axis = 2>(X_axis_last)
      Y = Transpose<perm = [0, 2, 1]>(Y_1)
    })");
}

TEST(ActivationAdapters, SoftmaxWithUnknownRankAndInnerAxisIsRefused) {
  ExpectRefusal(R"(
    <ir_version: 7, opset_import: ["" : 13]>
    g (float[] X) => (float[] Y) { Y = Softmax<axis = 1>(X) })",
                12, "rank is unknown");
}

TEST(ActivationAdapters, SeluDefaultsChangedAtOpset6) {
  ExpectConversion(R"(
    <ir_version: 3, opset_import: ["" : 6]>
    g (float[4] X) => (float[4] Y) { Y = Selu(X) })",
                   5, R"(
    <ir_version: 3, opset_import: ["" : 5]>
    g (float[4] X) => (float[4] Y) { Y = Selu<alpha = 1.67326319217681884765625, gamma = 1.05070102214813232421875>(X) })");
}

TEST(ActivationAdapters, NewerActivationsExpandBelowTheirOpset) {
  ExpectConversion(R"(
    <ir_version: 8, opset_import: ["" : 14]>
    g (float[4] X) => (float[4] Y) { Y = HardSwish(X) })",
                   13, R"(
    <ir_version: 7, opset_import: ["" : 13]>
    g (float[4] X) => (float[4] Y) {
      Y_hsig = HardSigmoid<alpha = 0.16666667163372039794921875, beta = 0.5>(X)
      Y = Mul(X, Y_hsig)
    })");
  for (const char* approx : {"none", "tanh"}) {
    ExpectRoundTrip(std::string(R"(
      <ir_version: 9, opset_import: ["" : 20]>
      g (float[2,5] X) => (float[2,5] Y) { Y = Gelu<approximate = ")") + approx + R"(">(X) })", 13);
  }
}

}  // namespace
}  // namespace onnx_opt::converter::testing
