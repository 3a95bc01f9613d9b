#include "schema/inference/registry.h"

#include <algorithm>

#include "schema/domains.h"

namespace onnx_opt::schema::inference {
namespace {

std::string Key(std::string_view domain, std::string_view op) {
  const std::string_view d = CanonicalDomain(domain);
  std::string key;
  key.reserve(d.size() + 2 + op.size());
  return key.append(d).append("::").append(op);
}

}  // namespace

const InferenceRegistry& InferenceRegistry::Get() {
  static const InferenceRegistry* registry = [] {
    auto* r = new InferenceRegistry();
    r->entries_.reserve(512);
    RegisterElementwiseOps(*r);
    RegisterTensorOps(*r);
    RegisterShapeOps(*r);
    RegisterNnOps(*r);
    RegisterMathOps(*r);
    RegisterReductionOps(*r);
    RegisterRnnOps(*r);
    RegisterControlFlowOps(*r);
    RegisterSequenceOps(*r);
    RegisterMiscOps(*r);
    RegisterContribOps(*r);
    return r;
  }();
  return *registry;
}

void InferenceRegistry::Register(std::string_view domain, std::string_view op, int first, int last,
                                 InferFn fn) {
  entries_[Key(domain, op)].push_back(Entry{first, last, std::move(fn)});
}

const InferFn* InferenceRegistry::Find(std::string_view domain, std::string_view op,
                                       int since_version) const {
  auto it = entries_.find(Key(domain, op));
  if (it == entries_.end()) return nullptr;
  // Later registrations win, so a family file may override a broad entry with a narrower one.
  for (auto e = it->second.rbegin(); e != it->second.rend(); ++e) {
    if (since_version >= e->first && since_version <= e->last) return &e->fn;
  }
  return nullptr;
}

std::vector<std::string> InferenceRegistry::Keys() const {
  std::vector<std::string> keys;
  for (const auto& [k, v] : entries_) keys.push_back(k);
  std::sort(keys.begin(), keys.end());
  return keys;
}

}  // namespace onnx_opt::schema::inference
