#include "tools/cli/runtime_options.h"

#include <sys/resource.h>

#include <algorithm>
#include <thread>

#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "interpreter/cpu/isa.h"
#include "interpreter/cpu/thread_pool.h"

namespace onnx_opt::cli {

OptionSpec ThreadsOptionSpec(const std::string& default_text) {
  return {"threads", "", true, false, "N",
          absl::StrCat("threads the interpreter runs large matrix products on (", default_text,
                       "); outputs are the same bits for every N")};
}

OptionSpec IsaOptionSpec() {
  return {"isa", "", true, false, "NAME",
          "instruction set of the vector kernels: baseline, avx2 or avx512 (default: the best this CPU has)"};
}

absl::Status ApplyThreadsOption(const Args& args, int default_threads) {
  int threads = default_threads;
  if (std::optional<std::string> text = args.Get("threads")) {
    if (!absl::SimpleAtoi(*text, &threads) || threads < 1 || threads > kMaxThreads) {
      return absl::InvalidArgumentError(
          absl::StrCat("--threads needs a whole number from 1 to ", kMaxThreads, ", got '", *text, "'"));
    }
  }
  interpreter::SetNumThreads(threads);
  return absl::OkStatus();
}

int AllCores() { return std::max(1, static_cast<int>(std::thread::hardware_concurrency())); }

absl::Status ApplyIsaOption(const Args& args) {
  std::optional<std::string> name = args.Get("isa");
  if (!name) return absl::OkStatus();
  absl::StatusOr<interpreter::Isa> isa = interpreter::ParseIsa(*name);
  if (!isa.ok()) return absl::InvalidArgumentError(absl::StrCat("--isa: ", isa.status().message()));
  if (absl::Status s = interpreter::SetActiveIsa(*isa); !s.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("--isa: ", s.message()));
  }
  return absl::OkStatus();
}

std::string DescribeVectorKernels() {
  return absl::StrCat("vector kernels: ", std::string(interpreter::IsaName(interpreter::ActiveIsa())),
                      " (CPU supports ", std::string(interpreter::IsaName(interpreter::DetectedIsa())), ")");
}

double PeakRssMib() {
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) != 0) return 0;
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // Linux reports KiB
}

}  // namespace onnx_opt::cli
