#include "converter/testing/test_util.h"
#include "gtest/gtest.h"

namespace onnx_opt::converter::testing {
namespace {

TEST(RnnAdapters, BatchMajorLayoutDowngradesWithTransposes) {
  ExpectRoundTrip(R"(
    <ir_version: 8, opset_import: ["" : 14]>
    g (float[2,3,4] X, float[1,5,4] W, float[1,5,5] R) => (float[2,3,1,5] Y, float[2,1,5] H) {
      Y, H = RNN<hidden_size = 5, layout = 1>(X, W, R)
    })",
                  13);
}

TEST(RnnAdapters, OutputSequenceAndGru3) {
  ExpectRoundTrip(R"(
    <ir_version: 3, opset_import: ["" : 7]>
    g (float[3,2,4] X, float[1,15,4] W, float[1,15,5] R) => (float[3,1,2,5] Y) {
      Y, H = GRU<hidden_size = 5>(X, W, R)
    })",
                  1);
  ExpectRefusal(R"(
    <ir_version: 3, opset_import: ["" : 7]>
    g (float[3,2,4] X, float[1,15,4] W, float[1,15,5] R) => (float[3,1,2,5] Y) {
      Y, H = GRU<hidden_size = 5, linear_before_reset = 1>(X, W, R)
    })",
                2, "linear_before_reset");
}

}  // namespace
}  // namespace onnx_opt::converter::testing
