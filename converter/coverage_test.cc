// Every operator version change of ai.onnx and ai.onnx.ml has an adapter in both directions, and
// every operator introduced after opset 1 has a (rewriting or refusing) downgrade adapter. Prints
// the counts by kind.
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "converter/adapter.h"
#include "gtest/gtest.h"
#include "schema/op_registry.h"

namespace onnx_opt::converter {
namespace {

const char* KindName(AdapterKind k) {
  switch (k) {
    case AdapterKind::kCompatible:
      return "compatible";
    case AdapterKind::kAttribute:
      return "attribute";
    case AdapterKind::kMove:
      return "move";
    case AdapterKind::kRewrite:
      return "rewrite";
    case AdapterKind::kRefuse:
      return "refuse";
  }
  return "?";
}

TEST(Coverage, EveryVersionChangeHasAnAdapterBothWays) {
  const AdapterRegistry& reg = AdapterRegistry::Global();
  std::vector<std::string> missing;
  std::map<std::string, int> by_kind;
  int pairs = 0, handled = 0, introduced = 0, introduced_rewritten = 0;
  std::map<std::pair<std::string, std::string>, bool> seen;
  for (const schema::OpSchema* each : schema::AllSchemas()) {
    const schema::OpSchema& s = *each;
    if (s.domain() != "ai.onnx" && s.domain() != "ai.onnx.ml") continue;
    if (seen[{s.domain(), s.op_type()}]) continue;
    seen[{s.domain(), s.op_type()}] = true;
    absl::Span<const int> v = schema::Versions(s.domain(), s.op_type());
    for (size_t i = 0; i + 1 < v.size(); ++i) {
      const schema::OpSchema* a = schema::Find(s.domain(), s.op_type(), v[i]);
      const schema::OpSchema* b = schema::Find(s.domain(), s.op_type(), v[i + 1]);
      const int up_to = b->deprecated() ? kRemoved : b->since_version();
      const int down_from = b->since_version();
      const int down_to = a->deprecated() ? kRemoved : a->since_version();
      for (auto [from, to] :
           {std::pair{a->since_version(), up_to}, std::pair{down_from, down_to}}) {
        if (b->deprecated() && from == down_from) continue;  // nothing to convert from a removal
        ++pairs;
        const AdapterEntry* e = reg.Find(s.domain(), s.op_type(), from, to);
        if (e == nullptr) {
          missing.push_back(s.domain() + "::" + s.op_type() + " " + std::to_string(from) + "->" +
                            std::to_string(to));
          continue;
        }
        ++by_kind[KindName(e->kind)];
        if (e->kind != AdapterKind::kRefuse) ++handled;
      }
    }
    if (!v.empty() && v.front() > 1) {
      ++introduced;
      const AdapterEntry* e = reg.Find(s.domain(), s.op_type(), v.front(), kNotDefined);
      if (e == nullptr) {
        missing.push_back(s.domain() + "::" + s.op_type() + " " + std::to_string(v.front()) +
                          "->(not defined)");
      } else if (e->kind != AdapterKind::kRefuse) {
        ++introduced_rewritten;
      }
    }
  }
  std::cout << "version changes (op, from -> to, both directions): " << pairs << ", handled "
            << handled << ", refused by design "
            << (pairs - handled - static_cast<int>(missing.size())) << "\n";
  for (const auto& [k, n] : by_kind) std::cout << "  " << k << ": " << n << "\n";
  std::cout << "operators introduced after opset 1: " << introduced
            << ", expanded below their opset: " << introduced_rewritten << "\n";
  for (const std::string& m : missing) std::cout << "MISSING " << m << "\n";
  EXPECT_TRUE(missing.empty()) << missing.size() << " version changes have no adapter";
}

}  // namespace
}  // namespace onnx_opt::converter
