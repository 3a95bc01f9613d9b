#include "equivalence/testing/conformance.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "equivalence/compare.h"
#include "interpreter/data_value.h"
#include "interpreter/evaluator.h"
#include "interpreter/tensor.h"
#include "ir/io/model_io.h"

namespace onnx_opt::conformance {
namespace {

namespace fs = std::filesystem;
using interpreter::RuntimeValue;

std::string OneLine(std::string s) {
  std::replace(s.begin(), s.end(), '\n', ' ');
  return s;
}

}  // namespace

std::vector<fs::path> DataSets(const fs::path& case_dir) {
  std::vector<fs::path> sets;
  for (const auto& e : fs::directory_iterator(case_dir)) {
    if (e.is_directory() && e.path().filename().string().rfind("test_data_set_", 0) == 0)
      sets.push_back(e.path());
  }
  std::sort(sets.begin(), sets.end());
  return sets;
}

absl::StatusOr<DataSet> LoadDataSet(const fs::path& set, const ir::Graph& graph) {
  DataSet data;
  for (size_t i = 0;; ++i) {
    const fs::path p = set / absl::StrCat("input_", i, ".pb");
    if (!fs::exists(p)) break;
    if (i >= graph.inputs().size())
      return absl::InvalidArgumentError("more input files than graph inputs");
    auto dv =
        ir::io::LoadDataValueFile(p.string(), ir::io::DataValueKindOf(graph.inputs()[i]->type()));
    if (!dv.ok())
      return absl::InvalidArgumentError(absl::StrCat("input ", i, ": ", dv.status().message()));
    auto rv = interpreter::FromDataValue(*dv);
    if (!rv.ok())
      return absl::InvalidArgumentError(absl::StrCat("input ", i, ": ", rv.status().message()));
    data.inputs.push_back(std::move(*rv));
  }
  for (size_t i = 0; i < graph.outputs().size(); ++i) {
    const fs::path p = set / absl::StrCat("output_", i, ".pb");
    if (!fs::exists(p)) {
      return absl::NotFoundError(absl::StrCat(set.filename().string(), " has no output_", i,
                                              ".pb for graph output '", graph.outputs()[i]->name(),
                                              "'"));
    }
    auto dv =
        ir::io::LoadDataValueFile(p.string(), ir::io::DataValueKindOf(graph.outputs()[i]->type()));
    if (!dv.ok())
      return absl::InvalidArgumentError(absl::StrCat("output ", i, ": ", dv.status().message()));
    data.outputs.push_back(std::move(*dv));
  }
  return data;
}

std::string KindString(const ir::io::DataValue& value) {
  using Kind = ir::io::DataValue::Kind;
  switch (value.kind) {
    case Kind::kSequence:
    case Kind::kMap: {
      const std::string inner = value.elements.empty() ? ir::io::DataValueKindName(value.elem_kind)
                                                       : KindString(value.elements[0]);
      return absl::StrCat(ir::io::DataValueKindName(value.kind), "(", inner, ")");
    }
    case Kind::kOptional:
      if (value.elements.empty()) {
        return absl::StrCat("optional(none of ", ir::io::DataValueKindName(value.elem_kind), ")");
      }
      return absl::StrCat("optional(", KindString(value.elements[0]), ")");
    default:
      return ir::io::DataValueKindName(value.kind);
  }
}

std::string CompareOutput(const RuntimeValue& got, const ir::Type& type,
                          const ir::io::DataValue& want) {
  absl::StatusOr<ir::io::DataValue> written = interpreter::ToDataValue(got, type);
  if (!written.ok()) {
    return absl::StrCat("cannot write the result (", got.DebugString(),
                        "): ", written.status().message());
  }
  const std::string got_kind = KindString(*written), want_kind = KindString(want);
  if (got_kind != want_kind)
    return absl::StrCat("got a value of kind ", got_kind, ", want ", want_kind);
  absl::StatusOr<RuntimeValue> expected = interpreter::FromDataValue(want);
  if (!expected.ok())
    return absl::StrCat("cannot read the expected value: ", expected.status().message());
  const equivalence::OutputDifference diff =
      equivalence::CompareValue("", *expected, got, equivalence::Tolerances::Conformance());
  return diff.equal ? "" : diff.detail;
}

std::string RunAndCompare(const ir::Model& model, const DataSet& data) {
  const ir::Graph& g = model.graph();
  interpreter::Evaluator evaluator(model);
  absl::StatusOr<std::vector<RuntimeValue>> outs = evaluator.Run(data.inputs);
  if (!outs.ok()) return absl::StrCat("does not run: ", outs.status().message());
  if (outs->size() != g.outputs().size() || data.outputs.size() != g.outputs().size()) {
    return absl::StrCat(outs->size(), " outputs computed, ", data.outputs.size(), " expected, ",
                        g.outputs().size(), " in the graph");
  }
  for (size_t i = 0; i < g.outputs().size(); ++i) {
    std::string diff = CompareOutput((*outs)[i], g.outputs()[i]->type(), data.outputs[i]);
    if (!diff.empty()) return absl::StrCat("output ", i, " '", g.outputs()[i]->name(), "': ", diff);
  }
  return "";
}

absl::StatusOr<CaseList> ReadCaseList(const std::string& path, int key_fields) {
  std::ifstream in(path);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot read the case list ", path));
  CaseList list;
  list.path = path;
  std::string line;
  int line_number = 0;
  while (std::getline(in, line)) {
    ++line_number;
    if (line.empty() || line[0] == '#') {
      if (list.reasons.empty()) absl::StrAppend(&list.header, line, "\n");
      continue;
    }
    std::istringstream ss(line);
    std::vector<std::string> key;
    std::string word;
    while (static_cast<int>(key.size()) < key_fields && ss >> word) key.push_back(word);
    std::string reason;
    std::getline(ss, reason);
    reason.erase(0, reason.find_first_not_of(" \t"));
    if (static_cast<int>(key.size()) < key_fields || reason.empty()) {
      return absl::InvalidArgumentError(absl::StrCat(path, ":", line_number, ": expected ",
                                                     key_fields, " key word(s) and a reason"));
    }
    const std::string k = absl::StrJoin(key, " ");
    if (!list.reasons.emplace(k, reason).second) {
      return absl::InvalidArgumentError(
          absl::StrCat(path, ":", line_number, ": '", k, "' is listed twice"));
    }
  }
  return list;
}

std::vector<std::string> CheckCaseList(const CaseList& list,
                                       const std::map<std::string, std::string>& failures,
                                       const std::set<std::string>& ran, bool complete) {
  std::vector<std::string> problems;
  for (const auto& [key, what] : failures) {
    if (!list.reasons.contains(key)) {
      problems.push_back(
          absl::StrCat(key, ": not listed in ", list.path, ": ", OneLine(what).substr(0, 400)));
    }
  }
  for (const auto& [key, reason] : list.reasons) {
    if (failures.contains(key)) continue;
    const std::string name = key.substr(0, key.find(' '));
    if (ran.contains(name)) {
      problems.push_back(absl::StrCat(key, ": listed in ", list.path, " (", reason,
                                      ") but did not fail this run: remove it from the list"));
    } else if (complete) {
      problems.push_back(
          absl::StrCat(key, ": listed in ", list.path, " but there is no such case"));
    }
  }
  return problems;
}

std::string WriteObservedList(const CaseList& list,
                              const std::map<std::string, std::string>& failures) {
  const char* dir = std::getenv("TEST_UNDECLARED_OUTPUTS_DIR");
  if (dir == nullptr || *dir == '\0') return "";
  const fs::path path = fs::path(dir) / fs::path(list.path).filename();
  std::ofstream out(path);
  out << list.header;
  for (const auto& [key, what] : failures) {
    auto it = list.reasons.find(key);
    out << key << "  "
        << (it != list.reasons.end() ? it->second : "NEW: " + OneLine(what).substr(0, 300)) << "\n";
  }
  return path.string();
}

}  // namespace onnx_opt::conformance
