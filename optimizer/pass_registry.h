// Passes and groups by name. Passes register themselves at start-up (see REGISTER_PASS); groups are
// named pipelines such as "fold" or "default".
#ifndef ONNX_OPT_OPTIMIZER_PASS_REGISTRY_H_
#define ONNX_OPT_OPTIMIZER_PASS_REGISTRY_H_

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "optimizer/pass.h"

namespace onnx_opt::optimizer {

using PassFactory = std::function<std::unique_ptr<Pass>(const std::vector<std::string>& args)>;

struct PassInfo {
  std::string name;
  std::string summary;
  PassFactory factory;
};

struct GroupInfo {
  std::string name;
  std::string summary;
  std::string pipeline;  // pipeline text, e.g. "fixed(fold,dce)"
};

class PassRegistry {
 public:
  static PassRegistry& Global();

  void RegisterPass(std::string name, std::string summary, PassFactory factory);
  void RegisterGroup(std::string name, std::string summary, std::string pipeline);

  const PassInfo* FindPass(const std::string& name) const;
  const GroupInfo* FindGroup(const std::string& name) const;
  // Every pass and group name, sorted, for "unknown pass" messages.
  std::vector<std::string> Names() const;
  const std::map<std::string, PassInfo>& passes() const { return passes_; }
  const std::map<std::string, GroupInfo>& groups() const { return groups_; }

 private:
  std::map<std::string, PassInfo> passes_;
  std::map<std::string, GroupInfo> groups_;
};

// Registers a pass at start-up: REGISTER_PASS(MyPass, "my-pass", "what it does");
// the class needs a constructor taking no arguments.
#define REGISTER_PASS(Class, name, summary)                                                        \
  static const bool registered_pass_##Class = [] {                                                 \
    ::onnx_opt::optimizer::PassRegistry::Global().RegisterPass(                                    \
        name, summary, [](const std::vector<std::string>&) { return std::make_unique<Class>(); }); \
    return true;                                                                                   \
  }()

// A pass that takes arguments (`name(a,b)` in a pipeline): `Class::Create(args)` returns it, or
// null for arguments it does not take (a usage error naming the pass).
#define REGISTER_PASS_WITH_ARGS(Class, name, summary)                                          \
  static const bool registered_pass_##Class = [] {                                             \
    ::onnx_opt::optimizer::PassRegistry::Global().RegisterPass(name, summary, &Class::Create); \
    return true;                                                                               \
  }()

#define REGISTER_PASS_GROUP(id, name, summary, pipeline)                                  \
  static const bool registered_group_##id = [] {                                          \
    ::onnx_opt::optimizer::PassRegistry::Global().RegisterGroup(name, summary, pipeline); \
    return true;                                                                          \
  }()

}  // namespace onnx_opt::optimizer

#endif  // ONNX_OPT_OPTIMIZER_PASS_REGISTRY_H_
