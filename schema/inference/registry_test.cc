#include "schema/inference/registry.h"

#include <iostream>
#include <set>
#include <string>

#include "gtest/gtest.h"
#include "schema/op_registry.h"

namespace onnx_opt::schema::inference {
namespace {

TEST(InferenceRegistryTest, VersionRangesSelectTheFunction) {
  InferenceRegistry r;
  int called = 0;
  r.Register("Foo", 1, 12, [&](InferenceContext&) {
    called = 1;
    return absl::OkStatus();
  });
  r.Register("Foo", 13, kLatest, [&](InferenceContext&) {
    called = 13;
    return absl::OkStatus();
  });
  EXPECT_NE(r.Find("", "Foo", 1), nullptr);
  EXPECT_NE(r.Find("ai.onnx", "Foo", 11), nullptr);
  EXPECT_NE(r.Find("", "Foo", 13), r.Find("", "Foo", 11));
  EXPECT_EQ(r.Find("", "Bar", 1), nullptr);
  EXPECT_EQ(r.Find("com.example", "Foo", 1), nullptr);
}

// Which schema'd operators have their own inference function (the others get element types from
// their type constraints only). Printed for the record; every operator of the conformance suite is
// expected to be covered.
TEST(InferenceRegistryTest, Coverage) {
  const InferenceRegistry& r = InferenceRegistry::Get();
  std::set<std::string> covered, missing;
  for (const OpSchema* each : AllSchemas()) {
    const OpSchema& s = *each;
    std::string key = s.domain() + "::" + s.op_type();
    if (s.deprecated()) continue;
    if (r.Find(s.domain(), s.op_type(), s.since_version()) != nullptr) {
      covered.insert(key);
    } else {
      missing.insert(key + "-" + std::to_string(s.since_version()));
    }
  }
  std::cout << covered.size()
            << " operators with an inference function; schema versions without:\n";
  for (const std::string& m : missing) std::cout << "  " << m << "\n";
  for (const char* op : {"Add", "Conv", "Reshape", "Attention", "Loop", "Resize", "Einsum"}) {
    EXPECT_TRUE(covered.count(std::string("ai.onnx::") + op)) << op;
  }
}

}  // namespace
}  // namespace onnx_opt::schema::inference
