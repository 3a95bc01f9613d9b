// Old-IR models through onnx-opt's steps: the default pipeline, then the write preparation
// (optimizer/initializers_as_inputs.h), then the checker. The results are valid, load again, keep
// their ir_version and compute what the inputs computed.
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "equivalence/equivalence.h"
#include "gtest/gtest.h"
#include "ir/io/model_io.h"
#include "ir/model.h"
#include "ir/text/parser.h"
#include "optimizer/initializers_as_inputs.h"
#include "optimizer/pass_manager.h"
#include "schema/checker/checker.h"
#include "tools/testing/old_ir_models.h"

namespace onnx_opt::tools::testing {
namespace {

std::unique_ptr<ir::Model> ParseNamed(const std::string& name) {
  for (const ModelText& m : OldIrModels()) {
    if (m.name != name) continue;
    auto model = ir::text::ParseModel(m.text);
    EXPECT_TRUE(model.ok()) << model.status();
    return model.ok() ? *std::move(model) : nullptr;
  }
  ADD_FAILURE() << "no model " << name;
  return nullptr;
}

std::string InputNames(const ir::Graph& g) {
  std::vector<std::string> names;
  for (const ir::Value* v : g.inputs()) names.push_back(v->name());
  return absl::StrJoin(names, ",");
}

struct Optimized {
  std::unique_ptr<ir::Model> original;
  std::unique_ptr<ir::Model> written;  // the optimized model, saved and loaded again
  optimizer::InitializersListedAsInputs listed;
};

// What onnx-opt does between reading and writing (the pass manager lists new initializers as
// inputs at IR < 4), then a save and load.
Optimized OptimizeAndReload(const std::string& name) {
  Optimized r;
  r.original = ParseNamed(name);
  std::unique_ptr<ir::Model> m = ParseNamed(name);
  if (m == nullptr || r.original == nullptr) return r;
  absl::StatusOr<optimizer::PipelineResult> run = optimizer::PassManager().Run(*m, "default");
  EXPECT_TRUE(run.ok()) << run.status();
  if (run.ok()) r.listed = run->listed_as_inputs;
  const schema::checker::CheckResult check = schema::checker::Check(*m);
  EXPECT_TRUE(check.ok()) << name << ": " << absl::StrJoin(check.errors, "\n");
  absl::StatusOr<std::string> bytes = ir::io::SerializeModel(*m);
  EXPECT_TRUE(bytes.ok()) << bytes.status();
  if (!bytes.ok()) return r;
  absl::StatusOr<std::unique_ptr<ir::Model>> back = ir::io::LoadModelFromString(*bytes);
  EXPECT_TRUE(back.ok()) << back.status();
  if (back.ok()) r.written = *std::move(back);
  return r;
}

void ExpectEquivalent(const ir::Model& original, const ir::Model& written) {
  for (uint64_t seed : {1, 7, 42}) {
    equivalence::EquivalenceOptions options;
    options.seed = seed;
    std::vector<equivalence::OutputDifference> diffs;
    const absl::Status s = equivalence::CheckEquivalent(original, written, options, &diffs);
    EXPECT_TRUE(s.ok()) << "seed " << seed << ": " << s;
  }
}

TEST(OldIrPipeline, Ir3FoldedConstantIsListedAsAnInput) {
  Optimized r = OptimizeAndReload("ir3_fold");
  ASSERT_NE(r.written, nullptr);
  EXPECT_EQ(r.written->ir_version(), 3);
  // a, b, s and k fold into one constant (named after k), which IR 3 lists after x and w.
  EXPECT_EQ(r.listed.count, 1);
  EXPECT_EQ(r.listed.Summary(), "ir_version 3: 1 new initializer listed as graph inputs");
  EXPECT_EQ(InputNames(r.written->graph()), "x,w,k");
  EXPECT_EQ(r.written->graph().num_nodes(), 2u);
  for (const ir::Value* init : r.written->graph().initializers()) {
    EXPECT_TRUE(init->is_graph_input()) << init->name();
  }
  const schema::checker::CheckResult check = schema::checker::Check(*r.written);
  EXPECT_TRUE(check.ok()) << absl::StrJoin(check.errors, "\n");
  ExpectEquivalent(*r.original, *r.written);
}

TEST(OldIrPipeline, Ir4FoldedConstantStaysAPlainInitializer) {
  Optimized r = OptimizeAndReload("ir4_fold");
  ASSERT_NE(r.written, nullptr);
  EXPECT_EQ(r.written->ir_version(), 4);
  EXPECT_EQ(r.listed.count, 0);
  EXPECT_EQ(InputNames(r.written->graph()), "x");
  EXPECT_EQ(r.written->graph().num_nodes(), 2u);
  EXPECT_TRUE(schema::checker::Check(*r.written).ok());
  ExpectEquivalent(*r.original, *r.written);
}

TEST(OldIrPipeline, Ir3CnnAtOpset9) {
  std::unique_ptr<ir::Model> input = ParseNamed("ir3_cnn");
  ASSERT_NE(input, nullptr);
  const schema::checker::CheckResult input_check = schema::checker::Check(*input);
  EXPECT_TRUE(input_check.ok()) << absl::StrJoin(input_check.errors, "\n");
  EXPECT_EQ(absl::StrJoin(input_check.warnings, "\n"),
            "model: opset 9 of domain 'ai.onnx' was released with IR version 4, but the model's "
            "ir_version "
            "is 3 (accepted; runtimes of IR version 3 may not know the opset)");

  Optimized r = OptimizeAndReload("ir3_cnn");
  ASSERT_NE(r.written, nullptr);
  EXPECT_EQ(r.written->ir_version(), 3);
  // The Reshape's Constant shape became an initializer, listed after the weights.
  EXPECT_EQ(r.listed.count, 1);
  EXPECT_EQ(InputNames(r.written->graph()), "x,conv_w,conv_b,fc_w,fc_b,shape");
  ExpectEquivalent(*r.original, *r.written);
}

TEST(OldIrPipeline, Ir3LoopBodyConstantFollowsTheLoopInputs) {
  Optimized r = OptimizeAndReload("ir3_loop");
  ASSERT_NE(r.written, nullptr);
  EXPECT_EQ(r.written->ir_version(), 3);
  EXPECT_EQ(r.listed.count, 1);
  EXPECT_EQ(InputNames(r.written->graph()), "n,c,x");
  const ir::Attribute* body = r.written->graph().first_node()->FindAttribute("body");
  ASSERT_NE(body, nullptr);
  EXPECT_EQ(InputNames(*body->g), "i,c_in,x_in,k");
  ExpectEquivalent(*r.original, *r.written);
}

TEST(OldIrPipeline, Opset6SizeOneBroadcastKeepsItsReading) {
  Optimized r = OptimizeAndReload("opset6_size1_broadcast");
  ASSERT_NE(r.written, nullptr);
  EXPECT_EQ(r.written->ir_version(), 3);
  ExpectEquivalent(*r.original, *r.written);
}

}  // namespace
}  // namespace onnx_opt::tools::testing
