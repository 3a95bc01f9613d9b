#include "tools/cli/argv_forms.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace onnx_opt::cli {
namespace {

using ::testing::ElementsAre;

const ArgvForms kForms = {{{"o", "output"}, {"h", "help"}}, {"dim", "shape"}};

TEST(ArgvFormsTest, AliasesBecomeLongFlags) {
  EXPECT_THAT(RewriteArgv({"in.onnx", "-o", "out.onnx", "-h"}, kForms),
              ElementsAre("in.onnx", "--output", "out.onnx", "--help"));
  EXPECT_THAT(RewriteArgv({"-o=-", "-"}, kForms), ElementsAre("--output=-", "-"));
}

TEST(ArgvFormsTest, RepeatedFlagsJoinIntoOneList) {
  EXPECT_THAT(RewriteArgv({"--dim", "N=1", "m.onnx", "--dim=M=2", "-dim", "K=3", "--shape", "x=1,2",
                           "--shape=y="},
                          kForms),
              ElementsAre("--dim=N=1,M=2,K=3", "m.onnx", "--shape=x=1,2,y="));
}

TEST(ArgvFormsTest, LeavesEverythingElseAsWritten) {
  EXPECT_THAT(RewriteArgv({"--seed", "-1", "-verify", "--", "-o", "--dim", "x"}, kForms),
              ElementsAre("--seed", "-1", "-verify", "--", "-o", "--dim", "x"));
  // A trailing flag without its value is gflags' to report.
  EXPECT_THAT(RewriteArgv({"--dim"}, kForms), ElementsAre("--dim"));
}

}  // namespace
}  // namespace onnx_opt::cli
