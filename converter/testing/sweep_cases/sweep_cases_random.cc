// Sweep cases for the random generators, with a fixed seed: their adapters only add types, so the
// converted node must draw the very same numbers in the interpreter.
#include "converter/testing/sweep_cases/sweep_cases.h"

namespace onnx_opt::converter {

REGISTER_SWEEP_CASES(random, {
                                 {"RandomNormal-1", R"(
      <ir_version: 4, opset_import: ["" : 1]>
      g (float[2,3] x) => (y) { r = RandomNormal<shape = [2, 3], seed = 7.0>()  y = Add(x, r) })"},
                                 {"RandomUniform-1", R"(
      <ir_version: 4, opset_import: ["" : 1]>
      g (float[2,3] x) => (y) { r = RandomUniform<shape = [2, 3], seed = 7.0, low = -2.0, high = 2.0>()  y = Add(x, r) })"},
                                 {"RandomNormalLike-1", R"(
      <ir_version: 4, opset_import: ["" : 1]>
      g (float[2,3] x) => (y) { r = RandomNormalLike<seed = 7.0>(x)  y = Add(x, r) })"},
                                 {"RandomUniformLike-1", R"(
      <ir_version: 4, opset_import: ["" : 1]>
      g (float[2,3] x) => (y) { r = RandomUniformLike(x)  y = Add(x, r) })"},
                                 {"Bernoulli-15", R"(
      <ir_version: 8, opset_import: ["" : 15]>
      g (float[2,3] x) => (y) <float[2,3] p = {0.1, 0.5, 0.9, 0.3, 0.7, 0.2}> { b = Bernoulli<seed = 7.0>(p)  y = Mul(x, b) })"},
                                 {"Multinomial-7", R"(
      <ir_version: 4, opset_import: ["" : 7]>
      g (float[2,3] x) => (y) { y = Multinomial<seed = 7.0, sample_size = 4>(x) })"},
                             });

}  // namespace onnx_opt::converter
