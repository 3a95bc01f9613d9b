// The interpreter's run-time flags shared by the tools that run it: --threads=N
// (interpreter/cpu/thread_pool.h) and --isa=NAME (the vector kernels' instruction set,
// interpreter/cpu/isa.h).
#ifndef ONNX_OPT_TOOLS_CLI_RUNTIME_OPTIONS_H_
#define ONNX_OPT_TOOLS_CLI_RUNTIME_OPTIONS_H_

#include "absl/status/status.h"
#include "gflags/gflags.h"

DECLARE_int32(threads);
DECLARE_string(isa);

namespace onnx_opt::cli {

// Sets the interpreter's thread count from --threads, or to `default_threads` when it was not
// given. A count outside 1..kMaxThreads is a usage error (InvalidArgument).
inline constexpr int kMaxThreads = 1024;
absl::Status ApplyThreadsFlag(int default_threads);

// The machine's hardware threads (std::thread::hardware_concurrency, at least 1).
int AllCores();

// Forces the vector kernels' ISA from --isa when given; an unknown name, or an ISA this CPU lacks,
// is a usage error (InvalidArgument).
absl::Status ApplyIsaFlag();

// The peak resident set size of this process so far, in MiB (getrusage's ru_maxrss).
double PeakRssMib();

}  // namespace onnx_opt::cli

#endif  // ONNX_OPT_TOOLS_CLI_RUNTIME_OPTIONS_H_
