// The driver: ir_version policy, custom domains, the input left untouched, error messages, the
// convert(N) pass, and model cloning.
#include "converter/convert.h"

#include <memory>
#include <string>

#include "converter/testing/test_util.h"
#include "gtest/gtest.h"
#include "ir/clone.h"
#include "ir/text/model_equality.h"
#include "optimizer/pass.h"
#include "optimizer/pass_registry.h"
#include "optimizer/pipeline.h"
#include "schema/checker/checker.h"

namespace onnx_opt::converter::testing {
namespace {

TEST(Convert, UpgradeRaisesIrVersionToWhatTheOpsetNeeds) {
  auto m = ParseText(R"(
    <ir_version: 3, opset_import: ["" : 7]>
    g (float[2] X) => (float[2] Y) { Y = Relu(X) })");
  ConvertOptions o;
  o.onnx_opset = 21;
  ConvertReport report;
  auto got = ConvertModel(*m, o, &report);
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ((*got)->ir_version(), 10);
  EXPECT_EQ(report.ir_to, 10);
  EXPECT_NE(report.ir_reason.find("opset 21 needs IR 10"), std::string::npos) << report.ir_reason;
}

TEST(Convert, RaisingFromIr3UnlistsSubgraphInitializersFromSubgraphInputs) {
  // IR 3 lists a subgraph's initializers as its inputs too; from IR 4 that is discouraged (IR.md),
  // so they leave the subgraph's inputs and stay initializers. The main graph's listed ones stay.
  auto m = ParseText(R"(
    <ir_version: 3, opset_import: ["" : 7]>
    g (bool c, float[2] X, float[2] W = {1.0, 2.0}) => (float[2] Y) {
      Y = If(c) <
        then_branch = t (float[2] k = {3.0, 4.0}) => (float[2] a) { a = Add(X, k) },
        else_branch = e () => (float[2] b) { b = Mul(X, W) }
      >
    })");
  ASSERT_NE(m, nullptr);
  ASSERT_EQ((*m->graph().nodes().begin())->subgraphs()[0]->inputs().size(),
            1u);  // listed, as IR 3 does
  ConvertReport report;
  ConvertOptions o;
  o.onnx_opset = 13;
  o.verify = true;
  auto got = ConvertModel(*m, o, &report);
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_GE((*got)->ir_version(), 4);
  const ir::Graph& main = (*got)->graph();
  EXPECT_EQ(main.inputs().size(), 3u);  // W stays an overridable input
  const ir::Node* node = *main.nodes().begin();
  const ir::Graph* then_branch = node->subgraphs()[0];
  EXPECT_TRUE(then_branch->inputs().empty());
  ASSERT_EQ(then_branch->initializers().size(), 1u);
  const schema::checker::CheckResult check = schema::checker::Check(**got);
  EXPECT_TRUE(check.ok()) << check.errors[0];
  EXPECT_TRUE(check.warnings.empty()) << check.warnings[0];
}

TEST(Convert, DowngradeRefusesAKindTheOlderVersionLacksEvenWhenItsElementsAreUnknown) {
  // Found by the convert fuzzer: Identity-16 of optional(seq(?)) went down to Identity-1, which
  // takes tensors only, because the partly unknown type was not checked at all.
  auto m = ParseText(R"(
    <ir_version: 8, opset_import: ["" : 16]>
    g (optional(seq(float[2])) x) => (optional(seq(float[2])) y) { y = Identity(x) })");
  ASSERT_NE(m, nullptr);
  // The text syntax always names an element type; make it unknown, as a file may leave it.
  const ir::Type partly_known =
      ir::Type::Optional(ir::Type::Sequence(ir::Type::Tensor(ir::DataType::kUndefined)));
  m->graph().inputs()[0]->set_type(partly_known);
  m->graph().outputs()[0]->set_type(partly_known);
  auto got = ConvertTo(*m, 13);
  ASSERT_FALSE(got.ok());
  EXPECT_NE(got.status().message().find("optional(seq("), std::string::npos) << got.status();
}

TEST(Convert, DowngradeLowersIrVersionOnlyToWhatTheContentNeeds) {
  auto m = ParseText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[2] X) => (float[2] Y) { Y = Relu(X) })");
  auto got = ConvertTo(*m, 9);
  ASSERT_TRUE(got.ok());
  EXPECT_EQ((*got)->ir_version(), 4);  // opset 9 needs IR 4
  // A model-local function needs IR 8 whatever the opset.
  auto f = ParseText(R"(
    <ir_version: 10, opset_import: ["" : 21, "local" : 1]>
    g (float[2] X) => (float[2] Y) { Y = local.f(X) }
    <domain: "local", opset_import: ["" : 21]>
    f (x) => (y) { y = Relu(x) })");
  got = ConvertTo(*f, 9);
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ((*got)->ir_version(), 8);
  ConvertOptions keep;
  keep.onnx_opset = 9;
  keep.lower_ir_version = false;
  got = ConvertModel(*m, keep);
  ASSERT_TRUE(got.ok());
  EXPECT_EQ((*got)->ir_version(), 10);
}

TEST(Convert, CustomDomainsAreUntouchedAndTheInputIsNotModified) {
  const char* text = R"(
    <ir_version: 7, opset_import: ["" : 13, "com.example" : 3]>
    g (float[2,3] X) => (float[1,2,3] Y) <int64[1] a = {0}> {
      c = com.example.Custom<axes = [9]>(X)
      Y = Unsqueeze(c, a)
    })";
  auto m = ParseText(text);
  auto before = ParseText(text);
  auto got = ConvertTo(*m, 11);
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_TRUE(ir::text::StructurallyEqual(*m, *before).ok());
  EXPECT_EQ((*got)->OpsetVersion("com.example"), 3);
  const ir::Node* custom = (*got)->graph().first_node();
  EXPECT_EQ(custom->op_type(), "Custom");
  EXPECT_EQ(custom->GetInts("axes"), (std::vector<int64_t>{9}));
}

