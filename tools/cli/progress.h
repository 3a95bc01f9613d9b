// What a long run is doing, as INFO log lines on stderr: a run that ends within a second prints
// nothing, a longer one a line at most every second ("pass fuse-matmul-add: 1204 nodes, 3.1 s so
// far"). --quiet silences them (logging.h).
#ifndef ONNX_OPT_TOOLS_CLI_PROGRESS_H_
#define ONNX_OPT_TOOLS_CLI_PROGRESS_H_

#include <chrono>
#include <string_view>

namespace onnx_opt::cli {

class Progress {
 public:
  explicit Progress(std::chrono::steady_clock::duration interval = std::chrono::seconds(1));

  // Logs `what` with the time since construction, when `interval` has passed since the last line
  // (or since construction).
  void Report(std::string_view what);

 private:
  const std::chrono::steady_clock::duration interval_;
  const std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_;
};

}  // namespace onnx_opt::cli

#endif  // ONNX_OPT_TOOLS_CLI_PROGRESS_H_
