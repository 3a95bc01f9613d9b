#include "tools/cli/command_line.h"

#include <cstdlib>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "platform/process_start.h"
#include "tools/cli/input_flags.h"

DEFINE_int32(test_count, 1, "N: a count");
DEFINE_bool(test_switch, false, "a switch");
DEFINE_string(output, "", "FILE: where to write");

namespace onnx_opt::cli {
namespace {

using ::testing::ElementsAre;

ParsedCommandLine Parse(std::vector<std::string> args) {
  args.insert(args.begin(), "tool");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  Tool tool{"tool",
            "usage: tool [flags] MODEL...\n",
            __FILE__,
            {{{"o", "output"}}, RepeatedInputFlags()}};
  return ParseCommandLine(static_cast<int>(argv.size()), argv.data(), tool);
}

TEST(CommandLineTest, FlagsAndPositionalArguments) {
  gflags::FlagSaver restore;
  ParsedCommandLine parsed = Parse({"a.onnx", "-o", "-", "--test-count", "3", "-", "--test_switch",
                                    "--dim", "N=2", "--dim=M=3", "b.onnx"});
  EXPECT_FALSE(parsed.exit_status.has_value());
  EXPECT_THAT(parsed.positional, ElementsAre("a.onnx", "-", "b.onnx"));
  EXPECT_EQ(FLAGS_output, "-");
  EXPECT_EQ(FLAGS_test_count, 3);
  EXPECT_TRUE(FLAGS_test_switch);
  EXPECT_EQ(FLAGS_dim, "N=2,M=3");
}

// Bazel runs tests without USER, as it runs actions: the process start set it for glog's static
// initializer, and parsing the command line took it away again.
TEST(CommandLineTest, UserSetForStaticInitializersIsGoneAfterParsing) {
  gflags::FlagSaver restore;
  Parse({"a.onnx"});
  if (platform::UserWasSetAtStart()) {
    EXPECT_EQ(std::getenv("USER"), nullptr);
  } else {
    ASSERT_NE(std::getenv("USER"), nullptr) << "the start only leaves USER alone when it was set";
  }
}

TEST(CommandLineTest, UsageErrorsExitTwoAndSetNothing) {
  gflags::FlagSaver restore;
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"--bogus"},
                                             {"--test_count=x"},
                                             {"--test_count"},
                                             {"--test_count=1", "--test_switch=maybe"},
                                             {"--notest_count"},
                                             {"-x"}}) {
    ParsedCommandLine parsed = Parse(args);
    EXPECT_EQ(parsed.exit_status, 2) << args[0];
    EXPECT_EQ(FLAGS_test_count, 1) << args[0];
  }
}

TEST(CommandLineTest, NegatedBoolean) {
  gflags::FlagSaver restore;
  FLAGS_test_switch = true;
  EXPECT_FALSE(Parse({"--notest_switch"}).exit_status.has_value());
  EXPECT_FALSE(FLAGS_test_switch);
}

}  // namespace
}  // namespace onnx_opt::cli
