#include "tools/lib/model_check.h"

#include <algorithm>
#include <iostream>

namespace onnx_opt::tools {

WarningSink StderrWarnings(const std::string& prefix) {
  return [prefix](const std::string& w) { std::cerr << prefix << ": warning: " << w << "\n"; };
}

schema::checker::CheckResult CheckAndWarn(const ir::Model& model, const WarningSink& warn,
                                          const schema::checker::CheckResult* reported) {
  schema::checker::CheckResult result = schema::checker::Check(model);
  for (const std::string& w : result.warnings) {
    if (reported != nullptr && std::find(reported->warnings.begin(), reported->warnings.end(), w) !=
                                   reported->warnings.end()) {
      continue;
    }
    warn(w);
  }
  return result;
}

}  // namespace onnx_opt::tools
