// The default pipeline on the models in testdata/models reaches the expected node counts and keeps
// the outputs (checked by the interpreter on seeded random inputs).
#include "equivalence/equivalence.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ir/io/model_io.h"
#include "optimizer/model_stats.h"
#include "optimizer/pass_manager.h"
#include "schema/checker/checker.h"

namespace onnx_opt::passes {
namespace {

struct Expectation {
  const char* file;
  int64_t nodes_before;
  int64_t nodes_after;
  std::map<std::string, int64_t> ops_after;
};

class TestdataModelsTest : public ::testing::TestWithParam<Expectation> {};

TEST_P(TestdataModelsTest, DefaultPipelineReachesExpectedCounts) {
  const Expectation& e = GetParam();
  const std::string path = std::string("testdata/models/") + e.file;
  auto original = ir::io::LoadModel(path);
  auto model = ir::io::LoadModel(path);
  ASSERT_TRUE(original.ok() && model.ok()) << path;
  EXPECT_EQ(optimizer::MeasureModel(**model).nodes, e.nodes_before);
  optimizer::PassManager manager;
  auto result = manager.Run(**model, "default");
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(optimizer::MeasureModel(**model).nodes, e.nodes_after);
  EXPECT_EQ(optimizer::CountOpTypes(**model), e.ops_after);
  const auto check = schema::checker::Check(**model);
  EXPECT_TRUE(check.ok()) << (check.ok() ? "" : check.errors[0]);
  equivalence::EquivalenceOptions options;
  options.dims["N"] = 2;
  const absl::Status same = equivalence::CheckEquivalent(**original, **model, options);
  EXPECT_TRUE(same.ok()) << same;
}

INSTANTIATE_TEST_SUITE_P(
    Models, TestdataModelsTest,
    ::testing::Values(
        // Both BatchNormalizations fold into their Convs.
        Expectation{"tiny_cnn.onnx",
                    11,
                    9,
                    {{"Add", 1},
                     {"Conv", 2},
                     {"Flatten", 1},
                     {"Gemm", 1},
                     {"GlobalAveragePool", 1},
                     {"Relu", 2},
                     {"Softmax", 1}}},
        // Shape arithmetic folds (7 nodes), two LayerNorms (9 -> 1 each) and one Gelu (5 -> 1).
        Expectation{"transformer_block.onnx",
                    56,
                    29,
                    {{"Add", 8},
                     {"Gelu", 1},
                     {"LayerNormalization", 2},
                     {"MatMul", 8},
                     {"Reshape", 4},
                     {"Softmax", 1},
                     {"Div", 1},
                     {"Transpose", 4}}}),
    [](const ::testing::TestParamInfo<Expectation>& info) {
      std::string name = info.param.file;
      return name.substr(0, name.find('.'));
    });

}  // namespace
}  // namespace onnx_opt::passes
