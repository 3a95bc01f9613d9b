// Sweep cases for ai.onnx.ml operators with version changes: LabelEncoder (1, 2, 4). The tree
// ensembles (1, 3; deprecated at 5) have no case: the interpreter does not run them yet.
#include "converter/sweep_cases.h"

namespace onnx_opt::converter {

REGISTER_SWEEP_CASES(ml, {
    {"LabelEncoder-ml1", R"(
      <ir_version: 6, opset_import: ["" : 11, "ai.onnx.ml" : 1]>
      g (string[3] x) => (y) { y = ai.onnx.ml.LabelEncoder<classes_strings = ["a", "b", "c"], default_int64 = -1>(x) })"},
    {"LabelEncoder-ml2", R"(
      <ir_version: 6, opset_import: ["" : 11, "ai.onnx.ml" : 2]>
      g (int64[3] x) => (y) {
        y = ai.onnx.ml.LabelEncoder<keys_int64s = [0, 1, 2, 3], values_floats = [0.5, 1.5, 2.5, 3.5], default_float = -1.0>(x)
      })"},
});

}  // namespace onnx_opt::converter
