// Every registered pass reports the name it is registered under: pipelines, --list-passes,
// statistics and --verify-each all name passes, and a pass whose name() differs would be listed
// under one name and reported under another. And each pass is in the file named after it ("fold-if"
// in passes/fold_if.cc), so that a pass named in a pipeline or a report is found at once.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>

#include "gtest/gtest.h"
#include "optimizer/pass.h"
#include "optimizer/pass_registry.h"

namespace onnx_opt::passes {
namespace {

// The pass sources are the test's data (see BUILD.bazel), under passes/ in its runfiles.
std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

TEST(RegistryNamesTest, EveryPassReportsItsRegisteredName) {
  const auto& passes = optimizer::PassRegistry::Global().passes();
  ASSERT_GT(passes.size(), 30u);  // the library's passes are linked in
  for (const auto& [name, info] : passes) {
    std::unique_ptr<optimizer::Pass> pass = info.factory({});
    ASSERT_NE(pass, nullptr) << name;
    EXPECT_EQ(pass->name(), name);
    EXPECT_FALSE(info.summary.empty()) << name;
  }
}

TEST(RegistryNamesTest, EveryPassIsInTheFileNamedAfterIt) {
  for (const auto& [name, info] : optimizer::PassRegistry::Global().passes()) {
    std::string file = name;
    std::replace(file.begin(), file.end(), '-', '_');
    file = "passes/" + file + ".cc";
    EXPECT_NE(ReadFile(file).find("\"" + name + "\""), std::string::npos)
        << "pass '" << name << "' is not registered in " << file;
  }
}

TEST(RegistryNamesTest, EveryFileThatRegistersAPassIsNamedAfterIt) {
  const auto& passes = optimizer::PassRegistry::Global().passes();
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator("passes")) {
    const std::filesystem::path& path = entry.path();
    const std::string text = ReadFile(path.string());
    if (path.extension() != ".cc" || (text.find("REGISTER_PASS(") == std::string::npos &&
                                      text.find("REGISTER_PASS_WITH_ARGS(") == std::string::npos)) {
      continue;
    }
    ++files;
    std::string name = path.stem().string();
    std::replace(name.begin(), name.end(), '_', '-');
    EXPECT_TRUE(passes.contains(name)) << path << " registers no pass named '" << name << "'";
  }
  EXPECT_EQ(files, static_cast<int>(passes.size()));  // one file per pass
}

}  // namespace
}  // namespace onnx_opt::passes
