#include "tools/cli/runtime_options.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "interpreter/cpu/isa.h"
#include "interpreter/cpu/thread_pool.h"

namespace onnx_opt::cli {
namespace {

Args Parsed(std::vector<std::string> argv) {
  Args args({ThreadsOptionSpec("default 1"), IsaOptionSpec()});
  argv.insert(argv.begin(), "tool");
  std::vector<char*> ptrs;
  for (std::string& s : argv) ptrs.push_back(s.data());
  EXPECT_TRUE(args.Parse(static_cast<int>(ptrs.size()), ptrs.data()).ok());
  return args;
}

TEST(RuntimeOptionsTest, Threads) {
  EXPECT_TRUE(ApplyThreadsOption(Parsed({}), 5).ok());
  EXPECT_EQ(interpreter::NumThreads(), 5);
  EXPECT_TRUE(ApplyThreadsOption(Parsed({"--threads=2"}), 5).ok());
  EXPECT_EQ(interpreter::NumThreads(), 2);
  for (const char* bad : {"--threads=0", "--threads=-1", "--threads=x", "--threads=", "--threads=100000"}) {
    const absl::Status s = ApplyThreadsOption(Parsed({bad}), 1);
    EXPECT_TRUE(absl::IsInvalidArgument(s)) << bad << ": " << s;
  }
  EXPECT_EQ(interpreter::NumThreads(), 2);
  interpreter::SetNumThreads(1);
  EXPECT_GE(AllCores(), 1);
}

TEST(RuntimeOptionsTest, Isa) {
  const interpreter::Isa before = interpreter::ActiveIsa();
  EXPECT_TRUE(ApplyIsaOption(Parsed({})).ok());
  EXPECT_EQ(interpreter::ActiveIsa(), before);
  EXPECT_TRUE(ApplyIsaOption(Parsed({"--isa=baseline"})).ok());
  EXPECT_EQ(interpreter::ActiveIsa(), interpreter::Isa::kBaseline);
  EXPECT_EQ(DescribeVectorKernels(), "vector kernels: baseline (CPU supports " +
                                         std::string(interpreter::IsaName(interpreter::DetectedIsa())) + ")");
  EXPECT_TRUE(absl::IsInvalidArgument(ApplyIsaOption(Parsed({"--isa=bogus"}))));
  if (interpreter::DetectedIsa() < interpreter::Isa::kAvx512) {
    EXPECT_TRUE(absl::IsInvalidArgument(ApplyIsaOption(Parsed({"--isa=avx512"}))));
  }
  ASSERT_TRUE(interpreter::SetActiveIsa(before).ok());
}

TEST(RuntimeOptionsTest, PeakRss) { EXPECT_GT(PeakRssMib(), 0.5); }

}  // namespace
}  // namespace onnx_opt::cli
