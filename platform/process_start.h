// What a tool process does before any static initializer runs, from one entry in the executable's
// .preinit_array (so no step depends on the order in which libraries are linked). In this order:
//
// 1. USER for glog. glog names log files after the user and looks the name up from a static
//    initializer: USER from the environment, else getpwuid_r through NSS (nscd's socket,
//    /etc/nsswitch.conf, /etc/passwd: ~0.3 ms of a start where it was measured). Bazel actions and
//    CI jobs run without USER, and the tools never write log files (glog logs to stderr only), so
//    an unset USER is set to the empty string, which glog takes without a lookup; the command line
//    (tools/cli/command_line.h) unsets it again, so that what the tool reads or spawns (Graphviz's
//    dot) sees the environment the tool was given.
// 2. The heap (heap_tuning.h), before static initializers allocate on 4 KiB pages at its bottom;
//    skipped for --version, which allocates next to nothing.
//
// Linked into executables only (an executable alone has a .preinit_array): the tools, through their
// command-line library. Library code never links it.
#ifndef ONNX_OPT_PLATFORM_PROCESS_START_H_
#define ONNX_OPT_PLATFORM_PROCESS_START_H_

namespace onnx_opt::platform {

// Unsets USER if the start of the process set it; later calls do nothing.
void RestoreUserAfterStart();

// Whether the process started without USER (and USER was set for the static initializers).
bool UserWasSetAtStart();

}  // namespace onnx_opt::platform

#endif  // ONNX_OPT_PLATFORM_PROCESS_START_H_
