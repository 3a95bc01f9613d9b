#include "optimizer/pass_manager.h"

#include "gtest/gtest.h"
#include "ir/graph.h"
#include "ir/status_macros.h"

namespace onnx_opt::optimizer {
namespace {

// Removes one Identity node per run (a tiny real rewrite, so stats have something to count).
class DropOneIdentity final : public Pass {
 public:
  std::string_view name() const override { return "test-drop-one-identity"; }
  absl::StatusOr<bool> Run(ir::Model& model, PassContext& ctx) override {
    for (ir::Node* n : model.graph().nodes()) {
      if (n->op_type() != "Identity") continue;
      n->output(0)->ReplaceAllUsesWith(n->input(0));
      RETURN_IF_ERROR(model.graph().Erase(n));
      ctx.CountRewrite();
      return true;
    }
    return false;
  }
};
REGISTER_PASS(DropOneIdentity, "test-drop-one-identity", "removes one Identity");

// Breaks use-def ordering on purpose, to show the structural check catches it.
class BreakOrder final : public Pass {
 public:
  std::string_view name() const override { return "test-break-order"; }
  absl::StatusOr<bool> Run(ir::Model& model, PassContext&) override {
    ir::Graph& g = model.graph();
    if (g.num_nodes() < 2) return false;
    g.MoveAfter(g.first_node(), g.last_node());
    return true;
  }
};
REGISTER_PASS(BreakOrder, "test-break-order", "moves the first node last");

std::unique_ptr<ir::Model> ChainOfIdentities(int n) {
  auto model = std::make_unique<ir::Model>();
  ir::Graph& g = model->graph();
  ir::Value* v = g.AddInput("X", ir::Type::Tensor(ir::DataType::kFloat, ir::Shape::FromSizes({2})));
  for (int i = 0; i < n; ++i) v = g.AddNode("Identity", {v}, {"v" + std::to_string(i)})->output(0);
  v = g.AddNode("Relu", {v}, {"Y"})->output(0);
  g.AddOutput(v);
  return model;
}

TEST(PassManagerTest, RunsToFixedPointAndRecordsStats) {
  auto model = ChainOfIdentities(3);
  PassManager pm;
  absl::StatusOr<PipelineResult> result = pm.Run(*model, "fixed(test-drop-one-identity)");
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_TRUE(result->changed);
  EXPECT_EQ(model->graph().num_nodes(), 1u);
  ASSERT_EQ(result->runs.size(), 4u);  // three removals and one round with no change
  EXPECT_EQ(result->before.nodes, 4);
  EXPECT_EQ(result->after.nodes, 1);
  std::vector<PassRun> rows = SummarizeRuns(result->runs);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].rewrites, 3);
  EXPECT_EQ(rows[0].before.nodes, 4);
  EXPECT_EQ(rows[0].after.nodes, 1);
  EXPECT_NE(FormatStatsTable(*result).find("test-drop-one-identity"), std::string::npos);
  EXPECT_NE(FormatStatsJson(*result).find("\"rewrites\": 1"), std::string::npos);
}

// IR < 4 models get their new initializers listed as inputs: the JSON counts them in a field of its
// own and stays one JSON object (the table says it in a line).
TEST(PassManagerTest, StatsJsonCountsInitializersListedAsInputs) {
  PipelineResult result;
  result.listed_as_inputs.ir_version = 3;
  result.listed_as_inputs.count = 2;
  const std::string json = FormatStatsJson(result);
  EXPECT_NE(json.find("\"initializers_listed_as_inputs\": 2,\n"), std::string::npos) << json;
  EXPECT_NE(json.find("\"folds_refused_for_growth\": 0,\n"), std::string::npos) << json;
  EXPECT_NE(json.find("\"fixed_points_at_limit\": 0\n}"), std::string::npos) << json;
  EXPECT_EQ(json.substr(json.size() - 2), "}\n") << json;
  EXPECT_NE(
      FormatStatsTable(result).find("ir_version 3: 2 new initializers listed as graph inputs"),
      std::string::npos);
}

// A fixed(...) loop that stops at its round limit while its body still changes the model says so:
// counted in the result, a warning line under --print-stats (the same text the tools print as a
// warning), and a field of --stats-json.
TEST(PassManagerTest, FixedPointAtItsLimitIsReported) {
  auto model = ChainOfIdentities(5);
  PassManager pm;
  absl::StatusOr<PipelineResult> result = pm.Run(*model, "fixed<2>(test-drop-one-identity)");
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->fixed_points_at_limit, 1);
  EXPECT_EQ(model->graph().num_nodes(), 4u);  // two of the five Identities went, one per round
  const std::string warning = FixedPointLimitWarning(*result);
  EXPECT_NE(warning.find("1 fixed(...) loop stopped at the round limit while still changing"),
            std::string::npos)
      << warning;
  const std::string table = FormatStatsTable(*result);
  EXPECT_NE(table.find(warning + "\n"), std::string::npos) << table;
  const std::string json = FormatStatsJson(*result);
  EXPECT_NE(json.find("\"fixed_points_at_limit\": 1\n}"), std::string::npos) << json;

  // Within its limit, nothing is reported.
  auto settles = ChainOfIdentities(1);
  result = pm.Run(*settles, "fixed<3>(test-drop-one-identity)");
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->fixed_points_at_limit, 0);
  EXPECT_EQ(FixedPointLimitWarning(*result), "");
  EXPECT_EQ(FormatStatsTable(*result).find("round limit"), std::string::npos);
}

TEST(PassManagerTest, StructuralCheckNamesThePassThatBrokeTheModel) {
  auto model = ChainOfIdentities(2);
  PassManager pm;
  absl::StatusOr<PipelineResult> result = pm.Run(*model, "test-break-order");
  ASSERT_FALSE(result.ok());
  EXPECT_NE(
      std::string(result.status().message()).find("pass 'test-break-order' left an invalid model"),
      std::string::npos)
      << result.status();
}

TEST(PassManagerTest, AfterEachCheckStopsThePipeline) {
  auto model = ChainOfIdentities(3);
  PassManagerOptions options;
  int calls = 0;
  options.after_each = [&](const ir::Model&, const std::string& pass) -> absl::Status {
    ++calls;
    return calls == 2 ? absl::InvalidArgumentError("outputs differ") : absl::OkStatus();
  };
  PassManager pm(options);
  absl::StatusOr<PipelineResult> result = pm.Run(*model, "fixed(test-drop-one-identity)");
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().message(),
            "pass 'test-drop-one-identity' broke the model: outputs differ");
  EXPECT_EQ(calls, 2);
}

}  // namespace
}  // namespace onnx_opt::optimizer
