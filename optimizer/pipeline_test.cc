#include "optimizer/pipeline.h"

#include "gtest/gtest.h"

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
      registry_.RegisterPass(name, "test pass", [this, name](const std::vector<std::string>& args)
                                 -> std::unique_ptr<Pass> {
        if (!args.empty()) return nullptr;
        return std::make_unique<LoggingPass>(name, &log_, &budget_);
      });
    }
    registry_.RegisterGroup("ab", "a then b", "a,b");
    registry_.RegisterGroup("loop", "refers to itself", "a,loop");
  }

  absl::StatusOr<bool> RunText(const std::string& text) {
    auto pass = ParsePipeline(text, registry_);
    if (!pass.ok()) return pass.status();
    ir::Model model;
    PassContext ctx;
    return (*pass)->Run(model, ctx);
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

TEST_F(PipelineTest, FixedPointHonoursItsBound) {
  budget_ = 1000;
  ASSERT_TRUE(RunText("fixed<4>(a)").ok());
  EXPECT_EQ(log_.size(), 4u);
}

TEST_F(PipelineTest, UnknownNameListsValidOnes) {
  absl::StatusOr<bool> r = RunText("a,nope");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "unknown pass 'nope'; valid passes and groups: a, ab, b, c, loop");
}

TEST_F(PipelineTest, SyntaxErrorsAndRecursionAreReported) {
  EXPECT_FALSE(RunText("").ok());
  EXPECT_FALSE(RunText("a,").ok());
  EXPECT_FALSE(RunText("fixed(a").ok());
  EXPECT_FALSE(RunText("fixed<0>(a)").ok());
  EXPECT_FALSE(RunText("a b").ok());
  EXPECT_FALSE(RunText("a(1)").ok());  // a takes no arguments
  absl::StatusOr<bool> r = RunText("loop");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(std::string(r.status().message()).find("expands into itself"), std::string::npos);
}

}  // namespace
}  // namespace onnx_opt::optimizer
