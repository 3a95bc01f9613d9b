#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "converter/testing/test_util.h"
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

TEST(ActivationAdapters, PReluPerChannelSlopeUpgradesWithUnsqueeze) {
  // PRelu-6 reads a [C] slope per channel; PRelu-7 would align it with X's last axis.
  ExpectConversion(R"(
    <ir_version: 3, opset_import: ["" : 6]>
    g (float[N,3,4,4] X, float[3] S) => (float[N,3,4,4] Y) { Y = PRelu(X, S) })",
                   7, R"(
    <ir_version: 3, opset_import: ["" : 7]>
    g (float[N,3,4,4] X, float[3] S) => (float[N,3,4,4] Y) {
      S_per_channel = Unsqueeze<axes = [1, 2]>(S)
      Y = PRelu(X, S_per_channel)
    })");
  // One shared value, X of rank 2 (the channel axis is the last), or a slope that is not a channel
  // count: read alike by both versions.
  for (auto [x, s] :
       std::vector<std::pair<const char*, const char*>>{{"float[N,3,4,4]", "float[1]"},
                                                        {"float[N,3]", "float[3]"},
                                                        {"float[N,3,4,5]", "float[5]"},
                                                        {"float[N,3,4,5]", "float[3,1,1]"}}) {
    const std::string graph =
        absl::StrCat("g (", x, " X, ", s, " S) => (", x, " Y) { Y = PRelu(X, S) }");
    ExpectConversion(absl::StrCat(R"(<ir_version: 3, opset_import: ["" : 6]>)", graph), 7,
                     absl::StrCat(R"(<ir_version: 3, opset_import: ["" : 7]>)", graph));
  }
}

TEST(ActivationAdapters, PReluSlopeThatMayBePerChannelNeedsKnownShapes) {
  ExpectRefusal(R"(
    <ir_version: 3, opset_import: ["" : 6]>
    g (float[] X, float[3] S) => (float[] Y) { Y = PRelu(X, S) })",
                7, "the ranks of X and the slope must be known");
  ExpectRefusal(R"(
    <ir_version: 3, opset_import: ["" : 6]>
    g (float[N,C,4] X, float[3] S) => (float[N,C,4] Y) { Y = PRelu(X, S) })",
                7, "depends on dims that are not known");
}

TEST(ActivationAdapters, PReluChannelSlopeDowngradesWithSqueeze) {
  ExpectConversion(R"(
    <ir_version: 3, opset_import: ["" : 7]>
    g (float[N,3,4,4] X, float[3,1,1] S) => (float[N,3,4,4] Y) { Y = PRelu(X, S) })",
                   6, R"(
    <ir_version: 3, opset_import: ["" : 6]>
    g (float[N,3,4,4] X, float[3,1,1] S) => (float[N,3,4,4] Y) {
      S_per_channel = Squeeze<axes = [1, 2]>(S)
      Y = PRelu(X, S_per_channel)
    })");
  ExpectConversion(R"(
    <ir_version: 3, opset_import: ["" : 7]>
    g (float[N,3,4] X, float[1,3,1] S) => (float[N,3,4] Y) { Y = PRelu(X, S) })",
                   6, R"(
    <ir_version: 3, opset_import: ["" : 6]>
    g (float[N,3,4] X, float[1,3,1] S) => (float[N,3,4] Y) {
      S_per_channel = Squeeze<axes = [0, 2]>(S)
      Y = PRelu(X, S_per_channel)
    })");
  // X's shape and one element stay as they are.
  for (auto [x, s] :
       std::vector<std::pair<const char*, const char*>>{{"float[N,3,4]", "float[N,3,4]"},
                                                        {"float[N,3,4]", "float[1,1]"},
                                                        {"float[N,3]", "float[3]"}}) {
    const std::string graph =
        absl::StrCat("g (", x, " X, ", s, " S) => (", x, " Y) { Y = PRelu(X, S) }");
    ExpectConversion(absl::StrCat(R"(<ir_version: 3, opset_import: ["" : 7]>)", graph), 6,
                     absl::StrCat(R"(<ir_version: 3, opset_import: ["" : 6]>)", graph));
  }
  // Along X's last axis there is no per-channel form.
  ExpectRefusal(R"(
    <ir_version: 3, opset_import: ["" : 7]>
    g (float[N,3,4,5] X, float[5] S) => (float[N,3,4,5] Y) { Y = PRelu(X, S) })",
                6, "one value per channel");
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
      g (float[2,5] X) => (float[2,5] Y) { Y = Gelu<approximate = ")") +
                        approx + R"(">(X) })",
                    13);
  }
}

}  // namespace
}  // namespace onnx_opt::converter::testing
