// Every registered pass reports the name it is registered under: pipelines, --list-passes, statistics
// and --verify-each all name passes, and a pass whose name() differs would be listed under one name
// and reported under another.
#include <memory>
#include <string>

#include "gtest/gtest.h"
#include "optimizer/pass.h"
#include "optimizer/pass_registry.h"

namespace onnx_opt::passes {
namespace {

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

}  // namespace
}  // namespace onnx_opt::passes
