#include "tools/cli/progress.h"

#include "absl/strings/str_format.h"
#include "glog/logging.h"

namespace onnx_opt::cli {

Progress::Progress(std::chrono::steady_clock::duration interval)
    : interval_(interval), start_(std::chrono::steady_clock::now()), last_(start_) {}

void Progress::Report(std::string_view what) {
  const auto now = std::chrono::steady_clock::now();
  if (now - last_ < interval_) return;
  last_ = now;
  LOG(INFO) << what
            << absl::StrFormat(", %.1f s so far",
                               std::chrono::duration<double>(now - start_).count());
}

}  // namespace onnx_opt::cli
