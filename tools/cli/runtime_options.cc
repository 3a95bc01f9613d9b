#include "tools/cli/runtime_options.h"

#include <sys/resource.h>

#include <algorithm>
#include <thread>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "interpreter/cpu/isa.h"
#include "interpreter/cpu/thread_pool.h"

// 0 stands for "not given": each tool has its own default (onnx-run 1, onnx-opt all cores).
DEFINE_int32(
    threads, 0,
    "N: threads the interpreter runs large matrix products on (default: 1 in onnx-run, all cores "
    "elsewhere); outputs are the same bits for every N");
DEFINE_string(isa, "",
              "NAME: instruction set of the vector kernels: baseline, avx2 or avx512 (default: the "
              "best this CPU "
              "has; ONNX_OPT_ISA in the environment also lowers it)");

namespace onnx_opt::cli {

absl::Status ApplyThreadsFlag(int default_threads) {
  const bool given = !gflags::GetCommandLineFlagInfoOrDie("threads").is_default;
  const int threads = given ? FLAGS_threads : default_threads;
  if (threads < 1 || threads > kMaxThreads) {
    return absl::InvalidArgumentError(
        absl::StrCat("--threads needs a whole number from 1 to ", kMaxThreads, ", got ", threads));
  }
  interpreter::SetNumThreads(threads);
  return absl::OkStatus();
}

int AllCores() { return std::max(1, static_cast<int>(std::thread::hardware_concurrency())); }

absl::Status ApplyIsaFlag() {
  if (FLAGS_isa.empty()) return absl::OkStatus();
  absl::StatusOr<interpreter::Isa> isa = interpreter::ParseIsa(FLAGS_isa);
  if (!isa.ok()) return absl::InvalidArgumentError(absl::StrCat("--isa: ", isa.status().message()));
  if (absl::Status s = interpreter::SetActiveIsa(*isa); !s.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("--isa: ", s.message()));
  }
  return absl::OkStatus();
}

double PeakRssMib() {
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) != 0) return 0;
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // Linux reports KiB
}

}  // namespace onnx_opt::cli
