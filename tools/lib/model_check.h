// How the tools run the checker on a model they read or are about to write, so that all four report
// alike: the checker's warnings go to stderr, one "PREFIX: warning: ..." line each, and never fail
// anything; the result comes back for the tool's own error message. The Python module (python/)
// sends the same warnings to Python's warnings module through a sink instead.
#ifndef ONNX_OPT_TOOLS_LIB_MODEL_CHECK_H_
#define ONNX_OPT_TOOLS_LIB_MODEL_CHECK_H_

#include <functional>
#include <string>

#include "ir/model.h"
#include "schema/checker/checker.h"

namespace onnx_opt::tools {

// Receives one checker warning (without prefix).
using WarningSink = std::function<void(const std::string& warning)>;

// A sink printing "PREFIX: warning: WARNING" lines on stderr.
WarningSink StderrWarnings(const std::string& prefix);

// `reported`: an earlier result (the input's) whose warnings were reported already and are not
// reported again for the result of a conversion or pipeline.
schema::checker::CheckResult CheckAndWarn(const ir::Model& model, const WarningSink& warn,
                                          const schema::checker::CheckResult* reported = nullptr);

}  // namespace onnx_opt::tools

#endif  // ONNX_OPT_TOOLS_LIB_MODEL_CHECK_H_
