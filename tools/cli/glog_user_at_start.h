// glog names log files after the user, and looks the name up from a static initializer: USER from the
// environment, else getpwuid_r through NSS (nscd's socket, /etc/nsswitch.conf, /etc/passwd: ~0.3 ms
// of a tool's start on the machine this was measured on). Bazel actions and CI jobs run without USER,
// and the tools never write log files (glog logs to stderr only, logging.h). So before any static
// initializer runs (the executable's .preinit_array), an unset USER is set to the empty string, which
// glog takes as the name without a lookup; ParseCommandLine unsets it again, so that what the tool
// reads or spawns (Graphviz's dot) sees the environment the tool was given.
#ifndef ONNX_OPT_TOOLS_CLI_GLOG_USER_AT_START_H_
#define ONNX_OPT_TOOLS_CLI_GLOG_USER_AT_START_H_

namespace onnx_opt::cli {

// Unsets USER if the start of the process set it; later calls do nothing.
void RestoreUserAfterStart();

// Whether the process started without USER (and USER was set for the static initializers).
bool UserWasSetAtStart();

}  // namespace onnx_opt::cli

#endif  // ONNX_OPT_TOOLS_CLI_GLOG_USER_AT_START_H_
