// The default pipeline over every ONNX conformance model: each result must pass the checker and,
// run by the interpreter on the test's inputs, still match the test's expected outputs. Cases the
// interpreter cannot run correctly before optimization are checked for validity only, and each of
// them must be one the interpreter's conformance test lists as a known failure
// (interpreter/known_failures.txt): the bucket of models this test cannot prove is bounded by that
// list, not open. Prints how many models got smaller.
#include <filesystem>
#include <iostream>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "equivalence/testing/conformance.h"
#include "equivalence/testing/conformance_dir.h"
#include "gtest/gtest.h"
#include "ir/io/model_io.h"
#include "optimizer/model_stats.h"
#include "optimizer/pass_manager.h"
#include "schema/checker/checker.h"

namespace onnx_opt::passes {
namespace {

namespace fs = std::filesystem;

TEST(ConformancePipelineTest, DefaultPipelineKeepsEveryModelValidAndEqual) {
  ONNX_OPT_CONFORMANCE_DIR_OR_SKIP(dir, "the conformance pipeline test");
  absl::StatusOr<conformance::CaseList> known =
      conformance::ReadCaseList("interpreter/known_failures.txt", 1);
  ASSERT_TRUE(known.ok()) << known.status();
  std::vector<fs::path> cases;
  for (const auto& entry : fs::directory_iterator(fs::path(dir) / "node"))
    cases.push_back(entry.path());
  std::sort(cases.begin(), cases.end());

  int total = 0, verified = 0, smaller = 0, failures = 0;
  std::vector<std::string> unrunnable, unlisted;
  int64_t nodes_before = 0, nodes_after = 0;
  for (const fs::path& c : cases) {
    const std::string name = c.filename().string();
    ++total;
    auto model = ir::io::LoadModel((c / "model.onnx").string());
    ASSERT_TRUE(model.ok()) << name << ": " << model.status();
    absl::StatusOr<conformance::DataSet> data =
        conformance::LoadDataSet(c / "test_data_set_0", (*model)->graph());
    ASSERT_TRUE(data.ok()) << name << ": " << data.status();

    const bool runnable = conformance::RunAndCompare(**model, *data).empty();
    if (!runnable) {
      unrunnable.push_back(name);
      if (!known->reasons.contains(name)) unlisted.push_back(name);
    }

    const int64_t n0 = optimizer::MeasureModel(**model).nodes;
    optimizer::PassManager manager;
    auto result = manager.Run(**model, "default");
    if (!result.ok()) {
      ADD_FAILURE() << name << ": pipeline failed: " << result.status();
      ++failures;
      continue;
    }
    const int64_t n1 = optimizer::MeasureModel(**model).nodes;
    nodes_before += n0;
    nodes_after += n1;
    smaller += n1 < n0;
    const auto check = schema::checker::Check(**model);
    if (!check.ok()) {
      ADD_FAILURE() << name << ": result fails the checker: " << check.errors[0];
      ++failures;
      continue;
    }
    if (!runnable) continue;
    if (const std::string diff = conformance::RunAndCompare(**model, *data); !diff.empty()) {
      ADD_FAILURE() << name << ": outputs changed after the default pipeline: " << diff;
      ++failures;
      continue;
    }
    ++verified;
  }
  std::cout << "conformance pipeline: " << total << " models, " << verified
            << " verified equal to the expected outputs after the default pipeline, "
            << unrunnable.size() << " not runnable by the interpreter (checked for validity only: "
            << absl::StrJoin(unrunnable, ", ") << "), " << failures << " failures; " << smaller
            << " models got smaller (nodes " << nodes_before << " -> " << nodes_after << ")\n";
  EXPECT_EQ(failures, 0);
  EXPECT_TRUE(unlisted.empty()) << "models the interpreter does not run correctly although "
                                << known->path
                                << " does not list them: " << absl::StrJoin(unlisted, ", ");
}

}  // namespace
}  // namespace onnx_opt::passes
