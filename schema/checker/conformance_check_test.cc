// Every ONNX conformance model ($ONNX_CONFORMANCE_DIR/node/*/model.onnx) loads and passes the
// checker. Skipped, loudly, when ONNX_CONFORMANCE_DIR is not set.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "equivalence/testing/conformance_dir.h"
#include "gtest/gtest.h"
#include "ir/io/model_io.h"
#include "schema/checker/checker.h"

namespace onnx_opt::schema::checker {
namespace {

namespace fs = std::filesystem;

TEST(ConformanceCheck, EveryModelPassesTheChecker) {
  ONNX_OPT_CONFORMANCE_DIR_OR_SKIP(root, "the checker run over the ONNX conformance models");
  const fs::path node_dir = fs::path(root) / "node";
  ASSERT_TRUE(fs::is_directory(node_dir)) << node_dir << " is not a directory";
  std::vector<fs::path> models;
  for (const auto& e : fs::directory_iterator(node_dir)) {
    if (fs::exists(e.path() / "model.onnx")) models.push_back(e.path() / "model.onnx");
  }
  std::sort(models.begin(), models.end());

  size_t passed = 0, load_failures = 0, check_failures = 0, with_warnings = 0;
  std::vector<std::string> failures;
  for (const fs::path& path : models) {
    const std::string test = path.parent_path().filename().string();
    auto model = ir::io::LoadModel(path.string());
    if (!model.ok()) {
      ++load_failures;
      failures.push_back(absl::StrCat(test, ": load failed: ", model.status().message()));
      continue;
    }
    CheckResult result = Check(**model);
    if (!result.warnings.empty()) ++with_warnings;
    if (!result.ok()) {
      ++check_failures;
      failures.push_back(absl::StrCat(
          test, ": ", result.errors.front(),
          result.errors.size() > 1 ? absl::StrCat(" (+", result.errors.size() - 1, " more)") : ""));
      continue;
    }
    ++passed;
  }
  std::cout << "conformance models: " << models.size() << ", passed the checker: " << passed
            << ", load failures: " << load_failures << ", check failures: " << check_failures
            << ", with warnings: " << with_warnings << "\n";
  for (const std::string& f : failures) std::cout << "  FAIL " << f << "\n";
  EXPECT_EQ(models.size(), 1831u);
  EXPECT_EQ(passed, models.size()) << failures.size() << " models failed (listed above)";
}

}  // namespace
}  // namespace onnx_opt::schema::checker
