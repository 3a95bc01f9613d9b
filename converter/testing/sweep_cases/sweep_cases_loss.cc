// Sweep cases for the loss operators: the target must have the input's shape without its class axis
// and hold class indices, which a generated model (every input the same shape) cannot give.
#include "converter/testing/sweep_cases/sweep_cases.h"

namespace onnx_opt::converter {

REGISTER_SWEEP_CASES(loss, {
                               {"NegativeLogLikelihoodLoss-13", R"(
      <ir_version: 8, opset_import: ["" : 13]>
      g (float[2,4,3] x, float[4] w) => (y) <int64[2,3] t = {0, 3, 1, 2, 2, 0}> {
        y = NegativeLogLikelihoodLoss<reduction = "mean", ignore_index = 2>(x, t, w)
      })"},
                               {"NegativeLogLikelihoodLoss-12-none", R"(
      <ir_version: 8, opset_import: ["" : 12]>
      g (float[2,4] x) => (y) <int64[2] t = {3, 1}> {
        y = NegativeLogLikelihoodLoss<reduction = "none">(x, t)
      })"},
                               {"SoftmaxCrossEntropyLoss-13", R"(
      <ir_version: 8, opset_import: ["" : 13]>
      g (float[2,4,3] x) => (y, log_prob) <int64[2,3] t = {0, 3, 1, 2, 2, 0}> {
        y, log_prob = SoftmaxCrossEntropyLoss<reduction = "sum">(x, t)
      })"},
                               {"SoftmaxCrossEntropyLoss-12-weights", R"(
      <ir_version: 8, opset_import: ["" : 12]>
      g (float[3,4] x, float[4] w) => (y) <int64[3] t = {1, 0, 3}> {
        y = SoftmaxCrossEntropyLoss<reduction = "mean">(x, t, w)
      })"},
                           });

}  // namespace onnx_opt::converter
