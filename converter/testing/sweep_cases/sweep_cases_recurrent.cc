// Sweep cases for the recurrent operators at their first versions (the sweep converts them up to
// every later version and back down).
#include "converter/testing/sweep_cases/sweep_cases.h"

namespace onnx_opt::converter {

REGISTER_SWEEP_CASES(recurrent, {
                                    {"RNN-1", R"(
      <ir_version: 4, opset_import: ["" : 1]>
      g (float[2,1,3] x) => (y, h)
      <float[1,2,3] w = {0.1, -0.2, 0.3, 0.4, 0.5, -0.6}, float[1,2,2] r = {0.5, -0.25, 0.75, 0.1}> {
        y, h = RNN<hidden_size = 2>(x, w, r)
      })"},
                                    {"RNN-7-bias", R"(
      <ir_version: 4, opset_import: ["" : 7]>
      g (float[2,1,3] x) => (y, h)
      <float[1,2,3] w = {0.1, -0.2, 0.3, 0.4, 0.5, -0.6}, float[1,2,2] r = {0.5, -0.25, 0.75, 0.1},
       float[1,4] b = {0.1, 0.2, -0.1, 0.05}> {
        y, h = RNN<hidden_size = 2, direction = "reverse">(x, w, r, b)
      })"},
                                    {"GRU-1", R"(
      <ir_version: 4, opset_import: ["" : 1]>
      g (float[2,1,3] x) => (y, h)
      <float[1,6,3] w = {0.1, -0.2, 0.3, 0.4, 0.5, -0.6, 0.2, 0.1, -0.3, 0.3, -0.1, 0.2, 0.05, 0.15, -0.25, 0.35, 0.45, -0.55},
       float[1,6,2] r = {0.5, -0.25, 0.75, 0.1, 0.2, -0.3, 0.4, 0.6, -0.1, 0.3, 0.25, -0.45}> {
        y, h = GRU<hidden_size = 2>(x, w, r)
      })"},
                                    {"GRU-3", R"(
      <ir_version: 4, opset_import: ["" : 3]>
      g (float[2,1,3] x) => (y, h)
      <float[1,6,3] w = {0.1, -0.2, 0.3, 0.4, 0.5, -0.6, 0.2, 0.1, -0.3, 0.3, -0.1, 0.2, 0.05, 0.15, -0.25, 0.35, 0.45, -0.55},
       float[1,6,2] r = {0.5, -0.25, 0.75, 0.1, 0.2, -0.3, 0.4, 0.6, -0.1, 0.3, 0.25, -0.45}> {
        y, h = GRU<hidden_size = 2, linear_before_reset = 1>(x, w, r)
      })"},
                                    {"LSTM-1", R"(
      <ir_version: 4, opset_import: ["" : 1]>
      g (float[2,1,3] x) => (y, h, c)
      <float[1,8,3] w = {0.1, -0.2, 0.3, 0.4, 0.5, -0.6, 0.2, 0.1, -0.3, 0.3, -0.1, 0.2, 0.05, 0.15, -0.25, 0.35,
                         0.45, -0.55, 0.12, -0.22, 0.32, 0.42, -0.52, 0.62},
       float[1,8,2] r = {0.5, -0.25, 0.75, 0.1, 0.2, -0.3, 0.4, 0.6, -0.1, 0.3, 0.25, -0.45, 0.15, 0.35, -0.05, 0.2}> {
        y, h, c = LSTM<hidden_size = 2>(x, w, r)
      })"},
                                });

}  // namespace onnx_opt::converter
