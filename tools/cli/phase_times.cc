#include "tools/cli/phase_times.h"

#include <cstdio>

DEFINE_bool(time_phases, false,
            "print on stderr how many ms the run spent loading, checking, rewriting and saving the model");

namespace onnx_opt::cli {
namespace {

double Ms(std::chrono::steady_clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

}  // namespace

PhaseTimes::PhaseTimes(std::string tool)
    : tool_(std::move(tool)), start_(std::chrono::steady_clock::now()), phase_start_(start_) {}

void PhaseTimes::Begin(std::string_view phase) {
  const auto now = std::chrono::steady_clock::now();
  if (running_ >= 0) phases_[running_].second += now - phase_start_;
  phase_start_ = now;
  running_ = -1;
  for (size_t i = 0; i < phases_.size(); ++i) {
    if (phases_[i].first == phase) running_ = static_cast<int>(i);
  }
  if (running_ < 0) {
    phases_.emplace_back(std::string(phase), std::chrono::steady_clock::duration::zero());
    running_ = static_cast<int>(phases_.size()) - 1;
  }
}

PhaseTimes::~PhaseTimes() {
  if (!FLAGS_time_phases) return;
  const auto now = std::chrono::steady_clock::now();
  if (running_ >= 0) phases_[running_].second += now - phase_start_;
  // One write, so the line is not interleaved with other stderr output.
  std::string line = tool_ + ": phases (ms):";
  char number[32];
  for (const auto& [name, time] : phases_) {
    std::snprintf(number, sizeof(number), "=%.3f", Ms(time));
    line += " " + name + number;
  }
  std::snprintf(number, sizeof(number), "=%.3f\n", Ms(now - start_));
  line += std::string(" total") + number;
  std::fputs(line.c_str(), stderr);
}

}  // namespace onnx_opt::cli
