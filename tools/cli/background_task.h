// Work a tool starts early on its second core because it will need the result later (a registry
// that takes a while to build), joined when the task goes out of scope, however the run ends.
#ifndef ONNX_OPT_TOOLS_CLI_BACKGROUND_TASK_H_
#define ONNX_OPT_TOOLS_CLI_BACKGROUND_TASK_H_

#include <functional>
#include <thread>
#include <utility>

namespace onnx_opt::cli {

class BackgroundTask {
 public:
  explicit BackgroundTask(std::function<void()> work) : thread_(std::move(work)) {}
  ~BackgroundTask() { thread_.join(); }
  BackgroundTask(const BackgroundTask&) = delete;
  BackgroundTask& operator=(const BackgroundTask&) = delete;

 private:
  std::thread thread_;
};

}  // namespace onnx_opt::cli

#endif  // ONNX_OPT_TOOLS_CLI_BACKGROUND_TASK_H_
