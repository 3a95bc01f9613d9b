// How the tools run the checker on a model they read or are about to write, so that all four report
// alike: the checker's warnings go to stderr, one "PREFIX: warning: ..." line each, and never fail
// anything; the result comes back for the tool's own error message.
#ifndef ONNX_OPT_TOOLS_MODEL_CHECK_H_
#define ONNX_OPT_TOOLS_MODEL_CHECK_H_

#include <string>

#include "ir/model.h"
#include "schema/checker/checker.h"

namespace onnx_opt::tools {

// `reported`: an earlier result (the input's) whose warnings were printed already and are not
// printed again for the result of a conversion or pipeline.
schema::checker::CheckResult CheckAndWarn(const ir::Model& model, const std::string& prefix,
                                          const schema::checker::CheckResult* reported = nullptr);

}  // namespace onnx_opt::tools

#endif  // ONNX_OPT_TOOLS_MODEL_CHECK_H_
