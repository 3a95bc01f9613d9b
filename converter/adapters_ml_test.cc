#include "converter/convert.h"
#include "converter/testing/test_util.h"
#include "gtest/gtest.h"

namespace onnx_opt::converter::testing {
namespace {

absl::StatusOr<std::unique_ptr<ir::Model>> ConvertMl(const ir::Model& m, int64_t ml) {
  ConvertOptions o;
  o.ml_opset = ml;
  o.infer_types = false;
  return ConvertModel(m, o);
}

TEST(MlAdapters, LabelEncoderClassesBecomeKeysAndValues) {
  auto m = ParseText(R"(
    <ir_version: 6, opset_import: ["" : 11, "ai.onnx.ml" : 1]>
    g (string[3] X) => (int64[3] Y) { Y = ai.onnx.ml.LabelEncoder<classes_strings = ["a", "b"], default_int64 = -1>(X) })");
  ASSERT_NE(m, nullptr);
  auto up = ConvertMl(*m, 2);
  ASSERT_TRUE(up.ok()) << up.status();
  auto want = ParseText(R"(
    <ir_version: 6, opset_import: ["" : 11, "ai.onnx.ml" : 2]>
    g (string[3] X) => (int64[3] Y) {
      Y = ai.onnx.ml.LabelEncoder<default_int64 = -1, keys_strings = ["a", "b"], values_int64s = [0, 1]>(X)
    })");
  EXPECT_EQ(Print(**up), Print(*want));
  auto down = ConvertMl(**up, 1);
  ASSERT_TRUE(down.ok()) << down.status();
  const ir::Node* n = (*down)->graph().first_node();
  ASSERT_NE(n->FindAttribute("classes_strings"), nullptr);
  EXPECT_EQ(n->FindAttribute("classes_strings")->strings, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(n->GetInt("default_int64", 0), -1);
  EXPECT_EQ(n->attributes().size(), 2u);
}

TEST(MlAdapters, TreeEnsembleDeprecationIsRefused) {
  auto m = ParseText(R"(
    <ir_version: 8, opset_import: ["" : 15, "ai.onnx.ml" : 3]>
    g (float[1,2] X) => (float[1,1] Y) {
      Y = ai.onnx.ml.TreeEnsembleRegressor<n_targets = 1, nodes_modes = ["LEAF"], nodes_nodeids = [0],
          nodes_treeids = [0], nodes_featureids = [0], nodes_values = [0.0], nodes_truenodeids = [0],
          nodes_falsenodeids = [0], target_ids = [0], target_nodeids = [0], target_treeids = [0],
          target_weights = [1.0]>(X)
    })");
  ASSERT_NE(m, nullptr);
  auto up = ConvertMl(*m, 5);
  ASSERT_FALSE(up.ok());
  EXPECT_NE(up.status().message().find("deprecated"), std::string::npos) << up.status();
}

}  // namespace
}  // namespace onnx_opt::converter::testing
