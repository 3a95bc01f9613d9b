// The global adapter registry: every operator family registers its adapters here, once, when a
// conversion first asks about one of its operators. Operators introduced after opset 1 that no
// family can rewrite into older operators get an adapter that refuses the downgrade with a clear
// reason, made when a conversion first asks for it.
#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "converter/adapter.h"
#include "converter/adapter_util.h"
#include "converter/families.h"
#include "schema/op_registry.h"

namespace onnx_opt::converter {

const AdapterRegistry& AdapterRegistry::Global() {
  static const AdapterRegistry* registry = [] {
    auto* r = new AdapterRegistry();
    r->families_on_demand_ = true;
    return r;
  }();
  return *registry;
}

void AdapterRegistry::RegisterFamilyOf(std::string_view op) const {
  const absl::Span<const AdapterFamily> families = AdapterFamilies();
  if (family_of_op_.empty()) {
    for (size_t i = 0; i < families.size(); ++i) {
      for (std::string_view name : families[i].ops) family_of_op_.emplace(name, i);
    }
  }
  if (const auto it = family_of_op_.find(op); it != family_of_op_.end()) RegisterFamily(it->second);
}

void AdapterRegistry::RegisterAllFamilies() const {
  for (size_t i = 0; i < AdapterFamilies().size(); ++i) RegisterFamily(i);
}

void AdapterRegistry::RegisterFamily(size_t i) const {
  if ((families_registered_ >> i & 1) != 0) return;
  families_registered_ |= uint64_t{1} << i;
  // Only the global registry registers on demand, and it was made non-const (Global).
  AdapterFamilies()[i].register_adapters(const_cast<AdapterRegistry&>(*this));
}

const AdapterEntry* AdapterRegistry::Find(std::string_view domain, std::string_view op, int from,
                                          int to) const {
  absl::MutexLock lock(&mu_);
  if (families_on_demand_) RegisterFamilyOf(op);
  if (auto it = index_.find(Key{domain, op, from, to}); it != index_.end()) return it->second;
  if (to != kNotDefined || from <= 1 || (domain != "ai.onnx" && domain != "ai.onnx.ml"))
    return nullptr;
  absl::Span<const int> versions = schema::Versions(domain, op);
  if (versions.empty() || versions.front() != from) return nullptr;
  if (auto it = refusal_index_.find(Key{domain, op, from, to}); it != refusal_index_.end())
    return it->second;
  const AdapterEntry& e = Append(
      refusals_, domain, op, from, to, AdapterKind::kRefuse, "no expansion into older operators",
      Refuse(absl::StrCat(std::string(op), " was introduced at ", std::string(domain), " opset ",
                          from, " and has no expansion into older operators")));
  refusal_index_.emplace(Key{e.domain, e.op, from, to}, &e);
  return &e;
}

std::vector<const AdapterEntry*> AdapterRegistry::AllEntries() const {
  if (families_on_demand_) {
    absl::MutexLock lock(&mu_);
    RegisterAllFamilies();
  }
  for (const schema::OpSchema* s : schema::AllSchemas()) {
    Find(s->domain(), s->op_type(), s->since_version(), kNotDefined);
  }
  std::vector<const AdapterEntry*> all;
  absl::MutexLock lock(&mu_);
  for (const auto& [key, entry] : index_) all.push_back(entry);
  for (const auto& [key, entry] : refusal_index_) all.push_back(entry);
  std::sort(all.begin(), all.end(), [](const AdapterEntry* a, const AdapterEntry* b) {
    return std::tie(a->domain, a->op, a->from, a->to) < std::tie(b->domain, b->op, b->from, b->to);
  });
  return all;
}

std::vector<const AdapterEntry*> AdapterRegistry::RegisteredEntries() const {
  absl::MutexLock lock(&mu_);
  std::vector<const AdapterEntry*> all;
  for (const AdapterEntry& e : entries_) all.push_back(&e);
  return all;
}

}  // namespace onnx_opt::converter
