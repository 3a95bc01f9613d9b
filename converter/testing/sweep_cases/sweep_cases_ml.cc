// Sweep cases for ai.onnx.ml operators with version changes: LabelEncoder (1, 2, 4), the tree
// ensembles (1, 3; deprecated at 5, replaced by TreeEnsemble).
#include "converter/testing/sweep_cases/sweep_cases.h"

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
                             {"TreeEnsembleRegressor-ml1", R"(
      <ir_version: 6, opset_import: ["" : 11, "ai.onnx.ml" : 1]>
      g (float[4,2] x) => (y) {
        y = ai.onnx.ml.TreeEnsembleRegressor<n_targets = 2, nodes_modes = ["BRANCH_LEQ", "LEAF", "BRANCH_GT", "LEAF", "LEAF"],
            nodes_nodeids = [0, 1, 2, 3, 4], nodes_treeids = [0, 0, 0, 0, 0], nodes_featureids = [0, 0, 1, 0, 0],
            nodes_values = [0.0, 0.0, 0.25, 0.0, 0.0], nodes_truenodeids = [1, 0, 3, 0, 0],
            nodes_falsenodeids = [2, 0, 4, 0, 0], target_ids = [0, 1, 0, 1], target_nodeids = [1, 1, 3, 4],
            target_treeids = [0, 0, 0, 0], target_weights = [-1.0, 0.5, 2.0, 3.0], base_values = [0.1, 0.2],
            aggregate_function = "SUM">(x)
      })"},
                             {"TreeEnsembleClassifier-ml1", R"(
      <ir_version: 6, opset_import: ["" : 11, "ai.onnx.ml" : 1]>
      g (float[4,2] x) => (label, scores) {
        label, scores = ai.onnx.ml.TreeEnsembleClassifier<classlabels_int64s = [0, 1, 2],
            nodes_modes = ["BRANCH_LEQ", "LEAF", "LEAF"], nodes_nodeids = [0, 1, 2], nodes_treeids = [0, 0, 0],
            nodes_featureids = [1, 0, 0], nodes_values = [0.25, 0.0, 0.0], nodes_truenodeids = [1, 0, 0],
            nodes_falsenodeids = [2, 0, 0], class_ids = [0, 1, 2], class_nodeids = [1, 1, 2], class_treeids = [0, 0, 0],
            class_weights = [1.0, 0.5, 2.0], post_transform = "SOFTMAX">(x)
      })"},
                             {"TreeEnsemble-ml5", R"(
      <ir_version: 10, opset_import: ["" : 21, "ai.onnx.ml" : 5]>
      g (float[4,2] x) => (y) {
        y = ai.onnx.ml.TreeEnsemble<n_targets = 2, aggregate_function = 1, tree_roots = [0],
            nodes_featureids = [0, 1], nodes_modes = uint8[2] {0, 3}, nodes_splits = float[2] {0.0, 0.25},
            nodes_truenodeids = [0, 1], nodes_trueleafs = [1, 1], nodes_falsenodeids = [1, 2], nodes_falseleafs = [0, 1],
            leaf_targetids = [0, 1, 0], leaf_weights = float[3] {-1.0, 2.0, 3.0}>(x)
      })"},
                         });

}  // namespace onnx_opt::converter
