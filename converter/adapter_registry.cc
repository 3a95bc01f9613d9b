// The global adapter registry: every operator family registers its adapters here, once. Operators
// introduced after opset 1 that no family can rewrite into older operators get an adapter that
// refuses the downgrade with a clear reason, made when a conversion first asks for it.
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
    RegisterMathAdapters(*r);
    RegisterActivationAdapters(*r);
    RegisterNormalizationAdapters(*r);
    RegisterReductionAdapters(*r);
    RegisterTensorAdapters(*r);
    RegisterIndexingAdapters(*r);
    RegisterNnAdapters(*r);
    RegisterResizeAdapters(*r);
    RegisterRnnAdapters(*r);
    RegisterQuantizationAdapters(*r);
    RegisterControlFlowAdapters(*r);
    RegisterMiscAdapters(*r);
    RegisterMlAdapters(*r);
    return r;
  }();
  return *registry;
}

const AdapterEntry* AdapterRegistry::Find(std::string_view domain, std::string_view op, int from,
                                          int to) const {
  if (auto it = index_.find(Key{domain, op, from, to}); it != index_.end()) return it->second;
  if (to != kNotDefined || from <= 1 || (domain != "ai.onnx" && domain != "ai.onnx.ml")) return nullptr;
  absl::Span<const int> versions = schema::Versions(domain, op);
  if (versions.empty() || versions.front() != from) return nullptr;
  absl::MutexLock lock(&refusals_mutex_);
  if (auto it = refusal_index_.find(Key{domain, op, from, to}); it != refusal_index_.end()) return it->second;
  const AdapterEntry& e =
      Append(refusals_, domain, op, from, to, AdapterKind::kRefuse, "no expansion into older operators",
             Refuse(absl::StrCat(std::string(op), " was introduced at ", std::string(domain), " opset ", from,
                                 " and has no expansion into older operators")));
  refusal_index_.emplace(Key{e.domain, e.op, from, to}, &e);
  return &e;
}

std::vector<const AdapterEntry*> AdapterRegistry::AllEntries() const {
  for (const schema::OpSchema* s : schema::AllSchemas()) {
    Find(s->domain(), s->op_type(), s->since_version(), kNotDefined);
  }
  std::vector<const AdapterEntry*> all;
  for (const auto& [key, entry] : index_) all.push_back(entry);
  {
    absl::MutexLock lock(&refusals_mutex_);
    for (const auto& [key, entry] : refusal_index_) all.push_back(entry);
  }
  std::sort(all.begin(), all.end(), [](const AdapterEntry* a, const AdapterEntry* b) {
    return std::tie(a->domain, a->op, a->from, a->to) < std::tie(b->domain, b->op, b->from, b->to);
  });
  return all;
}

}  // namespace onnx_opt::converter
