// The interpreter's run-time options shared by the tools: --threads=N (interpreter/cpu/thread_pool.h)
// and --isa=NAME (the vector kernels' instruction set, interpreter/cpu/isa.h), and what --version and
// --time print about them.
#ifndef ONNX_OPT_TOOLS_CLI_RUNTIME_OPTIONS_H_
#define ONNX_OPT_TOOLS_CLI_RUNTIME_OPTIONS_H_

#include <string>

#include "absl/status/status.h"
#include "tools/cli/args.h"

namespace onnx_opt::cli {

// --threads=N; `default_text` ends the help line ("default 1").
OptionSpec ThreadsOptionSpec(const std::string& default_text);
// --isa=baseline|avx2|avx512.
OptionSpec IsaOptionSpec();

// Sets the interpreter's thread count from --threads, or to `default_threads` when it is absent. A
// value that is not a whole number from 1 to kMaxThreads is a usage error (InvalidArgument).
inline constexpr int kMaxThreads = 1024;
absl::Status ApplyThreadsOption(const Args& args, int default_threads);

// The machine's hardware threads (std::thread::hardware_concurrency, at least 1).
int AllCores();

// Forces the vector kernels' ISA from --isa when given; an unknown name, or an ISA this CPU lacks, is
// a usage error (InvalidArgument).
absl::Status ApplyIsaOption(const Args& args);

// "vector kernels: avx2 (CPU supports avx512)".
std::string DescribeVectorKernels();

// The peak resident set size of this process so far, in MiB (getrusage's ru_maxrss).
double PeakRssMib();

}  // namespace onnx_opt::cli

#endif  // ONNX_OPT_TOOLS_CLI_RUNTIME_OPTIONS_H_