TEST(Convert, AFailedConversionNamesTheNodeOpAndVersions) {
  auto m = ParseText(R"(
    <ir_version: 7, opset_import: ["" : 13]>
    g (float[2,3] X, int64[1] a) => (float[1,2,3] Y) { Y = Unsqueeze(X, a) })");
  auto got = ConvertTo(*m, 12);
  ASSERT_FALSE(got.ok());
  const std::string msg(got.status().message());
  EXPECT_NE(msg.find("node producing 'Y' (Unsqueeze)"), std::string::npos) << msg;
  EXPECT_NE(msg.find("from Unsqueeze-13 (ai.onnx opset 13) to Unsqueeze-11 (opset 12)"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("compile-time constant"), std::string::npos) << msg;
}

TEST(Convert, ErrorsInsideSubgraphsSayWhere) {
  auto m = ParseText(R"(
    <ir_version: 7, opset_import: ["" : 13]>
    g (bool c, float[2,3] X, int64[1] a) => (float[1,2,3] Y) {
      Y = If(c) <
        then_branch = t () => (float[1,2,3] ty) { ty = Unsqueeze(X, a) },
        else_branch = e () => (float[1,2,3] ey) { ey = Unsqueeze(X, a) }
      >
    })");
  auto got = ConvertTo(*m, 12);
  ASSERT_FALSE(got.ok());
  EXPECT_NE(got.status().message().find("in graph 't' of node producing 'Y' (If)"),
            std::string::npos)
      << got.status();
}

TEST(Convert, VerifyRunsBothModels) {
  auto m = ParseText(R"(
    <ir_version: 6, opset_import: ["" : 11]>
    g (float[2,3,4] X) => (float[2,3,4] Y) { Y = Softmax<axis = 1>(X) })");
  ConvertOptions o;
  o.onnx_opset = 13;
  o.verify = true;
  auto got = ConvertModel(*m, o);
  EXPECT_TRUE(got.ok()) << got.status();
}

TEST(Convert, TargetOutOfRangeIsRefused) {
  auto m = ParseText(
      R"(<ir_version: 7, opset_import: ["" : 13]> g (float X) => (float Y) { Y = Relu(X) })");
  EXPECT_FALSE(ConvertTo(*m, 29).ok());
  EXPECT_FALSE(ConvertTo(*m, 0).ok());
}

TEST(Convert, AsAPassInAPipeline) {
  auto m = ParseText(R"(
    <ir_version: 6, opset_import: ["" : 11]>
    g (float[2,3] X) => (float[1,2,3] Y) { Y = Unsqueeze<axes = [0]>(X) })");
  absl::StatusOr<std::unique_ptr<optimizer::Pass>> p =
      optimizer::ParsePipeline("convert(21)", optimizer::PassRegistry::Global());
  ASSERT_TRUE(p.ok()) << p.status();
  optimizer::PassContext ctx;
  absl::StatusOr<bool> changed = (*p)->Run(*m, ctx);
  ASSERT_TRUE(changed.ok()) << changed.status();
  EXPECT_TRUE(*changed);
  EXPECT_EQ(m->OpsetVersion(""), 21);
  EXPECT_EQ(m->graph().first_node()->num_inputs(), 2u);
  changed = (*p)->Run(*m, ctx);
  ASSERT_TRUE(changed.ok());
  EXPECT_FALSE(*changed);
  EXPECT_FALSE(
      optimizer::ParsePipeline("convert", optimizer::PassRegistry::Global()).ok() &&
      (*optimizer::ParsePipeline("convert", optimizer::PassRegistry::Global()))->Run(*m, ctx).ok());
}

TEST(Convert, LowestOpsetSearchStopsAtTheFirstRefusal) {
  auto m = ParseText(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2,3] X) => (float[2,3] Y) { Y = Mish(X) })");
  auto low = ConvertToLowestOpset(*m);
  ASSERT_TRUE(low.ok());
  EXPECT_EQ(low->opset, 1);  // Mish-18 is not in opset 17: Softplus/Tanh/Mul exist at 1
  auto trilu = ParseText(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[3,3] X) => (float[3,3] Y) { Y = Trilu(X) })");
  low = ConvertToLowestOpset(*trilu);
  ASSERT_TRUE(low.ok());
  EXPECT_EQ(low->opset, 14);
  EXPECT_NE(low->refusal.find("Trilu"), std::string::npos);
}

TEST(ModelClone, CopiesEverythingStructurally) {
  auto m = ParseText(R"(
    <ir_version: 10, opset_import: ["" : 21, "local" : 1], producer_name: "p", doc_string: "d">
    g (float[N,3] X, bool c) => (float[N,3] Y, float[2] Z) <float[2] w = {1.0, 2.0}, float[N,3] t> {
      t = Relu(X)
      Y = If(c) <then_branch = a () => (float[N,3] o) { o = Add(t, X) }, else_branch = b () => (float[N,3] o2) { o2 = Identity(t) }>
      Z = local.f(w)
    }
    <domain: "local", opset_import: ["" : 21]>
    f <alpha: float = 1.0> (x) => (y) { y = Mul(x, x) })");
  auto c = ir::CloneModel(*m);
  ASSERT_TRUE(c.ok()) << c.status();
  absl::Status eq = ir::text::StructurallyEqual(*m, **c);
  EXPECT_TRUE(eq.ok()) << eq;
}

}  // namespace
}  // namespace onnx_opt::converter::testing
