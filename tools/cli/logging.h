// glog for the tools: everything on stderr (no log files), each line prefixed with the tool's name
// ("onnx-opt: ...", "onnx-opt: warning: ..."), INFO lines silenced by --quiet.
#ifndef ONNX_OPT_TOOLS_CLI_LOGGING_H_
#define ONNX_OPT_TOOLS_CLI_LOGGING_H_

#include <string>

#include "gflags/gflags.h"

DECLARE_bool(quiet);

namespace onnx_opt::cli {

// Once, after the flags are parsed.
void InitLogging(const std::string& tool);

}  // namespace onnx_opt::cli

#endif  // ONNX_OPT_TOOLS_CLI_LOGGING_H_
