// Tests for the passes that shrink a model without touching its computation (strip-*,
// unused-value-info) and the lossy float16-weights; every rewrite is also checked numerically.
#include <cmath>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ir/text/parser.h"
#include "optimizer/pass_manager.h"
#include "passes/testing/pass_test_util.h"

namespace onnx_opt::passes {
namespace {

using ::onnx_opt::passes::testing::ExpectSameOutputs;
using ::onnx_opt::passes::testing::OpTypes;
using ::onnx_opt::passes::testing::RunPipelineOnText;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

// Puts doc strings and metadata where text cannot: on nodes,
// values, tensors, attributes and the nested graph.
std::unique_ptr<ir::Model> Annotate(std::unique_ptr<ir::Model> m) {
  ir::Graph& g = m->graph();
  g.set_doc_string("the main graph");
  g.mutable_metadata_props().push_back({"graph", "meta"});
  g.inputs()[0]->set_doc_string("an input");
  g.initializers()[0]->mutable_initializer()->set_doc_string("a bias");
  g.initializers()[0]->mutable_initializer()->mutable_metadata_props().push_back({"k", "v"});
  for (ir::Node* n : g.nodes()) {
    n->set_doc_string("File \"model.py\", line 12, in forward");
    n->mutable_metadata_props().push_back({"node", "meta"});
    n->output(0)->set_doc_string("an intermediate");
    if (ir::Attribute* a = n->FindMutableAttribute("then_branch")) {
      a->set_doc_string("attribute doc");
      a->g->first_node()->set_doc_string("nested");
    }
  }
  g.mutable_dangling_value_info().push_back(
      {"gone", ir::Type(), "stale", {{"a", "b"}}, g.NextValueInfoOrder()});
  return m;
}

absl::StatusOr<optimizer::PipelineResult> RunOn(ir::Model& m, const std::string& pipeline) {
  optimizer::PassManager manager;
  return manager.Run(m, pipeline);
}

std::unique_ptr<ir::Model> Parse(const char* text) {
  absl::StatusOr<std::unique_ptr<ir::Model>> m = ir::text::ParseModel(text);
  EXPECT_TRUE(m.ok()) << m.status();
  return m.ok() ? std::move(*m) : nullptr;
}

// A model with a nested graph; the annotations text cannot hold are added by Annotate.
constexpr char kSmall[] = R"(
  <ir_version: 10, opset_import: ["" : 18], doc_string: "exported by a script",
   metadata_props: ["licence" : "MIT", "author" : "someone"]>
  g (float[2,3] X, bool C) => (float[2,3] Y) <float[3] B = {1, 2, 3}> {
    T = Add(X, B)
    Y = If(C) <then_branch = t () => (float[2,3] Z) { Z = Relu(T) },
               else_branch = e () => (float[2,3] Z) { Z = Neg(T) }>
  })";

TEST(StripDocStringsTest, EmptiesEveryDocStringAndKeepsMetadata) {
  std::unique_ptr<ir::Model> before = Annotate(Parse(kSmall));
  std::unique_ptr<ir::Model> after = Annotate(Parse(kSmall));
  absl::StatusOr<optimizer::PipelineResult> r = RunOn(*after, "strip-doc-strings");
  ASSERT_TRUE(r.ok()) << r.status();
  // model, graph, input, bias tensor, 2 nodes, 2 node outputs, 1 attribute, nested node, dangling
  // entry.
  EXPECT_EQ(r->runs[0].rewrites, 11);
  EXPECT_THAT(after->doc_string(), IsEmpty());
  EXPECT_THAT(after->graph().doc_string(), IsEmpty());
  for (ir::Node* n : after->graph().nodes()) EXPECT_THAT(n->doc_string(), IsEmpty());
  EXPECT_THAT(after->graph().initializers()[0]->initializer()->doc_string(), IsEmpty());
  EXPECT_EQ(after->metadata_props().size(), 2u);  // metadata is another pass's business
  EXPECT_EQ(after->graph().initializers()[0]->initializer()->metadata_props().size(), 1u);
  EXPECT_OK(ExpectSameOutputs(*before, *after));
  // A second run finds nothing left.
  r = RunOn(*after, "strip-doc-strings");
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->changed);
}

