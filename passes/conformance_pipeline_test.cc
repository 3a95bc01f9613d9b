// The default pipeline over every ONNX conformance model: each result must pass the checker and, run
// by the interpreter on the test's inputs, still match the test's expected outputs. Cases the
// interpreter cannot run correctly before optimization are counted and skipped (they are listed in
// interpreter/known_failures.txt). Prints how many models got smaller.
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "interpreter/data_value.h"
#include "ir/io/model_io.h"
#include "ir/status_macros.h"
#include "verify/equivalence.h"
#include "optimizer/model_stats.h"
#include "optimizer/pass_manager.h"
#include "schema/checker/checker.h"

namespace onnx_opt::passes {
namespace {

namespace fs = std::filesystem;
using interpreter::RuntimeValue;

absl::StatusOr<std::vector<RuntimeValue>> LoadValues(const fs::path& dir, const std::string& prefix,
                                                     const std::vector<ir::Value*>& values) {
  std::vector<RuntimeValue> out;
  for (size_t i = 0; i < values.size(); ++i) {
    const fs::path file = dir / absl::StrCat(prefix, "_", i, ".pb");
    if (!fs::exists(file)) break;
    ASSIGN_OR_RETURN(ir::io::DataValue data,
                     ir::io::LoadDataValueFile(file.string(), ir::io::DataValueKindOf(values[i]->type())));
    ASSIGN_OR_RETURN(RuntimeValue v, interpreter::FromDataValue(data));
    out.push_back(std::move(v));
  }
  return out;
}

// The tolerances ONNX's backend tests use.
verify::EquivalenceOptions ConformanceTolerance() {
  verify::EquivalenceOptions options;
  options.float32 = {1e-3, 1e-7};
  options.float64 = {1e-3, 1e-7};
  options.float16 = {1e-3, 1e-7};
  return options;
}

bool Matches(const ir::Model& model, const std::vector<RuntimeValue>& outputs,
             const std::vector<RuntimeValue>& expected) {
  std::vector<std::string> names;
  for (const ir::Value* v : model.graph().outputs()) names.push_back(v->name());
  for (const auto& d : verify::CompareOutputs(names, expected, outputs, ConformanceTolerance())) {
    if (!d.equal) return false;
  }
  return true;
}

TEST(ConformancePipelineTest, DefaultPipelineKeepsEveryModelValidAndEqual) {
  const char* dir = std::getenv("ONNX_CONFORMANCE_DIR");
  if (dir == nullptr || *dir == '\0') {
    std::cerr << "\n*** ONNX_CONFORMANCE_DIR is not set: the conformance pipeline test is SKIPPED ***\n\n";
    GTEST_SKIP() << "ONNX_CONFORMANCE_DIR not set";
  }
  std::vector<fs::path> cases;
  for (const auto& entry : fs::directory_iterator(fs::path(dir) / "node")) cases.push_back(entry.path());
  std::sort(cases.begin(), cases.end());

  int total = 0, verified = 0, unrunnable = 0, smaller = 0, failures = 0;
  int64_t nodes_before = 0, nodes_after = 0;
  for (const fs::path& c : cases) {
    const std::string name = c.filename().string();
    ++total;
    auto model = ir::io::LoadModel((c / "model.onnx").string());
    ASSERT_TRUE(model.ok()) << name << ": " << model.status();
    const fs::path data = c / "test_data_set_0";
    auto inputs = LoadValues(data, "input", (*model)->graph().inputs());
    auto expected = LoadValues(data, "output", (*model)->graph().outputs());
    ASSERT_TRUE(inputs.ok() && expected.ok()) << name;

    auto before = verify::RunModel(**model, *inputs);
    const bool runnable = before.ok() && Matches(**model, *before, *expected);
    if (!runnable) ++unrunnable;

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
    auto after = verify::RunModel(**model, *inputs);
    if (!after.ok() || !Matches(**model, *after, *expected)) {
      ADD_FAILURE() << name << ": outputs changed after the default pipeline"
                    << (after.ok() ? "" : absl::StrCat(": ", after.status().message()));
      ++failures;
      continue;
    }
    ++verified;
  }
  std::cout << "conformance pipeline: " << total << " models, " << verified
            << " verified equal to the expected outputs after the default pipeline, " << unrunnable
            << " not runnable by the interpreter (checked for validity only), " << failures << " failures; "
            << smaller << " models got smaller (nodes " << nodes_before << " -> " << nodes_after << ")\n";
  EXPECT_EQ(failures, 0);
}

}  // namespace
}  // namespace onnx_opt::passes
