#include "tools/cli/args.h"

#include "gtest/gtest.h"

namespace onnx_opt::cli {
namespace {

absl::Status ParseVec(Args& args, std::vector<std::string> argv) {
  std::vector<char*> ptrs;
  for (std::string& s : argv) ptrs.push_back(s.data());
  return args.Parse(static_cast<int>(ptrs.size()), ptrs.data());
}

std::vector<OptionSpec> Specs() {
  return {{"output", "o", true, false, "FILE", "where to write"},
          {"verify", "", false, false, "", "check outputs"},
          {"dim", "", true, true, "NAME=VALUE", "bind a dim"}};
}

TEST(ArgsTest, ParsesLongShortRepeatedAndPositional) {
  Args args(Specs());
  ASSERT_TRUE(ParseVec(args, {"tool", "in.onnx", "-o", "out.onnx", "--verify", "--dim=N=2",
                              "--dim", "M=3", "-"}).ok());
  EXPECT_EQ(args.Get("output"), "out.onnx");
  EXPECT_TRUE(args.Has("verify"));
  EXPECT_EQ(args.GetAll("dim"), (std::vector<std::string>{"N=2", "M=3"}));
  EXPECT_EQ(args.positional(), (std::vector<std::string>{"in.onnx", "-"}));
}

TEST(ArgsTest, RejectsUnknownMissingValueAndDuplicates) {
  {
    Args args(Specs());
    absl::Status s = ParseVec(args, {"tool", "--nope"});
    EXPECT_EQ(s.message(), "unknown option '--nope'");
  }
  {
    Args args(Specs());
    EXPECT_EQ(ParseVec(args, {"tool", "-o"}).message(), "option --output needs a value");
  }
  {
    Args args(Specs());
    EXPECT_FALSE(ParseVec(args, {"tool", "-o", "a", "--output=b"}).ok());
  }
  {
    Args args(Specs());
    EXPECT_FALSE(ParseVec(args, {"tool", "--verify=yes"}).ok());
  }
}

TEST(ArgsTest, HelpListsEveryOption) {
  Args args(Specs());
  const std::string help = args.OptionsHelp();
  EXPECT_NE(help.find("-o, --output=FILE"), std::string::npos) << help;
  EXPECT_NE(help.find("--verify"), std::string::npos);
  EXPECT_NE(help.find("--dim=NAME=VALUE"), std::string::npos);
}

}  // namespace
}  // namespace onnx_opt::cli
