// The global registry registers an adapter family only when a conversion asks about one of its
// operators, using the lists in converter/families.cc: each list must be exactly what its family
// registers, and no change may be registered by two families (the later one would win, and which is
// later now depends on what a conversion asks first).
#include "converter/families.h"

#include <algorithm>
#include <set>
#include <string>
#include <tuple>

#include "absl/container/flat_hash_map.h"
#include "converter/adapter.h"
#include "gtest/gtest.h"

namespace onnx_opt::converter {
namespace {

using ChangeKey = std::tuple<std::string, std::string, int, int>;

TEST(Families, EachListIsWhatItsFamilyRegisters) {
  const absl::Span<const AdapterFamily> families = AdapterFamilies();
  ASSERT_LE(families.size(), 64u);  // the registry keeps one bit per family
  absl::flat_hash_map<std::string, size_t> family_of_op;
  std::set<ChangeKey> changes;
  for (size_t i = 0; i < families.size(); ++i) {
    EXPECT_TRUE(std::is_sorted(families[i].ops.begin(), families[i].ops.end())) << "family " << i;
    for (std::string_view op : families[i].ops) {
      const auto [it, inserted] = family_of_op.emplace(std::string(op), i);
      EXPECT_TRUE(inserted) << op << " is listed by families " << it->second << " and " << i;
    }
    AdapterRegistry alone;
    families[i].register_adapters(alone);
    std::set<std::string> registered;
    for (const AdapterEntry* e : alone.RegisteredEntries()) {
      registered.insert(e->op);
      EXPECT_TRUE(changes.emplace(e->domain, e->op, e->from, e->to).second)
          << e->domain << "::" << e->op << " " << e->from << " -> " << e->to
          << " is registered twice";
    }
    const std::set<std::string> listed(families[i].ops.begin(), families[i].ops.end());
    for (const std::string& op : registered) {
      EXPECT_TRUE(listed.contains(op)) << "family " << i << " registers adapters for " << op
                                       << ", which its list in converter/families.cc lacks";
    }
    for (const std::string& op : listed) {
      EXPECT_TRUE(registered.contains(op))
          << "family " << i << " lists " << op << " but registers nothing for it";
    }
  }
}

TEST(Families, TheGlobalRegistryRegistersAFamilyWhenAsked) {
  const AdapterRegistry& global = AdapterRegistry::Global();
  // Nothing in this test binary converted anything before (gtest runs the tests in order).
  EXPECT_TRUE(global.RegisteredEntries().empty());
  const AdapterEntry* relu = global.Find("ai.onnx", "Relu", 6, 13);
  ASSERT_NE(relu, nullptr);
  EXPECT_EQ(relu->op, "Relu");
  const AdapterFamily* activation = nullptr;
  for (const AdapterFamily& f : AdapterFamilies()) {
    if (std::find(f.ops.begin(), f.ops.end(), "Relu") != f.ops.end()) activation = &f;
  }
  ASSERT_NE(activation, nullptr);
  const size_t after_relu = global.RegisteredEntries().size();
  for (const AdapterEntry* e : global.RegisteredEntries()) {
    EXPECT_NE(std::find(activation->ops.begin(), activation->ops.end(), e->op),
              activation->ops.end())
        << e->op << " was registered although only Relu's family was asked about";
  }
  // Asking again registers nothing more; an operator without adapters registers nothing.
  EXPECT_EQ(global.Find("ai.onnx", "Relu", 6, 13), relu);
  EXPECT_EQ(global.Find("ai.onnx", "NoSuchOperator", 1, 2), nullptr);
  EXPECT_EQ(global.RegisteredEntries().size(), after_relu);
  // A listing registers every family.
  size_t all = 0;
  for (const AdapterFamily& f : AdapterFamilies()) {
    AdapterRegistry alone;
    f.register_adapters(alone);
    all += alone.RegisteredEntries().size();
  }
  global.AllEntries();
  EXPECT_EQ(global.RegisteredEntries().size(), all);
}

}  // namespace
}  // namespace onnx_opt::converter
