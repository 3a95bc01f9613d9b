#include "tools/cli/runtime_options.h"

#include <string>

#include "gtest/gtest.h"
#include "interpreter/cpu/isa.h"
#include "interpreter/cpu/thread_pool.h"
#include "tools/cli/vector_kernels.h"

namespace onnx_opt::cli {
namespace {

TEST(RuntimeOptionsTest, Threads) {
  gflags::FlagSaver restore;
  EXPECT_TRUE(ApplyThreadsFlag(5).ok());
  EXPECT_EQ(interpreter::NumThreads(), 5);
  ASSERT_FALSE(gflags::SetCommandLineOption("threads", "2").empty());
  EXPECT_TRUE(ApplyThreadsFlag(5).ok());
  EXPECT_EQ(interpreter::NumThreads(), 2);
  for (const char* bad : {"0", "-1", "100000"}) {
    ASSERT_FALSE(gflags::SetCommandLineOption("threads", bad).empty());
    const absl::Status s = ApplyThreadsFlag(1);
    EXPECT_TRUE(absl::IsInvalidArgument(s)) << bad << ": " << s;
  }
  EXPECT_EQ(interpreter::NumThreads(), 2);
  interpreter::SetNumThreads(1);
  EXPECT_GE(AllCores(), 1);
}

TEST(RuntimeOptionsTest, Isa) {
  gflags::FlagSaver restore;
  const interpreter::Isa before = interpreter::ActiveIsa();
  EXPECT_TRUE(ApplyIsaFlag().ok());
  EXPECT_EQ(interpreter::ActiveIsa(), before);
  FLAGS_isa = "baseline";
  EXPECT_TRUE(ApplyIsaFlag().ok());
  EXPECT_EQ(interpreter::ActiveIsa(), interpreter::Isa::kBaseline);
  EXPECT_EQ(DescribeVectorKernels(),
            "vector kernels: baseline (CPU supports " +
                std::string(interpreter::IsaName(interpreter::DetectedIsa())) + ")");
  FLAGS_isa = "bogus";
  EXPECT_TRUE(absl::IsInvalidArgument(ApplyIsaFlag()));
  if (interpreter::DetectedIsa() < interpreter::Isa::kAvx512) {
    FLAGS_isa = "avx512";
    EXPECT_TRUE(absl::IsInvalidArgument(ApplyIsaFlag()));
  }
  ASSERT_TRUE(interpreter::SetActiveIsa(before).ok());
}

TEST(RuntimeOptionsTest, PeakRss) { EXPECT_GT(PeakRssMib(), 0.5); }

}  // namespace
}  // namespace onnx_opt::cli
