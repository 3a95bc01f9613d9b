// The PatternPass driver: the worklist revisits what a rewrite touched, a run that never settles
// stops at its bound, and rewrites are counted per pattern (down to --print-stats and
// --stats-json).
#include "passes/rewrite/pattern_pass.h"

#include <map>
#include <memory>
#include <string>

#include "gtest/gtest.h"
#include "ir/text/parser.h"
#include "optimizer/pass_manager.h"
#include "passes/rewrite/value_pattern.h"
#include "passes/testing/pass_test_util.h"

namespace onnx_opt::passes::rewrite {
namespace {

using testing::ExpectSameOutputs;
using testing::OpTypes;

// Neg(Neg(x)) is x when the inner Neg has no other use.
struct DoubleNegationMatcher {
  ValueSlot x;
  const ValuePattern root = Op("Neg", {Op("Neg", {Capture(x)}).OneUse()});
};

RewritePattern DoubleNegationPattern() {
  auto matcher = std::make_shared<const DoubleNegationMatcher>();
  return {.name = "double-negation",
          .root_ops = {"Neg"},
          .match_and_rewrite = [matcher](ir::Node& neg, Rewriter& rw) -> absl::StatusOr<int64_t> {
            const Captures* m = rw.Match(matcher->root, neg.output(0));
            if (m == nullptr) return 0;
            return OneIfReplaced(rw.ReplaceWithValue(neg, (*m)[matcher->x]));
          }};
}

RewritePattern IdentityPattern() {
  return {.name = "identity",
          .root_ops = {"Identity"},
          .match_and_rewrite = [](ir::Node& id, Rewriter& rw) -> absl::StatusOr<int64_t> {
            return OneIfReplaced(rw.ReplaceWithValue(id, id.input(0)));
          }};
}

std::unique_ptr<ir::Model> Parse(const std::string& text) {
  absl::StatusOr<std::unique_ptr<ir::Model>> model = ir::text::ParseModel(text);
  EXPECT_TRUE(model.ok()) << model.status();
  return model.ok() ? std::move(*model) : nullptr;
}

TEST(PatternPassTest, RevisitsWhatARewriteTouched) {
  // B = Neg(A) cannot go while the Identity also reads A; the Identity comes later in node order,
  // and its removal leaves B's A with one use: B is visited again and goes then, in the same run.
  constexpr char kModel[] = R"(
    <ir_version: 8, opset_import: ["" : 17]>
    main (float[4] X) => (float[4] Y) {
      A = Neg(X)
      B = Neg(A)
      Y = Relu(B)
      C = Identity(A)
    }
  )";
  std::unique_ptr<ir::Model> before = Parse(kModel);
  std::unique_ptr<ir::Model> after = Parse(kModel);
  ASSERT_NE(after, nullptr);
  PatternPass pass("test-pass", {DoubleNegationPattern(), IdentityPattern()});
  optimizer::PassContext ctx;
  absl::StatusOr<bool> changed = pass.Run(*after, ctx);
  ASSERT_TRUE(changed.ok()) << changed.status();
  EXPECT_TRUE(*changed);
  EXPECT_EQ(OpTypes(after->graph()), std::vector<std::string>{"Relu"});
  EXPECT_EQ(ctx.rewrites(), 2);
  const std::map<std::string, int64_t, std::less<>> expected = {{"test-pass/double-negation", 1},
                                                                {"test-pass/identity", 1}};
  EXPECT_EQ(ctx.pattern_rewrites(), expected);
  EXPECT_OK(ExpectSameOutputs(*before, *after));
}

TEST(PatternPassTest, StopsAtItsBoundWhenPatternsNeverSettle) {
  // A pattern that "rewrites" without changing anything touches its root every time.
  RewritePattern restless = {
      .name = "restless",
      .root_ops = {"Relu"},
      .match_and_rewrite = [](ir::Node& relu, Rewriter& rw) -> absl::StatusOr<int64_t> {
        rw.ReplaceInput(relu, 0, relu.input(0));
        return 1;
      }};
  std::unique_ptr<ir::Model> model = Parse(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    main (float[4] X) => (float[4] Y) { Y = Relu(X) }
  )");
  ASSERT_NE(model, nullptr);
  PatternPass pass("test-pass", {restless});
  optimizer::PassContext ctx;
  absl::StatusOr<bool> changed = pass.Run(*model, ctx);
  ASSERT_TRUE(changed.ok()) << changed.status();
  EXPECT_GT(ctx.rewrites(), 1);
  EXPECT_LT(ctx.rewrites(), 10000);
}

TEST(PatternPassTest, PrintsRewritesPerPattern) {
  absl::StatusOr<testing::PassTestRun> run = testing::RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    main (float[4] X) => (float[4] Y) {
      zero = Constant<value = float {0.0}>()
      one = Constant<value = float {1.0}>()
      A = Add(X, zero)
      B = Mul(A, one)
      C = Mul(B, one)
      Y = Relu(C)
    }
  )",
                                                                        "nops");
  ASSERT_TRUE(run.ok()) << run.status();
  ASSERT_EQ(run->result.runs.size(), 1u);
  const std::map<std::string, int64_t> expected = {{"nops/add-zero", 1}, {"nops/mul-one", 2}};
  EXPECT_EQ(run->result.runs[0].pattern_rewrites, expected);
  const std::string table = optimizer::FormatStatsTable(run->result);
  // Below the pass's row, by the name within the pass, the count in the rewrites column.
  EXPECT_NE(table.find("\n  add-zero                             1\n"), std::string::npos) << table;
  EXPECT_NE(table.find("\n  mul-one                              2\n"), std::string::npos) << table;
  const std::string json = optimizer::FormatStatsJson(run->result);
  EXPECT_NE(json.find("\"pattern_rewrites\": {\"nops/add-zero\": 1, \"nops/mul-one\": 2}"),
            std::string::npos)
      << json;
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
}

}  // namespace
}  // namespace onnx_opt::passes::rewrite
