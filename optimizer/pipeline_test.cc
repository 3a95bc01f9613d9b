#include "optimizer/pipeline.h"

#include "gtest/gtest.h"
#include "ir/status_macros.h"

namespace onnx_opt::optimizer {
namespace {

// Records its name into a shared log; reports "changed" while its budget lasts.
class LoggingPass final : public Pass {
 public:
  LoggingPass(std::string name, std::vector<std::string>* log, int* budget)
      : name_(std::move(name)), log_(log), budget_(budget) {}
  std::string_view name() const override { return name_; }
  absl::StatusOr<bool> Run(ir::Model&, PassContext&) override {
    log_->push_back(name_);
    if (*budget_ > 0) {
      --*budget_;
      return true;
    }
    return false;
  }

 private:
  std::string name_;
  std::vector<std::string>* log_;
  int* budget_;
};

class PipelineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* name : {"a", "b", "c"}) {
      registry_.RegisterPass(
          name, "test pass",
          [this, name](const std::vector<std::string>& args) -> std::unique_ptr<Pass> {
            if (!args.empty()) return nullptr;
            return std::make_unique<LoggingPass>(name, &log_, &budget_);
          });
    }
    registry_.RegisterGroup("ab", "a then b", "a,b");
    registry_.RegisterGroup("loop", "refers to itself", "a,loop");
  }

  absl::StatusOr<bool> RunText(const std::string& text) {
    ASSIGN_OR_RETURN(std::unique_ptr<Pass> pass, ParsePipeline(text, registry_));
    ir::Model model;
    PassContext ctx;
    return pass->Run(model, ctx);
  }

  PassRegistry registry_;
  std::vector<std::string> log_;
  int budget_ = 0;
};

TEST_F(PipelineTest, SequenceRunsInOrder) {
  ASSERT_TRUE(RunText("a, c ,b").ok());
  EXPECT_EQ(log_, (std::vector<std::string>{"a", "c", "b"}));
}

TEST_F(PipelineTest, GroupsExpand) {
  ASSERT_TRUE(RunText("c,ab").ok());
  EXPECT_EQ(log_, (std::vector<std::string>{"c", "a", "b"}));
}

TEST_F(PipelineTest, FixedPointStopsOnARoundWithoutChange) {
  budget_ = 3;  // the first three pass runs report a change
  auto pass = ParsePipeline("fixed(a,b)", registry_);
  ASSERT_TRUE(pass.ok()) << pass.status();
  ir::Model model;
  PassContext ctx;
  absl::StatusOr<bool> changed = (*pass)->Run(model, ctx);
  ASSERT_TRUE(changed.ok());
  EXPECT_TRUE(*changed);
  // Round 1: a(change) b(change); round 2: a(change) b; round 3: a b -> no change, stop.
  EXPECT_EQ(log_, (std::vector<std::string>{"a", "b", "a", "b", "a", "b"}));
}

TEST_F(PipelineTest, FixedPointHonoursItsBoundAndCountsStoppingThere) {
  budget_ = 1000;
  auto pass = ParsePipeline("fixed<4>(a)", registry_);
  ASSERT_TRUE(pass.ok()) << pass.status();
  ir::Model model;
  PassContext ctx;
  ASSERT_TRUE((*pass)->Run(model, ctx).ok());
  EXPECT_EQ(log_.size(), 4u);
  EXPECT_EQ(ctx.fixed_points_at_limit(), 1);
  // A loop that reaches its fixed point within the limit is not counted.
  budget_ = 1;
  PassContext ctx2;
  ASSERT_TRUE((*pass)->Run(model, ctx2).ok());
  EXPECT_EQ(ctx2.fixed_points_at_limit(), 0);
}

TEST_F(PipelineTest, UnknownNameListsValidOnes) {
  absl::StatusOr<bool> r = RunText("a,nope");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "unknown pass 'nope'; valid passes and groups: a, ab, b, c, loop");
}

// Mistakes in the text are InvalidArgument (a tool's usage error); a group that expands into itself
// is the registry's fault and is not.
TEST_F(PipelineTest, SyntaxErrorsAndRecursionAreReported) {
  for (const char* text :
       {"", "a,", "fixed(a", "fixed<0>(a)", "fixed<99999999999>(a)", "fixed<1000001>(a)", "a b",
        "a(1)" /* a takes no arguments */, "a,nope"}) {
    absl::StatusOr<bool> r = RunText(text);
    EXPECT_TRUE(absl::IsInvalidArgument(r.status())) << text << ": " << r.status();
  }
  absl::StatusOr<bool> r = RunText("loop");
  EXPECT_TRUE(absl::IsInternal(r.status())) << r.status();
  EXPECT_NE(std::string(r.status().message()).find("expands into itself"), std::string::npos);
}

}  // namespace
}  // namespace onnx_opt::optimizer
