// Converts every ONNX backend node test model ($ONNX_CONFORMANCE_DIR/node/*/model.onnx) up to
// opset 28, to opset 21 (up or down), and down to the lowest opset that can express it. Each result
// must pass the structural verifier and the checker (when the original does) and, run by the
// interpreter on the test's inputs, match the test's expected outputs (when the interpreter
// computes them for the original). Prints counts per direction and the reason of every refusal.
// ONNX_CONFORMANCE_FILTER=substring runs only matching cases.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "converter/convert.h"
#include "gtest/gtest.h"
#include "interpreter/data_value.h"
#include "interpreter/evaluator.h"
#include "ir/io/model_io.h"
#include "ir/verifier.h"
#include "optimizer/equivalence.h"
#include "schema/checker/checker.h"

namespace onnx_opt::converter {
namespace {

namespace fs = std::filesystem;
using interpreter::RuntimeValue;

struct TestData {
  std::vector<RuntimeValue> inputs;
  std::vector<RuntimeValue> outputs;
  std::vector<std::string> names;
};

absl::StatusOr<TestData> LoadData(const fs::path& dir, const ir::Model& model) {
  const ir::Graph& g = model.graph();
  const fs::path set = dir / "test_data_set_0";
  if (!fs::is_directory(set)) return absl::NotFoundError("no test_data_set_0");
  TestData d;
  for (size_t i = 0;; ++i) {
    const fs::path p = set / absl::StrCat("input_", i, ".pb");
    if (!fs::exists(p)) break;
    if (i >= g.inputs().size()) return absl::InvalidArgumentError("more input files than graph inputs");
    auto dv = ir::io::LoadDataValueFile(p.string(), ir::io::DataValueKindOf(g.inputs()[i]->type()));
    if (!dv.ok()) return dv.status();
    auto rv = interpreter::FromDataValue(*dv);
    if (!rv.ok()) return rv.status();
    d.inputs.push_back(std::move(*rv));
  }
  for (size_t i = 0; i < g.outputs().size(); ++i) {
    const fs::path p = set / absl::StrCat("output_", i, ".pb");
    if (!fs::exists(p)) return absl::NotFoundError(absl::StrCat("no output_", i, ".pb"));
    auto dv = ir::io::LoadDataValueFile(p.string(), ir::io::DataValueKindOf(g.outputs()[i]->type()));
    if (!dv.ok()) return dv.status();
    auto rv = interpreter::FromDataValue(*dv);
    if (!rv.ok()) return rv.status();
    d.outputs.push_back(std::move(*rv));
    d.names.push_back(g.outputs()[i]->name());
  }
  return d;
}

optimizer::EquivalenceOptions Tolerances() {
  optimizer::EquivalenceOptions o;
  o.float32 = {1e-3, 1e-5};
  o.float64 = {1e-6, 1e-9};
  o.float16 = {2e-2, 2e-3};
  return o;
}

// "" when `model` computes the expected outputs, else why not.
std::string CheckNumerics(const ir::Model& model, const TestData& data) {
  absl::StatusOr<std::vector<RuntimeValue>> got = optimizer::RunModel(model, data.inputs);
  if (!got.ok()) return absl::StrCat("does not run: ", got.status().message());
  if (got->size() != data.outputs.size()) return "wrong number of outputs";
  for (const optimizer::OutputDifference& d : optimizer::CompareOutputs(data.names, data.outputs, *got, Tolerances())) {
    if (!d.equal) return absl::StrCat("output '", d.output, "': ", d.detail);
  }
  return "";
}

// (test name, direction key) -> reason, from conformance_known_issues.txt.
std::map<std::pair<std::string, std::string>, std::string> ReadKnownIssues() {
  std::map<std::pair<std::string, std::string>, std::string> out;
  std::ifstream in("converter/conformance_known_issues.txt");
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ss(line);
    std::string name, dir, reason;
    ss >> name >> dir;
    std::getline(ss, reason);
    out[{name, dir}] = reason;
  }
  return out;
}

struct Direction {
  std::string key;
  std::string name;
  int converted = 0;       // converted, verified, checked
  int numerics_ok = 0;     // of those, outputs matched
  int numerics_skipped = 0;
  int refused = 0;
  int unchanged = 0;       // already at the target
  std::map<std::string, int> reasons;
  std::map<int64_t, int> lowest;  // for the "lowest" direction: opset reached -> count
};

// A short class of a refusal message, for the summary.
std::string ReasonClass(const std::string& msg) {
  for (const char* key : {"no adapter is registered", "has no expansion into older operators",
                          "must be a compile-time constant", "does not allow", "rank is unknown",
                          "is unknown", "must be known", "has no equivalent", "cannot express",
                          "not defined at", "binds both"}) {
    if (msg.find(key) != std::string::npos) return key;
  }
  return "other";
}

TEST(ConverterConformance, NodeModels) {
  const char* root = std::getenv("ONNX_CONFORMANCE_DIR");
  if (root == nullptr || *root == '\0') {
    std::cerr << "\n*** ONNX_CONFORMANCE_DIR is not set: the converter's conformance test is SKIPPED ***\n\n";
    GTEST_SKIP() << "ONNX_CONFORMANCE_DIR is not set";
  }
  const char* filter_env = std::getenv("ONNX_CONFORMANCE_FILTER");
  const std::string filter = filter_env != nullptr ? filter_env : "";
  const fs::path node_dir = fs::path(root) / "node";
  ASSERT_TRUE(fs::is_directory(node_dir)) << node_dir;
  std::vector<fs::path> cases;
  for (const auto& e : fs::directory_iterator(node_dir)) {
    if (e.is_directory()) cases.push_back(e.path());
  }
  std::sort(cases.begin(), cases.end());

  std::ofstream report;
  if (const char* out = std::getenv("TEST_UNDECLARED_OUTPUTS_DIR")) {
    report.open(fs::path(out) / "converter_conformance.txt");
  }
  auto log = [&](const std::string& line) {
    std::cout << line << "\n";
    if (report.is_open()) report << line << "\n";
  };

  Direction up{"up", "up to 28"}, to21{"to21", "to 21"}, lowest{"lowest", "down to the lowest"};
  const auto known = ReadKnownIssues();
  int known_hits = 0;
  int models = 0, no_onnx = 0, unsupported_by_interpreter = 0, original_fails_checker = 0;
  std::vector<std::string> failures;
  for (const fs::path& c : cases) {
    const std::string name = c.filename().string();
    if (!filter.empty() && name.find(filter) == std::string::npos) continue;
    auto model = ir::io::LoadModel((c / "model.onnx").string());
    if (!model.ok()) {
      failures.push_back(absl::StrCat(name, ": cannot load: ", model.status().message()));
      continue;
    }
    ++models;
    std::optional<int64_t> opset = OnnxOpsetOf(**model);
    if (!opset.has_value()) {
      ++no_onnx;
      continue;
    }
    absl::StatusOr<TestData> data = LoadData(c, **model);
    bool numerics = data.ok() && CheckNumerics(**model, *data).empty();
    if (!numerics) ++unsupported_by_interpreter;
    const bool original_checks = schema::checker::CheckModel(**model).ok();
    if (!original_checks) ++original_fails_checker;

    auto judge = [&](Direction& dir, const ir::Model& result) {
      absl::Status v = ir::Verify(result);
      if (!v.ok()) {
        failures.push_back(absl::StrCat(name, " [", dir.name, "]: the result fails the verifier: ", v.message()));
        return;
      }
      if (original_checks) {
        absl::Status ch = schema::checker::CheckModel(result);
        if (!ch.ok()) {
          failures.push_back(absl::StrCat(name, " [", dir.name, "]: the result fails the checker: ",
                                          ch.message().substr(0, 600)));
          return;
        }
      }
      ++dir.converted;
      if (!numerics) {
        ++dir.numerics_skipped;
        return;
      }
      std::string diff = CheckNumerics(result, *data);
      if (diff.empty()) {
        ++dir.numerics_ok;
      } else if (auto k = known.find({name, dir.key}); k != known.end()) {
        ++known_hits;
        ++dir.numerics_skipped;
        log(absl::StrCat("KNOWN ", name, " [", dir.name, "]:", k->second, " (", diff.substr(0, 200), ")"));
      } else {
        failures.push_back(absl::StrCat(name, " [", dir.name, "]: outputs differ: ", diff.substr(0, 400)));
      }
    };
    auto refuse = [&](Direction& dir, const std::string& msg) {
      ++dir.refused;
      ++dir.reasons[ReasonClass(msg)];
      std::string one = msg.substr(0, 400);
      std::replace(one.begin(), one.end(), '\n', ' ');
      log(absl::StrCat("REFUSED [", dir.name, "] ", name, " (opset ", *opset, "): ", one));
    };
    auto convert = [&](Direction& dir, int64_t target) {
      if (*opset == target) {
        ++dir.unchanged;
        return;
      }
      ConvertOptions o;
      o.onnx_opset = target;
      absl::StatusOr<std::unique_ptr<ir::Model>> result = ConvertModel(**model, o);
      if (!result.ok()) {
        refuse(dir, std::string(result.status().message()));
        return;
      }
      judge(dir, **result);
    };
    convert(up, 28);
    convert(to21, 21);
    absl::StatusOr<LowestResult> low = ConvertToLowestOpset(**model);
    if (!low.ok()) {
      refuse(lowest, std::string(low.status().message()));
    } else {
      ++lowest.lowest[low->opset];
      if (low->opset == *opset) {
        refuse(lowest, low->refusal);
      } else {
        judge(lowest, *low->model);
        if (!low->refusal.empty()) {
          log(absl::StrCat("LOWEST ", name, ": opset ", *opset, " -> ", low->opset, "; below: ",
                           low->refusal.substr(0, 300)));
        }
      }
    }
  }

  log(absl::StrCat("\n", models, " models (", no_onnx, " without ai.onnx), ", unsupported_by_interpreter,
                   " whose original the interpreter does not compute (no numeric check), ", original_fails_checker,
                   " whose original fails the checker"));
  for (const Direction* d : {&up, &to21, &lowest}) {
    log(absl::StrCat(d->name, ": ", d->converted, " converted (", d->numerics_ok, " outputs match, ",
                     d->numerics_skipped, " not checked numerically), ", d->unchanged, " already there, ",
                     d->refused, " refused"));
    for (const auto& [reason, count] : d->reasons) log(absl::StrCat("    refused, ", reason, ": ", count));
  }
  log(absl::StrCat(known_hits, " numeric mismatches listed in conformance_known_issues.txt"));
  std::string hist;
  for (const auto& [opset, count] : lowest.lowest) absl::StrAppend(&hist, " ", opset, ":", count);
  log(absl::StrCat("lowest opset reached (opset:models):", hist));
  for (const std::string& f : failures) {
    log(absl::StrCat("FAILURE ", f));
    ADD_FAILURE() << f;
  }
}

}  // namespace
}  // namespace onnx_opt::converter
