// --time-phases: where a tool's run went, one line on stderr when the run ends, e.g.
//   onnx-opt: phases (ms): load=3.10 check=1.21 passes=5.02 check-result=0.98 save=2.12 total=12.43
//   onnx-opt: page faults: load=1020 check=12 passes=240 check-result=8 save=310 total=1650
// so the whole-process benchmark (tools/bench/process_bench.cc) can tell loading from passes,
// checks and saving. "total" is the time since the PhaseTimes was made, which is soon after main()
// starts. The second line counts first touches of memory (minor page faults, each a few
// microseconds of kernel time that no profile of our code shows), the larger part of some phases'
// time.
#ifndef ONNX_OPT_TOOLS_CLI_PHASE_TIMES_H_
#define ONNX_OPT_TOOLS_CLI_PHASE_TIMES_H_

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gflags/gflags.h"

DECLARE_bool(time_phases);

namespace onnx_opt::cli {

class PhaseTimes {
 public:
  explicit PhaseTimes(std::string tool);
  // Prints the lines when --time-phases is set, however the run ends.
  ~PhaseTimes();
  PhaseTimes(const PhaseTimes&) = delete;
  PhaseTimes& operator=(const PhaseTimes&) = delete;

  // Ends the running phase (if any) and starts `phase`; a phase begun twice adds up.
  void Begin(std::string_view phase);

 private:
  // Adds the time and faults since the running phase (if any) began to it; `faults` is the count
  // now.
  void EndRunning(std::chrono::steady_clock::time_point now, int64_t faults);

  const std::string tool_;
  const std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point phase_start_;
  int64_t phase_start_faults_;
  const int64_t start_faults_;
  int running_ = -1;  // index into phases_
  struct Phase {
    std::string name;
    std::chrono::steady_clock::duration time;
    int64_t faults;
  };
  std::vector<Phase> phases_;
};

}  // namespace onnx_opt::cli

#endif  // ONNX_OPT_TOOLS_CLI_PHASE_TIMES_H_
