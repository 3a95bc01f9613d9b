#include "tools/lib/size_report.h"

#include <filesystem>
#include <fstream>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ir/io/model_io.h"
#include "ir/text/parser.h"
#include "optimizer/model_stats.h"

namespace onnx_opt::tools {
namespace {

using ::testing::HasSubstr;

// A 2x64 float weight (512 bytes) as an initializer and an 8-byte Constant.
std::unique_ptr<ir::Model> Parse() {
  std::string weight;
  for (int i = 0; i < 128; ++i) weight += (i ? ", " : "") + std::string("0.5");
  const std::string text = R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[2, 64] x) => (float[2, 64] y) <float[2, 64] w = {)" +
                           weight + R"(}> {
  c = Constant <value = float[2] {1.0, 2.0}> ()
  w2 = Mul (w, w)
  t = Add (x, w2)
  y = Identity (t)
}
)";
  auto model = ir::text::ParseModel(text);
  EXPECT_TRUE(model.ok()) << model.status();
  return std::move(*model);
}

TEST(SizeReport, CountsInlineAndExternalTensorData) {
  std::unique_ptr<ir::Model> model = Parse();
  const std::filesystem::path dir = std::filesystem::path(testing::TempDir()) / "size_report";
  std::filesystem::create_directories(dir);

  const std::string inline_path = (dir / "inline.onnx").string();
  ASSERT_TRUE(ir::io::SaveModel(*model, inline_path).ok());
  auto loaded = ir::io::LoadModel(inline_path);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  auto bytes = MeasureModelBytes(**loaded, std::filesystem::file_size(inline_path), dir.string());
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  EXPECT_EQ(bytes->tensor_data, 512 + 8);  // the weight and the Constant's value
  EXPECT_EQ(bytes->inline_tensor_data, 512 + 8);
  EXPECT_EQ(bytes->external_files, 0);
  EXPECT_GT(bytes->graph(), 0);
  EXPECT_EQ(bytes->total(), bytes->file);

  ir::io::SaveOptions options;
  options.external_data_threshold = 256;
  const std::string external_path = (dir / "external.onnx").string();
  ASSERT_TRUE(ir::io::SaveModel(*model, external_path, options).ok());
  ir::io::LoadOptions load_options;
  load_options.external_data_dir = dir.string();
  auto external = ir::io::LoadModel(external_path, load_options);
  ASSERT_TRUE(external.ok()) << external.status();
  auto ext_bytes =
      MeasureModelBytes(**external, std::filesystem::file_size(external_path), dir.string());
  ASSERT_TRUE(ext_bytes.ok()) << ext_bytes.status();
  EXPECT_EQ(ext_bytes->tensor_data, 512 + 8);
  EXPECT_EQ(ext_bytes->inline_tensor_data, 8);
  EXPECT_GE(ext_bytes->external_files, 512);
  EXPECT_EQ(ext_bytes->total(), ext_bytes->file + ext_bytes->external_files);
  // The graph structure weighs about the same either way (the external reference adds a little).
  EXPECT_NEAR(static_cast<double>(ext_bytes->graph()), static_cast<double>(bytes->graph()), 64);

  auto missing = MeasureModelBytes(**external, 1, (dir / "elsewhere").string());
  EXPECT_FALSE(missing.ok());
}

TEST(SizeReport, ContributionsSumRunsOfAPass) {
  optimizer::PipelineResult result;
  optimizer::PassRun a{"fold-constants", 0.5, 2, true, {10, 100}, {8, 60}};
  optimizer::PassRun b{"dead-nodes", 0.1, 1, true, {8, 60}, {7, 60}};
  optimizer::PassRun c{"fold-constants", 0.25, 1, true, {7, 60}, {6, 40}};
  result.runs = {a, b, c};
  std::vector<PassContribution> out = ContributionsOf(result);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].pass, "fold-constants");
  EXPECT_EQ(out[0].runs, 2);
  EXPECT_EQ(out[0].rewrites, 3);
  EXPECT_EQ(out[0].nodes, -3);
  EXPECT_EQ(out[0].initializer_bytes, -60);
  EXPECT_DOUBLE_EQ(out[0].seconds, 0.75);
  EXPECT_EQ(out[1].pass, "dead-nodes");
  EXPECT_EQ(out[1].nodes, -1);
}

TEST(SizeReport, VerificationTakesTheWorstOutput) {
  std::vector<equivalence::OutputDifference> diffs = {{"y", true, "", 1e-3, 2e-4},
                                                      {"z", true, "", 5e-4, 7e-3}};
  equivalence::EquivalenceOptions options;
  options.tolerances.float32 = {1e-2, 1e-3};
  VerificationSummary s = SummarizeVerification(diffs, std::nullopt, options);
  EXPECT_EQ(s.outputs, 2);
  EXPECT_DOUBLE_EQ(s.max_abs_error, 1e-3);
  EXPECT_DOUBLE_EQ(s.max_rel_error, 7e-3);
  EXPECT_DOUBLE_EQ(s.float32_tolerance.rtol, 1e-2);
}

ShrinkReport SampleReport() {
  ShrinkReport r;
  r.input = "in \"quoted\".onnx";
  r.output = "out.onnx";
  r.pipeline = "default";
  r.before = {1000, 0, 600, 600};
  r.after = {300, 400, 400, 0};
  r.ops_before = {{"Add", 2}, {"Mul", 1}};
  r.ops_after = {{"Add", 1}};
  r.passes = {{"fold-constants", 1, 1, -1, -200, 0.01}, {"cse", 1, 0, 0, 0, 0.0}};
  r.verification = VerificationSummary{1, 1e-3, 2e-3, {1e-2, 1e-3}};
  return r;
}

TEST(SizeReport, TableShowsBytesOpsPassesAndError) {
  const std::string table = FormatReportTable(SampleReport());
  EXPECT_THAT(table, HasSubstr("graph"));
  EXPECT_THAT(table, HasSubstr("1,000"));  // total before
  EXPECT_THAT(table, HasSubstr("700"));    // total after: 300 + 400
  EXPECT_THAT(table, HasSubstr("-30.0%"));
  EXPECT_THAT(table, HasSubstr("Mul"));
  EXPECT_THAT(table, HasSubstr("fold-constants"));
  EXPECT_THAT(table, ::testing::Not(HasSubstr("cse")));  // changed nothing
  EXPECT_THAT(table, HasSubstr("max abs error 0.001"));
}

TEST(SizeReport, JsonIsEscapedAndComplete) {
  const std::string json = FormatReportJson(SampleReport());
  EXPECT_THAT(json, HasSubstr(R"("input": "in \"quoted\".onnx")"));
  EXPECT_THAT(
      json,
      HasSubstr(
          R"("after": {"file": 300, "graph": 300, "inline_tensor_data": 0, "tensor_data": 400, "external_files": 400, "total": 700})"));
  EXPECT_THAT(json, HasSubstr(R"("before": {"total": 3, "by_op": {"Add": 2, "Mul": 1}})"));
  EXPECT_THAT(
      json,
      HasSubstr(
          R"({"pass": "fold-constants", "runs": 1, "rewrites": 1, "nodes": -1, "initializer_bytes": -200, "seconds": 0.01})"));
  EXPECT_THAT(json, HasSubstr(R"("max_abs_error": 0.001)"));
  ShrinkReport unverified = SampleReport();
  unverified.verification.reset();
  EXPECT_THAT(FormatReportJson(unverified), HasSubstr(R"("verification": null)"));
}

}  // namespace
}  // namespace onnx_opt::tools
