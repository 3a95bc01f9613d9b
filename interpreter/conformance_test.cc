// Runs every ONNX backend node test under $ONNX_CONFORMANCE_DIR/node on every test data set and
// compares the outputs (testing/conformance.h): value kinds as onnx-run writes them (tensor,
// sequence, map, optional and what it holds); floats |a-b| <= atol + rtol*|b| (rtol 1e-3, atol
// 1e-7), NaN == NaN, complex numbers on both parts of every element; integers, booleans and strings
// exactly; element types and shapes exactly. Every graph output must have its output_K.pb. Known
// failures are listed with a reason in interpreter/known_failures.txt; the test fails when an
// unlisted case fails, when a listed case passes, and when a listed case does not exist.
// ONNX_CONFORMANCE_FILTER=substring runs only matching cases (the list is then not checked for
// cases that did not run).
#include "equivalence/testing/conformance.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "equivalence/testing/conformance_dir.h"
#include "gtest/gtest.h"
#include "interpreter/cpu/isa.h"
#include "ir/io/model_io.h"

namespace onnx_opt::interpreter {
namespace {

namespace fs = std::filesystem;

// Runs one case on every data set; "" on success, else the reason.
std::string RunCase(const fs::path& dir) {
  auto model = ir::io::LoadModel((dir / "model.onnx").string());
  if (!model.ok()) return absl::StrCat("load: ", model.status().message());
  const std::vector<fs::path> sets = conformance::DataSets(dir);
  if (sets.empty()) return "no test data";
  for (const fs::path& set : sets) {
    absl::StatusOr<conformance::DataSet> data = conformance::LoadDataSet(set, (*model)->graph());
    if (!data.ok()) return std::string(data.status().message());
    std::string diff = conformance::RunAndCompare(**model, *data);
    if (!diff.empty()) return absl::StrCat(set.filename().string(), " ", diff);
  }
  return "";
}

TEST(ConformanceTest, NodeTests) {
  ONNX_OPT_CONFORMANCE_DIR_OR_SKIP(root, "the interpreter's conformance test");
  // ONNX_OPT_ISA (set by the *_baseline_isa target) picks the vector kernels; say which ran.
  std::cerr << "vector kernels: " << IsaName(ActiveIsa()) << " (CPU: " << IsaName(DetectedIsa())
            << ")\n";
  const char* filter_env = std::getenv("ONNX_CONFORMANCE_FILTER");
  const std::string filter = filter_env ? filter_env : "";
  const fs::path node_dir = fs::path(root) / "node";
  ASSERT_TRUE(fs::is_directory(node_dir)) << node_dir << " is not a directory";
  absl::StatusOr<conformance::CaseList> known =
      conformance::ReadCaseList("interpreter/known_failures.txt", 1);
  ASSERT_TRUE(known.ok()) << known.status();
  std::vector<fs::path> cases;
  for (const auto& e : fs::directory_iterator(node_dir)) {
    if (e.is_directory()) cases.push_back(e.path());
  }
  std::sort(cases.begin(), cases.end());
  int passed = 0;
  std::set<std::string> ran;
  std::map<std::string, std::string> failures;
  std::ofstream report;
  if (const char* out = std::getenv("TEST_UNDECLARED_OUTPUTS_DIR")) {
    report.open(fs::path(out) / "conformance_failures.txt");
  }
  for (const fs::path& c : cases) {
    const std::string name = c.filename().string();
    if (!filter.empty() && name.find(filter) == std::string::npos) continue;
    ran.insert(name);
    const std::string reason = RunCase(c);
    if (reason.empty()) {
      ++passed;
    } else {
      std::string one = reason.substr(0, 300);
      std::replace(one.begin(), one.end(), '\n', ' ');
      std::cout << "FAIL " << name << ": " << one << "\n";
      if (report.is_open()) report << name << "  " << one << "\n";
      failures[name] = reason;
    }
  }
  std::cout << passed << " passed, " << failures.size() << " failed\n";
  const std::vector<std::string> problems =
      conformance::CheckCaseList(*known, failures, ran, filter.empty());
  for (const std::string& p : problems) ADD_FAILURE() << p;
  if (!problems.empty()) {
    std::cout << "the list as this run has it: " << conformance::WriteObservedList(*known, failures)
              << "\n";
  }
}

}  // namespace
}  // namespace onnx_opt::interpreter
