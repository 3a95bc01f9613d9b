// The Rewriter's in-place edits: each changes the node as asked, records what the driver must
// revisit (the node and its users), and leaves a model computing what it did.
#include "passes/rewrite/rewriter.h"

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "ir/name_generator.h"
#include "ir/text/parser.h"
#include "optimizer/pass.h"
#include "passes/rewrite/pattern_pass.h"
#include "passes/testing/pass_test_util.h"

namespace onnx_opt::passes::rewrite {
namespace {

using testing::ExpectSameOutputs;
using testing::OpTypes;

std::unique_ptr<ir::Model> Parse(const std::string& text) {
  absl::StatusOr<std::unique_ptr<ir::Model>> model = ir::text::ParseModel(text);
  EXPECT_TRUE(model.ok()) << model.status();
  return model.ok() ? std::move(*model) : nullptr;
}

ir::Node* FindNode(ir::Graph& g, const std::string& op) {
  for (ir::Node* n : g.nodes()) {
    if (n->op_type() == op) return n;
  }
  return nullptr;
}

bool Touched(const Rewriter& rw, const ir::Node* n) {
  return std::find(rw.touched().begin(), rw.touched().end(), n) != rw.touched().end();
}

// A model and a rewriter over its main graph.
struct Fixture {
  explicit Fixture(const std::string& text)
      : before(Parse(text)), after(Parse(text)), names(*after), rw(after->graph(), 17, names) {}
  std::unique_ptr<ir::Model> before;
  std::unique_ptr<ir::Model> after;
  ir::NameGenerator names;
  Rewriter rw;
};

constexpr char kTransposeRelu[] = R"(
  <ir_version: 8, opset_import: ["" : 17]>
  main (float[2, 3] X) => (float[3, 2] Y) {
    T = Transpose(X)
    Y = Relu(T)
  }
)";

TEST(RewriterTest, SetAttributeTouchesTheNodeAndItsUsers) {
  Fixture f(kTransposeRelu);
  ir::Graph& g = f.after->graph();
  ir::Node* transpose = FindNode(g, "Transpose");
  ir::Node* relu = FindNode(g, "Relu");
  // The default permutation of a rank-2 input, spelled out: the same computation.
  f.rw.SetAttribute(*transpose, ir::Attribute::Ints("perm", {1, 0}));
  EXPECT_EQ(transpose->GetInts("perm"), (std::vector<int64_t>{1, 0}));
  EXPECT_TRUE(Touched(f.rw, transpose));
  EXPECT_TRUE(Touched(f.rw, relu));
  EXPECT_OK(ExpectSameOutputs(*f.before, *f.after));
}

TEST(RewriterTest, ModifyInPlaceTouchesTheNodeAndItsUsers) {
  Fixture f(kTransposeRelu);
  ir::Graph& g = f.after->graph();
  ir::Node* transpose = FindNode(g, "Transpose");
  f.rw.ModifyInPlace(*transpose, [](ir::Node& n) {
    n.SetAttribute(ir::Attribute::Ints("perm", {1, 0}));
  });
  EXPECT_EQ(transpose->GetInts("perm"), (std::vector<int64_t>{1, 0}));
  EXPECT_TRUE(Touched(f.rw, transpose));
  EXPECT_TRUE(Touched(f.rw, FindNode(g, "Relu")));
  EXPECT_OK(ExpectSameOutputs(*f.before, *f.after));
}

TEST(RewriterTest, ChangeOpTypeKeepsTheGraphsOpCounts) {
  // Log(Softmax(x)) is LogSoftmax(x): the Log goes, the Softmax changes its op type in place.
  Fixture f(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    main (float[2, 5] X) => (float[2, 5] Y) {
      S = Softmax<axis = -1>(X)
      Y = Log(S)
    }
  )");
  ir::Graph& g = f.after->graph();
  ir::Node* softmax = FindNode(g, "Softmax");
  absl::StatusOr<bool> replaced = f.rw.ReplaceWithValue(*FindNode(g, "Log"), softmax->output(0));
  ASSERT_TRUE(replaced.ok() && *replaced) << replaced.status();
  f.rw.ChangeOpType(*softmax, "LogSoftmax");
  g.ReleaseErased();
  EXPECT_EQ(OpTypes(g), std::vector<std::string>{"LogSoftmax"});
  EXPECT_EQ(g.CountOpType("Softmax"), 0);
  EXPECT_EQ(g.CountOpType("LogSoftmax"), 1);
  EXPECT_TRUE(Touched(f.rw, softmax));
  EXPECT_OK(ExpectSameOutputs(*f.before, *f.after));
}

TEST(RewriterTest, AddsAndRemovesOutputs) {
  Fixture f(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    main (float[4] X) => (float[4] Y) {
      D = Dropout(X)
      Y = Relu(D)
    }
  )");
  ir::Graph& g = f.after->graph();
  ir::Node* dropout = FindNode(g, "Dropout");
  // Dropout's optional mask output, unused.
  ir::Value* mask = f.rw.AddOutput(*dropout, "mask");
  ASSERT_NE(mask, nullptr);
  mask->set_type(ir::Type::Tensor(ir::DataType::kBool, ir::Shape::FromSizes({4})));
  EXPECT_EQ(dropout->num_outputs(), 2u);
  EXPECT_EQ(mask->producer(), dropout);
  EXPECT_TRUE(Touched(f.rw, dropout));
  EXPECT_OK(ExpectSameOutputs(*f.before, *f.after));
  EXPECT_OK(f.rw.RemoveLastOutput(*dropout));
  EXPECT_EQ(dropout->num_outputs(), 1u);
  // An output in use cannot go.
  EXPECT_FALSE(f.rw.RemoveLastOutput(*dropout).ok());
  EXPECT_EQ(dropout->num_outputs(), 1u);
  EXPECT_OK(ExpectSameOutputs(*f.before, *f.after));
}

TEST(RewriterTest, RemovedGraphInputWithInitializerStaysAConstant) {
  constexpr char kWithDefault[] = R"(
    <ir_version: 8, opset_import: ["" : 17]>
    main (float[2] X, float[2] W) => (float[2] Y) <float[2] W = {1.0, 2.0}> {
      Y = Add(X, W)
    }
  )";
  Fixture f(kWithDefault);
  ir::Graph& g = f.after->graph();
  ir::Value* w = g.inputs()[1];
  EXPECT_OK(f.rw.RemoveGraphInput(w));
  ASSERT_EQ(g.inputs().size(), 1u);
  EXPECT_TRUE(w->is_constant_initializer());
  // Its user sees a constant now, which patterns may match: it is revisited.
  EXPECT_TRUE(Touched(f.rw, FindNode(g, "Add")));
  // The same as the model that had W as a constant from the start.
  std::unique_ptr<ir::Model> constant = Parse(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    main (float[2] X) => (float[2] Y) <float[2] W = {1.0, 2.0}> {
      Y = Add(X, W)
    }
  )");
  ASSERT_NE(constant, nullptr);
  EXPECT_OK(ExpectSameOutputs(*constant, *f.after));
  // Not an input (any more): an error, nothing touched.
  const size_t touched = f.rw.touched().size();
  EXPECT_FALSE(f.rw.RemoveGraphInput(w).ok());
  EXPECT_EQ(f.rw.touched().size(), touched);
}

