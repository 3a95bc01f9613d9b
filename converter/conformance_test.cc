// Converts every ONNX backend node test model ($ONNX_CONFORMANCE_DIR/node/*/model.onnx) up to
// opset 28, to opset 21 (up or down), and down to the lowest opset that can express it. Each result
// must pass the structural verifier and the checker (when the original does) and, run by the
// interpreter on the test's inputs, match the test's expected outputs on every data set (when the
// interpreter computes them for the original) at the interpreter's own conformance tolerance
// (testing/conformance.h: rtol 1e-3, atol 1e-7; value kinds compared too).
// Two lists keep the outcome exact; each fails the test on an unlisted entry and on a listed one
// that did not happen (remove it), and the run writes the list as it saw it to the undeclared
// outputs:
//   converter/conformance_known_issues.txt: numeric mismatches of converted models, with the
//   reason. converter/conformance_refusals.txt: refused conversions ("case up", "case to21") and
//   where the
//     descent stops ("case lowest:N": opset N is as low as the model goes, N > 1).
// ONNX_CONFORMANCE_FILTER=substring runs only matching cases (lists not checked for the others).
#include "equivalence/testing/conformance.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "converter/convert.h"
#include "equivalence/testing/conformance_dir.h"
#include "gtest/gtest.h"
#include "ir/io/model_io.h"
#include "ir/status_macros.h"
#include "ir/verifier.h"
#include "schema/checker/checker.h"

namespace onnx_opt::converter {
namespace {

namespace fs = std::filesystem;

// Every data set of the case, read by the original graph's declared types.
absl::StatusOr<std::vector<conformance::DataSet>> LoadData(const fs::path& dir,
                                                           const ir::Model& model) {
  std::vector<conformance::DataSet> sets;
  for (const fs::path& set : conformance::DataSets(dir)) {
    ASSIGN_OR_RETURN(conformance::DataSet data, conformance::LoadDataSet(set, model.graph()));
    sets.push_back(std::move(data));
  }
  if (sets.empty()) return absl::NotFoundError("no test data");
  return sets;
}

// "" when `model` computes the expected outputs of every data set (at the interpreter's own
// conformance tolerance), else why not.
std::string CheckNumerics(const ir::Model& model, const std::vector<conformance::DataSet>& sets) {
  for (size_t i = 0; i < sets.size(); ++i) {
    std::string diff = conformance::RunAndCompare(model, sets[i]);
    if (!diff.empty()) return absl::StrCat("test_data_set_", i, " ", diff);
  }
  return "";
}

struct Direction {
  std::string key;
  std::string name;
  int converted = 0;    // converted, verified, checked
  int numerics_ok = 0;  // of those, outputs matched
  int numerics_skipped = 0;
  int numerics_known = 0;  // of those, listed in conformance_known_issues.txt
  int refused = 0;
  int unchanged = 0;  // already at the target
  std::map<std::string, int> reasons;
  std::map<int64_t, int> lowest;  // for the "lowest" direction: opset reached -> count
};

// A short class of a refusal message, for the summary.
std::string ReasonClass(const std::string& msg) {
  for (const char* key :
       {"no adapter is registered", "has no expansion into older operators",
        "must be a compile-time constant", "does not allow", "rank is unknown", "is unknown",
        "must be known", "has no equivalent", "cannot express", "not defined at", "binds both"}) {
    if (msg.find(key) != std::string::npos) return key;
  }
  return "other";
}

// A refusal message shortened for the refusal list: "cannot convert node producing 'y' (Acos) from
// Acos-7 (ai.onnx opset 7) to Acos (not defined) (opset 6): Acos was introduced ..." (perhaps
// inside "in graph ... of node ...: ") -> "Acos-7: Acos was introduced ...".
std::string ShortRefusal(const std::string& msg) {
  std::string s = msg;
  if (size_t node = s.rfind("cannot convert node producing "); node != std::string::npos) {
    const size_t from = s.find(") from ", node);
    const size_t rest = from == std::string::npos ? std::string::npos : s.find("): ", from + 7);
    if (rest != std::string::npos) {
      const std::string op = s.substr(from + 7, s.find(' ', from + 7) - (from + 7));
      s = op + ": " + s.substr(rest + 3);
    }
  }
  std::replace(s.begin(), s.end(), '\n', ' ');
  return s.substr(0, 120);
}

TEST(ConverterConformance, NodeModels) {
  ONNX_OPT_CONFORMANCE_DIR_OR_SKIP(root, "the converter's conformance test");
  const char* filter_env = std::getenv("ONNX_CONFORMANCE_FILTER");
  const std::string filter = filter_env != nullptr ? filter_env : "";
  const fs::path node_dir = fs::path(root) / "node";
  ASSERT_TRUE(fs::is_directory(node_dir)) << node_dir;
  absl::StatusOr<conformance::CaseList> known =
      conformance::ReadCaseList("converter/conformance_known_issues.txt", 2);
  ASSERT_TRUE(known.ok()) << known.status();
  absl::StatusOr<conformance::CaseList> refusal_list =
      conformance::ReadCaseList("converter/conformance_refusals.txt", 2);
  ASSERT_TRUE(refusal_list.ok()) << refusal_list.status();
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
  int models = 0, no_onnx = 0, unsupported_by_interpreter = 0, original_fails_checker = 0;
  std::vector<std::string> failures;
  std::set<std::string> ran;
  // "case direction" -> what went wrong. Refusals: direction "up", "to21", or "lowest:N" for a
  // model that stops at opset N above 1 (N may be its own opset).
  std::map<std::string, std::string> numeric_failures, refusals;
  for (const fs::path& c : cases) {
    const std::string name = c.filename().string();
    if (!filter.empty() && name.find(filter) == std::string::npos) continue;
    ran.insert(name);
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
    absl::StatusOr<std::vector<conformance::DataSet>> data = LoadData(c, **model);
    if (!data.ok()) {
      failures.push_back(absl::StrCat(name, ": test data: ", data.status().message()));
      continue;
    }
    // Cases whose original the interpreter does not compute are in interpreter/known_failures.txt
    // (the interpreter's conformance test keeps that list exact); their conversions are checked by
    // the verifier and the checker only.
    const bool numerics = CheckNumerics(**model, *data).empty();
    if (!numerics) ++unsupported_by_interpreter;
    const bool original_checks = schema::checker::CheckModel(**model).ok();
    if (!original_checks) ++original_fails_checker;

    auto judge = [&](Direction& dir, const ir::Model& result) {
      absl::Status v = ir::Verify(result);
      if (!v.ok()) {
        failures.push_back(
            absl::StrCat(name, " [", dir.name, "]: the result fails the verifier: ", v.message()));
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
        return;
      }
      const std::string key = absl::StrCat(name, " ", dir.key);
      if (auto k = known->reasons.find(key); k != known->reasons.end()) {
        ++dir.numerics_known;
        log(absl::StrCat("KNOWN ", name, " [", dir.name, "]: ", k->second, " (",
                         diff.substr(0, 200), ")"));
      }
      numeric_failures[key] = diff;
    };
    auto refuse = [&](Direction& dir, const std::string& key, const std::string& msg) {
      ++dir.refused;
      ++dir.reasons[ReasonClass(msg)];
      std::string one = msg.substr(0, 400);
      std::replace(one.begin(), one.end(), '\n', ' ');
      log(absl::StrCat("REFUSED [", dir.name, "] ", name, " (opset ", *opset, "): ", one));
      refusals[absl::StrCat(name, " ", key)] = ShortRefusal(msg);
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
        refuse(dir, dir.key, std::string(result.status().message()));
        return;
      }
      judge(dir, **result);
    };
    convert(up, 28);
    convert(to21, 21);
    absl::StatusOr<LowestResult> low = ConvertToLowestOpset(**model);
    if (!low.ok()) {
      failures.push_back(absl::StrCat(name, " [", lowest.name, "]: ", low.status().message()));
      continue;
    }
    ++lowest.lowest[low->opset];
    // Where a model stops is pinned, not only whether it moved: stopping higher is a new refusal.
    const std::string stop = absl::StrCat("lowest:", low->opset);
    if (low->opset == 1 && *opset == 1) {
      ++lowest.unchanged;
      continue;
    }
    if (low->opset == *opset) {
      refuse(lowest, stop, low->refusal);
      continue;
    }
    judge(lowest, *low->model);
    if (!low->refusal.empty()) {
      log(absl::StrCat("LOWEST ", name, ": opset ", *opset, " -> ", low->opset,
                       "; below: ", low->refusal.substr(0, 300)));
      refusals[absl::StrCat(name, " ", stop)] = ShortRefusal(low->refusal);
    }
  }

