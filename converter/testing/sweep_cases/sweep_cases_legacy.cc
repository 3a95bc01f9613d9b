// Sweep cases for operator versions with required attributes the generated models cannot have:
// the first versions of BatchNormalization, Cast, Pad and Tile, and operators introduced late that
// have no expansion into older opsets (the sweep checks that converting below them is refused).
#include "converter/testing/sweep_cases/sweep_cases.h"

namespace onnx_opt::converter {

REGISTER_SWEEP_CASES(legacy, {
                                 {"BatchNormalization-1", R"(
      <ir_version: 4, opset_import: ["" : 1]>
      g (float[1,2,2,2] x) => (y) <float[2] s = {1.5, 0.5}, float[2] b = {0.1, -0.1}, float[2] m = {0.2, -0.3},
                                    float[2] v = {1.0, 0.5}> {
        y = BatchNormalization<consumed_inputs = [0, 0, 0, 1, 1], is_test = 1, epsilon = 0.001>(x, s, b, m, v)
      })"},
                                 {"Cast-1", R"(
      <ir_version: 4, opset_import: ["" : 1]>
      g (int32[4] x) => (y) { y = Cast<to = "FLOAT">(x) })"},
                                 {"Pad-1", R"(
      <ir_version: 4, opset_import: ["" : 1]>
      g (float[2,3] x) => (y) { y = Pad<paddings = [0, 1, 1, 0], value = 0.5>(x) })"},
                                 {"Tile-1", R"(
      <ir_version: 4, opset_import: ["" : 1]>
      g (float[2,3] x) => (y) <float tiles = {2.0}, float axis = {1.0}> { y = Tile(x, tiles, axis) })"},
                                 {"BitShift-11", R"(
      <ir_version: 6, opset_import: ["" : 11]>
      g (uint8[4] x) => (y) <uint8[4] n = {1, 2, 0, 3}> { y = BitShift<direction = "LEFT">(x, n) })"},
                                 {"BitCast-26", R"(
      <ir_version: 13, opset_import: ["" : 26]>
      g (float[4] x) => (y) { y = BitCast<to = 6>(x) })"},
                                 {"STFT-17", R"(
      <ir_version: 8, opset_import: ["" : 17]>
      g (float[1,8,1] signal) => (y) <int64 step = {2}, int64 len = {4}> { y = STFT(signal, step, , len) })"},
                                 {"MelWeightMatrix-17", R"(
      <ir_version: 8, opset_import: ["" : 17]>
      g (float[3,9] x) => (y) <int64 bins = {4}, int64 dft = {16}, int64 rate = {8000}, float lo = {0.0},
                                float hi = {4000.0}> {
        m = MelWeightMatrix(bins, dft, rate, lo, hi)
        y = MatMul(x, m)
      })"},
                                 {"TfIdfVectorizer-9", R"(
      <ir_version: 4, opset_import: ["" : 9]>
      g (int64[2,4] x) => (y) {
        y = TfIdfVectorizer<mode = "TF", min_gram_length = 1, max_gram_length = 1, max_skip_count = 0,
                            ngram_counts = [0], ngram_indexes = [0, 1, 2], pool_int64s = [0, 1, 2]>(x)
      })"},
                             });

}  // namespace onnx_opt::converter
