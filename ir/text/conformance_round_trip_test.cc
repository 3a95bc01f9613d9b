// Every ONNX conformance model, loaded from protobuf, printed as text and parsed back, gives an
// equal model (up to what the text syntax cannot express), and printing is a fixed point.
// Needs ONNX_CONFORMANCE_DIR; skipped loudly without it.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "equivalence/testing/conformance_dir.h"
#include "gtest/gtest.h"
#include "ir/io/model_io.h"
#include "ir/text/model_equality.h"
#include "ir/text/parser.h"
#include "ir/text/printer.h"

namespace onnx_opt::ir::text {
namespace {

namespace fs = std::filesystem;

TEST(ConformanceRoundTripTest, EveryNodeModel) {
  ONNX_OPT_CONFORMANCE_DIR_OR_SKIP(root, "the text round trip of the ONNX conformance models");
  std::vector<fs::path> models;
  for (const auto& e : fs::directory_iterator(fs::path(root) / "node")) {
    if (fs::exists(e.path() / "model.onnx")) models.push_back(e.path() / "model.onnx");
  }
  std::sort(models.begin(), models.end());
  ASSERT_FALSE(models.empty()) << "no models under " << root << "/node";
  int failures = 0;
  for (const fs::path& path : models) {
    const std::string name = path.parent_path().filename().string();
    absl::StatusOr<std::unique_ptr<Model>> loaded = io::LoadModel(path.string());
    if (!loaded.ok()) {
      ADD_FAILURE() << name << ": load: " << loaded.status();
      ++failures;
      continue;
    }
    const std::string printed = PrintModel(**loaded);
    absl::StatusOr<std::unique_ptr<Model>> parsed = ParseModel(printed);
    if (!parsed.ok()) {
      ADD_FAILURE() << name << ": parse: " << parsed.status() << "\n" << printed;
      ++failures;
      continue;
    }
    absl::Status eq = StructurallyEqual(**loaded, **parsed, TextRoundTripOptions());
    if (!eq.ok()) {
      ADD_FAILURE() << name << ": " << eq << "\n" << printed;
      ++failures;
      continue;
    }
    const std::string reprinted = PrintModel(**parsed);
    if (reprinted != printed) {
      ADD_FAILURE() << name << ": printing is not a fixed point\n"
                    << printed << "\n---\n"
                    << reprinted;
      ++failures;
    }
  }
  std::cerr << models.size() - failures << " of " << models.size()
            << " conformance models round-trip through text\n";
}

}  // namespace
}  // namespace onnx_opt::ir::text