  log(absl::StrCat("\n", models, " models (", no_onnx, " without ai.onnx), ",
                   unsupported_by_interpreter,
                   " whose original the interpreter does not compute (no numeric check), ",
                   original_fails_checker, " whose original fails the checker"));
  for (const Direction* d : {&up, &to21, &lowest}) {
    log(absl::StrCat(d->name, ": ", d->converted, " converted (", d->numerics_ok,
                     " outputs match, ", d->numerics_known, " listed mismatches, ",
                     d->numerics_skipped, " not checked numerically), ", d->unchanged,
                     " already there, ", d->refused, " refused"));
    for (const auto& [reason, count] : d->reasons)
      log(absl::StrCat("    refused, ", reason, ": ", count));
  }
  log(absl::StrCat(numeric_failures.size(), " numeric mismatches, ", refusals.size(), " refusals (",
                   lowest.refused, " models that cannot go down at all)"));
  std::string hist;
  for (const auto& [opset, count] : lowest.lowest) absl::StrAppend(&hist, " ", opset, ":", count);
  log(absl::StrCat("lowest opset reached (opset:models):", hist));
  for (const std::string& f : failures) {
    log(absl::StrCat("FAILURE ", f));
    ADD_FAILURE() << f;
  }
  const bool complete = filter.empty();
  for (const auto& [list, seen] :
       {std::pair{&*known, &numeric_failures}, std::pair{&*refusal_list, &refusals}}) {
    const std::vector<std::string> problems =
        conformance::CheckCaseList(*list, *seen, ran, complete);
    for (const std::string& p : problems) {
      log(absl::StrCat("FAILURE ", p));
      ADD_FAILURE() << p;
    }
    if (!problems.empty()) {
      log(absl::StrCat("the list as this run has it: ",
                       conformance::WriteObservedList(*list, *seen)));
    }
  }
}

}  // namespace
}  // namespace onnx_opt::converter
