#include "passes/testing/standardize_test_util.h"

#include <cmath>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ir/text/parser.h"
#include "passes/testing/pass_test_util.h"
#include "schema/checker/checker.h"

namespace onnx_opt::passes::testing {

using ::testing::IsSupersetOf;

// `n` deterministic values in [-scale, scale] as a text literal list.
std::string Values(int n, double phase, double scale) {
  std::string out;
  for (int i = 0; i < n; ++i)
    absl::StrAppend(&out, i ? "," : "", scale * std::sin(1.7 * i + phase));
  return out;
}
// `n` bytes as a literal list.
std::string Bytes(int n, int seed) {
  std::string out;
  for (int i = 0; i < n; ++i)
    absl::StrAppend(&out, i ? "," : "", (i * 37 + seed * 11 + (i * i) % 7) % 256);
  return out;
}

std::string Header(int opset) {
  return absl::StrCat("<ir_version: 10, opset_import: [\"\" : ", opset,
                      ", \"com.microsoft\" : 1]>\n");
}

namespace {

bool HasContribNode(const std::vector<std::string>& ops) {
  for (const std::string& op : ops) {
    if (op.rfind("com.microsoft::", 0) == 0) return true;
  }
  return false;
}

}  // namespace

// Runs standardize on `text`; expects no contrib node left, the result valid and equal to the
// input.
void ExpectStandardized(const std::string& text, const std::vector<std::string>& expected_ops) {
  auto run = RunPipelineOnText(text, "standardize");
  ASSERT_TRUE(run.ok()) << run.status();
  const std::vector<std::string> ops = OpTypes(run->after->graph());
  EXPECT_FALSE(HasContribNode(ops)) << ::testing::PrintToString(ops);
  EXPECT_THAT(ops, IsSupersetOf(expected_ops));
  const schema::checker::CheckResult check = schema::checker::Check(*run->after);
  EXPECT_TRUE(check.ok()) << check.errors[0];
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
}

// The report of standardize on `text`.
StandardizeReport ReportOf(const std::string& text) {
  auto model = ir::text::ParseModel(text);
  EXPECT_TRUE(model.ok()) << model.status();
  optimizer::PassContext ctx;
  absl::StatusOr<StandardizeReport> report = Standardize(**model, ctx);
  EXPECT_TRUE(report.ok()) << report.status();
  return *report;
}

}  // namespace onnx_opt::passes::testing
