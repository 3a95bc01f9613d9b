// Checks what the onnx_model rule produced in this package: each shrunk model is smaller than its
// source, passes the checker, computes the same outputs (within the tolerance it was built with)
// and came with a report whose figures match the files.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "equivalence/equivalence.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ir/io/model_io.h"
#include "optimizer/model_stats.h"
#include "schema/checker/checker.h"

namespace onnx_opt::examples {
namespace {

using ::testing::HasSubstr;

// Paths from the command line (BUILD.bazel), in this order.
struct Paths {
  std::string transformer, transformer_opset21, transformer_opset21_report;
  std::string cnn, cnn_float16, cnn_float16_report;
  std::string transformer_external, transformer_external_report;
};
Paths paths;

std::string ReadText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

int64_t FileSize(const std::string& path) {
  return static_cast<int64_t>(std::filesystem::file_size(path));
}

std::unique_ptr<ir::Model> Load(const std::string& path) {
  auto model = ir::io::LoadModel(path);
  EXPECT_TRUE(model.ok()) << path << ": " << model.status();
  return model.ok() ? std::move(*model) : nullptr;
}

void ExpectValidAndEquivalent(const ir::Model& original, const ir::Model& shrunk,
                              equivalence::Tolerance tolerance) {
  const auto check = schema::checker::Check(shrunk);
  EXPECT_TRUE(check.ok()) << (check.ok() ? "" : check.errors[0]);
  equivalence::EquivalenceOptions options;
  options.dims["N"] = 2;
  options.tolerances.float32 = tolerance;
  for (uint64_t seed : {1, 7, 42}) {
    options.seed = seed;
    const absl::Status same = equivalence::CheckEquivalent(original, shrunk, options);
    EXPECT_TRUE(same.ok()) << "seed " << seed << ": " << same;
  }
}

int64_t Nodes(const ir::Model& m) { return optimizer::MeasureModel(m).nodes; }

TEST(ShrinkExample, TransformerConvertedToOpset21IsSmallerAndEqual) {
  auto original = Load(paths.transformer);
  auto shrunk = Load(paths.transformer_opset21);
  ASSERT_TRUE(original && shrunk);
  EXPECT_LT(FileSize(paths.transformer_opset21), FileSize(paths.transformer));
  EXPECT_LT(Nodes(*shrunk), Nodes(*original));
  int64_t opset = 0;
  for (const ir::OpsetImport& o : shrunk->opset_imports()) {
    if (o.domain.empty()) opset = o.version;
  }
  EXPECT_EQ(opset, 21);
  EXPECT_TRUE(shrunk->graph().dangling_value_info().empty());
  ExpectValidAndEquivalent(*original, *shrunk, equivalence::Tolerance{});

  const std::string report = ReadText(paths.transformer_opset21_report);
  EXPECT_THAT(
      report,
      HasSubstr("\"pipeline\": \"convert(21),default,strip-doc-strings,strip-value-info\""));
  EXPECT_THAT(report,
              HasSubstr("\"total\": " + std::to_string(FileSize(paths.transformer_opset21)) + "}"));
  EXPECT_THAT(report, HasSubstr("\"LayerNormalization\": 2"));
  EXPECT_THAT(report, HasSubstr("\"verification\": {\"outputs\": 1"));
}

TEST(ShrinkExample, CnnWithFloat16WeightsIsSmallerAndWithinTolerance) {
  auto original = Load(paths.cnn);
  auto shrunk = Load(paths.cnn_float16);
  ASSERT_TRUE(original && shrunk);
  EXPECT_LT(FileSize(paths.cnn_float16), FileSize(paths.cnn));
  int64_t half = 0;
  for (const ir::Value* v : shrunk->graph().initializers()) {
    if (v->initializer()->data_type() == ir::DataType::kFloat16) ++half;
  }
  EXPECT_EQ(half,
            2);  // the two folded conv weights; the Gemm weight is too small to pay for a Cast
  EXPECT_EQ(optimizer::CountOpTypes(*shrunk).at("Cast"), 2);
  ExpectValidAndEquivalent(*original, *shrunk, equivalence::Tolerance{1e-2, 1e-3});

  const std::string report = ReadText(paths.cnn_float16_report);
  EXPECT_THAT(report, HasSubstr("\"pass\": \"float16-weights\", \"runs\": 1, \"rewrites\": 2"));
  EXPECT_THAT(report, HasSubstr("\"rtol\": 0.01, \"atol\": 0.001"));
}

TEST(ShrinkExample, TransformerWithExternalDataKeepsLargeWeightsBeside) {
  auto original = Load(paths.transformer);
  auto shrunk = Load(paths.transformer_external);
  ASSERT_TRUE(original && shrunk);
  const std::string data = paths.transformer_external + ".data";
  ASSERT_TRUE(std::filesystem::exists(data));
  int64_t external = 0;
  for (const ir::Value* v : shrunk->graph().initializers()) {
    const ir::Tensor& t = *v->initializer();
    if (t.storage() == ir::Tensor::Storage::kExternal) {
      ++external;
      EXPECT_GE(t.raw_size(), 1024u) << v->name();
    } else {
      EXPECT_LT(t.raw_size(), 1024u) << v->name();
    }
  }
  EXPECT_GT(external, 0);
  EXPECT_LT(FileSize(paths.transformer_external) + FileSize(data), FileSize(paths.transformer));
  ExpectValidAndEquivalent(*original, *shrunk, equivalence::Tolerance{});
  EXPECT_THAT(ReadText(paths.transformer_external_report),
              HasSubstr("\"external_files\": " + std::to_string(FileSize(data))));
}

}  // namespace
}  // namespace onnx_opt::examples

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (argc != 9) {
    std::cerr << "usage: shrink_test TRANSFORMER OPSET21 OPSET21_REPORT CNN CNN_FLOAT16 "
                 "CNN_FLOAT16_REPORT "
                 "EXTERNAL EXTERNAL_REPORT\n";
    return 2;
  }
  onnx_opt::examples::paths = {argv[1], argv[2], argv[3], argv[4],
                               argv[5], argv[6], argv[7], argv[8]};
  return RUN_ALL_TESTS();
}