TEST(StripMetadataTest, RemovesEveryEntryAndKeepsDocStrings) {
  std::unique_ptr<ir::Model> before = Annotate(Parse(kSmall));
  std::unique_ptr<ir::Model> after = Annotate(Parse(kSmall));
  absl::StatusOr<optimizer::PipelineResult> r = RunOn(*after, "strip-metadata");
  ASSERT_TRUE(r.ok()) << r.status();
  // model (2), graph, tensor, 2 nodes, dangling entry.
  EXPECT_EQ(r->runs[0].rewrites, 7);
  EXPECT_THAT(after->metadata_props(), IsEmpty());
  EXPECT_THAT(after->graph().metadata_props(), IsEmpty());
  EXPECT_EQ(after->doc_string(), "exported by a script");
  EXPECT_OK(ExpectSameOutputs(*before, *after));
}

TEST(UnusedValueInfoTest, DropsEntriesNamingNoValueOnly) {
  std::unique_ptr<ir::Model> m = Annotate(Parse(kSmall));
  ir::Value* t = m->graph().first_node()->output(0);
  m->graph().AddValueInfo(t);
  absl::StatusOr<optimizer::PipelineResult> r = RunOn(*m, "unused-value-info");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->runs[0].rewrites, 1);
  EXPECT_THAT(m->graph().dangling_value_info(), IsEmpty());
  EXPECT_TRUE(t->in_value_info());  // a live value's entry stays
}

TEST(StripValueInfoTest, DropsEveryEntry) {
  std::unique_ptr<ir::Model> m = Annotate(Parse(kSmall));
  ir::Value* t = m->graph().first_node()->output(0);
  m->graph().AddValueInfo(t);
  absl::StatusOr<optimizer::PipelineResult> r = RunOn(*m, "strip-value-info");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->runs[0].rewrites, 2);
  EXPECT_FALSE(t->in_value_info());
  EXPECT_THAT(m->graph().dangling_value_info(), IsEmpty());
}

// A 4x64 weight (256 elements) is large enough to be stored as float16; the 3-element bias is not.
std::string DenseModel(const std::string& first_weight = "") {
  std::string w = first_weight.empty() ? "0" : first_weight;
  for (int i = 1; i < 256; ++i) w += "," + std::to_string(std::sin(i * 0.37) * 0.5);
  return R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2,4] X) => (float[2,64] Y) <float[4,64] W = {)" +
         w + R"(}, float[64] B = {)" +
         [] {
           std::string b;
           for (int i = 0; i < 64; ++i) b += (i ? ",0." : "0.") + std::to_string(i % 10);
           return b;
         }() +
         R"(}> {
      M = MatMul(X, W)
      Y = Add(M, B)
    })";
}

TEST(Float16WeightsTest, StoresLargeWeightsAsHalfWithACast) {
  auto run = RunPipelineOnText(DenseModel(), "float16-weights");
  ASSERT_TRUE(run.ok()) << run.status();
  const ir::Graph& g = run->after->graph();
  EXPECT_THAT(OpTypes(g), ElementsAre("Cast", "MatMul", "Add"));
  EXPECT_EQ(run->result.runs[0].rewrites, 1);
  const ir::Node* cast = g.first_node();
  EXPECT_EQ(cast->input(0)->initializer()->data_type(), ir::DataType::kFloat16);
  EXPECT_EQ(cast->output(0)->name(), "W");  // users read the same name
  // Only the 64-element bias stays float32 (under 128 elements).
  int float32_inits = 0;
  for (const ir::Value* v : g.initializers()) {
    if (v->initializer()->data_type() == ir::DataType::kFloat) ++float32_inits;
  }
  EXPECT_EQ(float32_inits, 1);
  EXPECT_LT(run->result.after.initializer_bytes, run->result.before.initializer_bytes);
  // Lossy: equal within float16's precision, not float32's.
  equivalence::EquivalenceOptions loose;
  loose.tolerances.float32 = {1e-2, 1e-3};
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after, loose));
}

TEST(Float16WeightsTest, LeavesTensorsBeyondHalfRange) {
  // Same model, but W has one value float16 cannot hold (its largest finite value is 65504).
  auto run = RunPipelineOnText(DenseModel("70000"), "float16-weights");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_FALSE(run->result.changed);
}

TEST(Float16WeightsTest, LeavesGraphInputsWithDefaultsAndOutputs) {
  auto run = RunPipelineOnText(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[200] X) => (float[200] Y, float[200] W) <float[200] W = {)" +
                                   [] {
                                     std::string w;
                                     for (int i = 0; i < 200; ++i)
                                       w += (i ? ",1." : "1.") + std::to_string(i % 7);
                                     return w;
                                   }() +
                                   R"(}> {
      Y = Add(X, W)
    })",
                               "float16-weights");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_FALSE(run->result.changed);
}

}  // namespace
}  // namespace onnx_opt::passes
