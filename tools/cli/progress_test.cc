#include "tools/cli/progress.h"

#include "glog/logging.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace onnx_opt::cli {
namespace {

TEST(ProgressTest, SaysNothingUntilTheIntervalHasPassed) {
  FLAGS_logtostderr = true;
  Progress slow(std::chrono::hours(1));
  testing::internal::CaptureStderr();
  slow.Report("pass fold-constants: 12 nodes");
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");

  Progress due(std::chrono::nanoseconds(0));
  testing::internal::CaptureStderr();
  due.Report("pass fold-constants: 12 nodes");
  EXPECT_THAT(testing::internal::GetCapturedStderr(),
              testing::MatchesRegex(".*pass fold-constants: 12 nodes, [0-9.]+ s so far\n"));
}

}  // namespace
}  // namespace onnx_opt::cli
