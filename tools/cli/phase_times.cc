#include "tools/cli/phase_times.h"

#include <sys/resource.h>

#include <cstdio>

DEFINE_bool(
    time_phases, false,
    "print on stderr how many ms the run spent loading, checking, rewriting and saving the model");

namespace onnx_opt::cli {
namespace {

double Ms(std::chrono::steady_clock::duration d) {
  return std::chrono::duration<double, std::milli>(d).count();
}

// Minor page faults of the process so far (all threads).
int64_t MinorFaults() {
  rusage usage;
  if (::getrusage(RUSAGE_SELF, &usage) != 0) return 0;
  return usage.ru_minflt;
}

}  // namespace

PhaseTimes::PhaseTimes(std::string tool)
    : tool_(std::move(tool)),
      start_(std::chrono::steady_clock::now()),
      phase_start_(start_),
      phase_start_faults_(FLAGS_time_phases ? MinorFaults() : 0),
      start_faults_(phase_start_faults_) {}

void PhaseTimes::EndRunning(std::chrono::steady_clock::time_point now, int64_t faults) {
  if (running_ < 0) return;
  phases_[running_].time += now - phase_start_;
  phases_[running_].faults += faults - phase_start_faults_;
}

void PhaseTimes::Begin(std::string_view phase) {
  const auto now = std::chrono::steady_clock::now();
  const int64_t faults = FLAGS_time_phases ? MinorFaults() : 0;
  EndRunning(now, faults);
  phase_start_ = now;
  phase_start_faults_ = faults;
  running_ = -1;
  for (size_t i = 0; i < phases_.size(); ++i) {
    if (phases_[i].name == phase) running_ = static_cast<int>(i);
  }
  if (running_ < 0) {
    phases_.push_back({std::string(phase), std::chrono::steady_clock::duration::zero(), 0});
    running_ = static_cast<int>(phases_.size()) - 1;
  }
}

PhaseTimes::~PhaseTimes() {
  if (!FLAGS_time_phases) return;
  const auto now = std::chrono::steady_clock::now();
  const int64_t faults = MinorFaults();
  EndRunning(now, faults);
  // One write, so the lines are not interleaved with other stderr output.
  std::string lines = tool_ + ": phases (ms):";
  char number[32];
  for (const Phase& p : phases_) {
    std::snprintf(number, sizeof(number), "=%.3f", Ms(p.time));
    lines += " " + p.name + number;
  }
  std::snprintf(number, sizeof(number), "=%.3f\n", Ms(now - start_));
  lines += std::string(" total") + number + tool_ + ": page faults:";
  for (const Phase& p : phases_) lines += " " + p.name + "=" + std::to_string(p.faults);
  lines += " total=" + std::to_string(faults - start_faults_) + "\n";
  std::fputs(lines.c_str(), stderr);
}

}  // namespace onnx_opt::cli
