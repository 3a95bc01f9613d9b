// Runs every ONNX backend node test under $ONNX_CONFORMANCE_DIR/node and compares the outputs:
// floats |a-b| <= atol + rtol*|b| (rtol 1e-3, atol 1e-7), NaN == NaN; integers, booleans and strings
// exactly; element types and shapes exactly. Known failures are listed with a reason in
// interpreter/known_failures.txt; the test fails when an unlisted case fails and when a listed case
// passes. ONNX_CONFORMANCE_FILTER=substring runs only matching cases (the list is then not checked
// for cases that did not run).
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "interpreter/cpu/isa.h"
#include "interpreter/data_value.h"
#include "interpreter/evaluator.h"
#include "interpreter/status_macros.h"
#include "ir/io/model_io.h"

namespace onnx_opt::interpreter {
namespace {

namespace fs = std::filesystem;

constexpr double kRtol = 1e-3;
constexpr double kAtol = 1e-7;

void CopyRaw(const Tensor& from, Tensor& to) {
  std::memcpy(to.mutable_raw(), from.raw(), static_cast<size_t>(from.size()) * from.element_size() / 2);
}

// Compares one tensor; returns "" when equal, else a description of the worst element.
std::string CompareTensors(const Tensor& got, const Tensor& want) {
  if (got.dtype() != want.dtype() || got.dims() != want.dims()) {
    return absl::StrCat("got ", got.ShapeString(), ", want ", want.ShapeString());
  }
  if (want.is_string()) {
    for (int64_t i = 0; i < want.size(); ++i) {
      if (got.data<std::string>()[i] != want.data<std::string>()[i]) {
        return absl::StrCat("element ", i, ": got '", got.data<std::string>()[i], "', want '",
                            want.data<std::string>()[i], "'");
      }
    }
    return "";
  }
  if (ir::IsFloatingPoint(want.dtype()) || ir::IsComplex(want.dtype())) {
    Tensor g = WidenToFloat(got), w = WidenToFloat(want);
    if (ir::IsComplex(want.dtype())) {
      const bool is64 = want.dtype() == DataType::kComplex64;
      g = g.Reshaped({g.size() * 2});
      w = w.Reshaped({w.size() * 2});
      Tensor gg(is64 ? DataType::kFloat : DataType::kDouble, g.dims());
      Tensor ww(gg.dtype(), w.dims());
      CopyRaw(g, gg);
      CopyRaw(w, ww);
      g = gg;
      w = ww;
    }
    auto gd = CastTensor(g, DataType::kDouble);
    auto wd = CastTensor(w, DataType::kDouble);
    if (!gd.ok() || !wd.ok()) return "cannot compare";
    const double* a = gd->data<double>();
    const double* b = wd->data<double>();
    double worst = 0;
    int64_t worst_i = -1;
    for (int64_t i = 0; i < w.size(); ++i) {
      if (std::isnan(a[i]) && std::isnan(b[i])) continue;
      if (std::isinf(b[i]) && a[i] == b[i]) continue;
      const double err = std::abs(a[i] - b[i]);
      const double excess = err - (kAtol + kRtol * std::abs(b[i]));
      if (!(excess <= 0) && (worst_i < 0 || !(excess <= worst))) {
        worst = excess;
        worst_i = i;
      }
    }
    if (worst_i < 0) return "";
    return absl::StrCat("element ", worst_i, ": got ", a[worst_i], ", want ", b[worst_i], " (|diff| ",
                        std::abs(a[worst_i] - b[worst_i]), ")");
  }
  const int es = want.element_size();
  for (int64_t i = 0; i < want.size(); ++i) {
    if (std::memcmp(got.raw() + i * es, want.raw() + i * es, es) != 0) {
      auto gi = CastTensor(got, DataType::kInt64);
      auto wi = CastTensor(want, DataType::kInt64);
      if (gi.ok() && wi.ok()) {
        return absl::StrCat("element ", i, ": got ", gi->data<int64_t>()[i], ", want ", wi->data<int64_t>()[i]);
      }
      return absl::StrCat("element ", i, " differs");
    }
  }
  return "";
}

std::string CompareValues(const RuntimeValue& got, const RuntimeValue& want) {
  if (got.kind() != want.kind()) {
    return absl::StrCat("got ", got.DebugString(), ", want ", want.DebugString());
  }
  switch (want.kind()) {
    case RuntimeValue::Kind::kNone:
      return "";
    case RuntimeValue::Kind::kTensor:
      return CompareTensors(got.tensor(), want.tensor());
    case RuntimeValue::Kind::kSequence: {
      if (got.sequence().size() != want.sequence().size()) {
        return absl::StrCat("sequence length ", got.sequence().size(), ", want ", want.sequence().size());
      }
      for (size_t i = 0; i < want.sequence().size(); ++i) {
        std::string d = CompareTensors(got.sequence()[i], want.sequence()[i]);
        if (!d.empty()) return absl::StrCat("sequence element ", i, ": ", d);
      }
      return "";
    }
    case RuntimeValue::Kind::kMap: {
      std::string d = CompareTensors(got.map_keys(), want.map_keys());
      if (!d.empty()) return "map keys: " + d;
      d = CompareTensors(got.map_values(), want.map_values());
      return d.empty() ? "" : "map values: " + d;
    }
  }
  return "";
}

// Runs one case; "" on success, else the reason.
std::string RunCase(const fs::path& dir) {
  auto model = ir::io::LoadModel((dir / "model.onnx").string());
  if (!model.ok()) return absl::StrCat("load: ", model.status().message());
  const ir::Graph& g = (*model)->graph();
  std::vector<ir::Value*> inputs;
  for (ir::Value* v : g.inputs()) {
    if (!v->is_initializer()) inputs.push_back(v);
  }
  std::vector<fs::path> sets;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.is_directory() && e.path().filename().string().rfind("test_data_set_", 0) == 0) sets.push_back(e.path());
  }
  std::sort(sets.begin(), sets.end());
  if (sets.empty()) return "no test data";
  for (const fs::path& set : sets) {
    std::vector<RuntimeValue> ins;
    for (size_t i = 0;; ++i) {
      const fs::path p = set / absl::StrCat("input_", i, ".pb");
      if (!fs::exists(p)) break;
      if (i >= g.inputs().size()) return "more input files than graph inputs";
      auto dv = ir::io::LoadDataValueFile(p.string(), ir::io::DataValueKindOf(g.inputs()[i]->type()));
      if (!dv.ok()) return absl::StrCat("input ", i, ": ", dv.status().message());
      auto rv = FromDataValue(*dv);
      if (!rv.ok()) return absl::StrCat("input ", i, ": ", rv.status().message());
      ins.push_back(std::move(*rv));
    }
    Evaluator ev(**model);
    auto outs = ev.Run(std::move(ins));
    if (!outs.ok()) return std::string(outs.status().message());
    for (size_t i = 0; i < g.outputs().size(); ++i) {
      const fs::path p = set / absl::StrCat("output_", i, ".pb");
      if (!fs::exists(p)) continue;
      auto dv = ir::io::LoadDataValueFile(p.string(), ir::io::DataValueKindOf(g.outputs()[i]->type()));
      if (!dv.ok()) return absl::StrCat("output ", i, ": ", dv.status().message());
      auto want = FromDataValue(*dv);
      if (!want.ok()) return absl::StrCat("output ", i, ": ", want.status().message());
      std::string diff = CompareValues((*outs)[i], *want);
      if (!diff.empty()) {
        return absl::StrCat(set.filename().string(), " output ", i, " '", g.outputs()[i]->name(), "': ", diff);
      }
    }
  }
  return "";
}