TEST(RewriterTest, ALostUseSendsTheProducerRoundOnlyWithOneUseOrNoneLeft) {
  // A feeds three nodes. Erasing one leaves two uses: nothing about A's producer changed for a
  // pattern. Erasing a second leaves one: the producer and that last user are revisited.
  Fixture f(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    main (float[4] X) => (float[4] Y) {
      A = Neg(X)
      B = Relu(A)
      C = Abs(A)
      Y = Sigmoid(A)
    }
  )");
  ir::Graph& g = f.after->graph();
  ir::Node* neg = FindNode(g, "Neg");
  EXPECT_OK(f.rw.EraseNode(*FindNode(g, "Relu")));
  EXPECT_FALSE(Touched(f.rw, neg));
  EXPECT_OK(f.rw.EraseNode(*FindNode(g, "Abs")));
  EXPECT_TRUE(Touched(f.rw, neg));
  EXPECT_TRUE(Touched(f.rw, FindNode(g, "Sigmoid")));
  g.ReleaseErased();
  EXPECT_OK(ExpectSameOutputs(*f.before, *f.after));
}

TEST(RewriterTest, IgnoringTouchedNodesRecordsNothing) {
  std::unique_ptr<ir::Model> model = Parse(kTransposeRelu);
  ASSERT_NE(model, nullptr);
  ir::NameGenerator names(*model);
  Rewriter rw(model->graph(), 17, names, TouchedNodes::kIgnore);
  rw.SetAttribute(*FindNode(model->graph(), "Transpose"), ir::Attribute::Ints("perm", {1, 0}));
  EXPECT_TRUE(rw.touched().empty());
}

TEST(RewriterTest, TheDriverRevisitsANodeChangedInPlace) {
  // The Softmax becomes a LogSoftmax when the sweep is at the Log, after it; only its revisit lets
  // the second pattern (rooted at LogSoftmax) see it in the same run.
  RewritePattern log_softmax = {
      .name = "log-softmax",
      .root_ops = {"Log"},
      .match_and_rewrite = [](ir::Node& log, Rewriter& rw) -> absl::StatusOr<int64_t> {
        ir::Node* softmax = log.input(0)->producer();
        if (softmax == nullptr || softmax->op_type() != "Softmax") return 0;
        absl::StatusOr<bool> replaced = rw.ReplaceWithValue(log, softmax->output(0));
        if (replaced.ok() && *replaced) rw.ChangeOpType(*softmax, "LogSoftmax");
        return OneIfReplaced(replaced);
      }};
  RewritePattern explicit_axis = {
      .name = "explicit-axis",
      .root_ops = {"LogSoftmax"},
      .match_and_rewrite = [](ir::Node& n, Rewriter& rw) -> absl::StatusOr<int64_t> {
        if (n.FindAttribute("axis") != nullptr) return 0;
        rw.SetAttribute(n, ir::Attribute::Int("axis", -1));  // the default since opset 13
        return 1;
      }};
  constexpr char kModel[] = R"(
    <ir_version: 8, opset_import: ["" : 17]>
    main (float[2, 5] X) => (float[2, 5] Y) {
      S = Softmax(X)
      Y = Log(S)
    }
  )";
  std::unique_ptr<ir::Model> before = Parse(kModel);
  std::unique_ptr<ir::Model> after = Parse(kModel);
  ASSERT_NE(after, nullptr);
  PatternPass pass("test-pass", {log_softmax, explicit_axis});
  optimizer::PassContext ctx;
  absl::StatusOr<bool> changed = pass.Run(*after, ctx);
  ASSERT_TRUE(changed.ok()) << changed.status();
  EXPECT_EQ(OpTypes(after->graph()), std::vector<std::string>{"LogSoftmax"});
  const std::map<std::string, int64_t, std::less<>> expected = {{"test-pass/explicit-axis", 1},
                                                                {"test-pass/log-softmax", 1}};
  EXPECT_EQ(ctx.pattern_rewrites(), expected);
  EXPECT_OK(ExpectSameOutputs(*before, *after));
}

}  // namespace
}  // namespace onnx_opt::passes::rewrite
