#include "optimizer/pass_registry.h"

#include <algorithm>

#include "glog/logging.h"

namespace onnx_opt::optimizer {

PassRegistry& PassRegistry::Global() {
  static PassRegistry* registry = new PassRegistry();
  return *registry;
}

// Registration runs in static initializers, from our own code only: a name registered twice is a
// bug of ours, not something a user can cause.
void PassRegistry::RegisterPass(std::string name, std::string summary, PassFactory factory) {
  CHECK(!passes_.count(name) && !groups_.count(name)) << "pass '" << name << "' registered twice";
  passes_[name] = PassInfo{name, std::move(summary), std::move(factory)};
}

void PassRegistry::RegisterGroup(std::string name, std::string summary, std::string pipeline) {
  CHECK(!passes_.count(name) && !groups_.count(name)) << "group '" << name << "' registered twice";
  groups_[name] = GroupInfo{name, std::move(summary), std::move(pipeline)};
}

const PassInfo* PassRegistry::FindPass(const std::string& name) const {
  auto it = passes_.find(name);
  return it == passes_.end() ? nullptr : &it->second;
}

const GroupInfo* PassRegistry::FindGroup(const std::string& name) const {
  auto it = groups_.find(name);
  return it == groups_.end() ? nullptr : &it->second;
}

std::vector<std::string> PassRegistry::Names() const {
  std::vector<std::string> out;
  for (const auto& [name, info] : groups_) out.push_back(name);
  for (const auto& [name, info] : passes_) out.push_back(name);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace onnx_opt::optimizer