std::map<std::string, std::string> ReadKnownFailures(const std::string& path) {
  std::map<std::string, std::string> out;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ss(line);
    std::string name;
    ss >> name;
    std::string reason;
    std::getline(ss, reason);
    out[name] = reason;
  }
  return out;
}

TEST(ConformanceTest, NodeTests) {
  const char* root = std::getenv("ONNX_CONFORMANCE_DIR");
  if (root == nullptr || *root == '\0') {
    std::cerr << "\n*** ONNX_CONFORMANCE_DIR is not set: the interpreter's conformance test is SKIPPED ***\n\n";
    GTEST_SKIP() << "ONNX_CONFORMANCE_DIR is not set";
  }
  // ONNX_OPT_ISA (set by the *_baseline_isa target) picks the vector kernels; say which ran.
  std::cerr << "vector kernels: " << IsaName(ActiveIsa()) << " (CPU: " << IsaName(DetectedIsa()) << ")\n";
  const char* filter_env = std::getenv("ONNX_CONFORMANCE_FILTER");
  const std::string filter = filter_env ? filter_env : "";
  const fs::path node_dir = fs::path(root) / "node";
  ASSERT_TRUE(fs::is_directory(node_dir)) << node_dir << " is not a directory";
  const auto known = ReadKnownFailures("interpreter/known_failures.txt");
  std::vector<fs::path> cases;
  for (const auto& e : fs::directory_iterator(node_dir)) {
    if (e.is_directory()) cases.push_back(e.path());
  }
  std::sort(cases.begin(), cases.end());
  int passed = 0, failed = 0;
  std::vector<std::string> unexpected_failures, unexpected_passes;
  std::ofstream report;
  if (const char* out = std::getenv("TEST_UNDECLARED_OUTPUTS_DIR")) {
    report.open(fs::path(out) / "conformance_failures.txt");
  }
  for (const fs::path& c : cases) {
    const std::string name = c.filename().string();
    if (!filter.empty() && name.find(filter) == std::string::npos) continue;
    const std::string reason = RunCase(c);
    const bool listed = known.contains(name);
    if (reason.empty()) {
      ++passed;
      if (listed) unexpected_passes.push_back(name);
    } else {
      ++failed;
      std::string one = reason.substr(0, 300);
      std::replace(one.begin(), one.end(), '\n', ' ');
      std::cout << "FAIL " << name << ": " << one << "\n";
      if (report.is_open()) report << name << "  " << one << "\n";
      if (!listed) unexpected_failures.push_back(name);
    }
  }
  std::cout << passed << " passed, " << failed << " failed\n";
  for (const std::string& n : unexpected_failures) ADD_FAILURE() << "unlisted failure: " << n;
  for (const std::string& n : unexpected_passes) {
    ADD_FAILURE() << "listed in known_failures.txt but passes (remove it): " << n;
  }
}

}  // namespace
}  // namespace onnx_opt::interpreter
