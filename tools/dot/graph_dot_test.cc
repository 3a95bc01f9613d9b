#include "tools/dot/graph_dot.h"

#include <fstream>
#include <regex>
#include <sstream>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ir/captures.h"
#include "ir/clone.h"
#include "ir/io/model_io.h"
#include "ir/text/parser.h"
#include "optimizer/pass_manager.h"
#include "tools/dot/dot_file.h"

namespace onnx_opt::tools {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

int CountMatches(const std::string& text, const std::string& pattern) {
  const std::regex re(pattern);
  return static_cast<int>(
      std::distance(std::sregex_iterator(text.begin(), text.end(), re), std::sregex_iterator()));
}

int64_t CountNodes(const ir::Model& model) {
  int64_t n = 0;
  ir::ForEachNodeRecursive(model.graph(), [&](const ir::Node*) { ++n; });
  return n;
}

// Inputs (weights excepted) and outputs of a graph and its bodies.
int64_t CountEnds(const ir::Graph& graph) {
  int64_t ends = static_cast<int64_t>(graph.outputs().size());
  for (const ir::Value* v : graph.inputs()) ends += !v->is_initializer();
  for (const ir::Node* node : graph.nodes()) {
    for (const ir::Graph* body : node->subgraphs()) ends += CountEnds(*body);
  }
  return ends;
}

// One box per node, one ellipse per graph input and output.
void ExpectOneVertexPerNode(const ir::Model& model, const std::string& dot) {
  EXPECT_EQ(CountMatches(dot, "shape=box"), CountNodes(model)) << dot;
  EXPECT_EQ(CountMatches(dot, "shape=ellipse"), CountEnds(model.graph())) << dot;
}

TEST(GraphDotTest, TransformerBlockBeforeAndAfterTheDefaultPipeline) {
  absl::StatusOr<std::unique_ptr<ir::Model>> model =
      ir::io::LoadModel("testdata/models/transformer_block.onnx");
  ASSERT_TRUE(model.ok()) << model.status();
  const std::string before = ToDot(**model);
  EXPECT_THAT(before, HasSubstr("digraph model {"));
  ExpectOneVertexPerNode(**model, before);
  EXPECT_THAT(before, HasSubstr("label=\"MatMul\\n"));
  EXPECT_THAT(before, Not(HasSubstr("cluster")));
  // Weights are in their consumers' labels, not boxes of their own.
  EXPECT_LT(CountMatches(before, "label="),
            static_cast<int>(CountNodes(**model) + (*model)->graph().initializers().size()));

  absl::StatusOr<std::unique_ptr<ir::Model>> input = ir::CloneModel(**model);
  ASSERT_TRUE(input.ok());
  absl::StatusOr<optimizer::PipelineResult> result =
      optimizer::PassManager().Run(**model, "default");
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_LT(CountNodes(**model), CountNodes(**input));
  const std::string after = ToDot(**model);
  ExpectOneVertexPerNode(**model, after);

  // Against the input: the fused nodes are new, the ones fused away are drawn removed.
  const std::string diff = ToDot(**model, {.compare_with = input->get()});
  EXPECT_GT(CountMatches(diff, "fillcolor=palegreen"), 0) << diff;
  EXPECT_GT(CountMatches(diff, "\\(removed\\)"), 0) << diff;
  EXPECT_EQ(CountMatches(diff, "shape=box"),
            CountNodes(**model) + CountMatches(diff, "\\(removed\\)"));
  // Compared with itself, nothing changed.
  const std::string same = ToDot(**input, {.compare_with = input->get()});
  EXPECT_THAT(same, Not(HasSubstr("palegreen")));
  EXPECT_THAT(same, Not(HasSubstr("removed")));

  // Both render with Graphviz (scripts/setup.sh installs it).
  const std::string dir =
      std::getenv("TEST_TMPDIR") != nullptr ? std::getenv("TEST_TMPDIR") : "/tmp";
  for (const auto& [name, text] : {std::pair{"before.svg", before}, std::pair{"after.svg", diff}}) {
    const std::string path = dir + "/" + name;
    ASSERT_TRUE(WriteDotFile(path, text).ok()) << WriteDotFile(path, text);
    std::ifstream svg(path);
    std::stringstream content;
    content << svg.rdbuf();
    EXPECT_THAT(content.str(), HasSubstr("<svg")) << path;
  }
}

TEST(GraphDotTest, BodiesAreClusters) {
  absl::StatusOr<std::unique_ptr<ir::Model>> model = ir::text::ParseModel(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (bool c, float[2] X) => (float[2] Y) <float[2] W = {1.0, 2.0}> {
      Y = If(c) <
        then_branch = t () => (float[2] T) { A = Mul(X, W)  T = Relu(A) },
        else_branch = e () => (float[2] E) {
          E = If(c) <
            then_branch = t2 () => (float[2] T2) { T2 = Neg(X) },
            else_branch = e2 () => (float[2] E2) { E2 = Abs(X) }>
        }>
    })");
  ASSERT_TRUE(model.ok()) << model.status();
  const std::string dot = ToDot(**model);
  ExpectOneVertexPerNode(**model, dot);
  EXPECT_EQ(CountMatches(dot, "subgraph cluster_[0-9]+ \\{"), 4) << dot;
  EXPECT_THAT(dot, HasSubstr("label=\"If: t\""));
  EXPECT_THAT(dot, HasSubstr("label=\"If: e2\""));
  // The weight W is in Mul's label; the If node points into each of its bodies.
  EXPECT_THAT(dot, HasSubstr("label=\"Mul\\n?\\nW [2]\""));
  EXPECT_EQ(CountMatches(dot, "lhead=cluster_"), 4) << dot;
  // Clusters render.
  ASSERT_TRUE(WriteDotFile(std::string(std::getenv("TEST_TMPDIR")) + "/if.png", dot).ok());
}

TEST(GraphDotTest, RenderingNeedsAKnownFormatOrWritesText) {
  const std::string dir = std::getenv("TEST_TMPDIR");
  ASSERT_TRUE(WriteDotFile(dir + "/plain.dot", "digraph g { a -> b; }").ok());
  std::ifstream in(dir + "/plain.dot");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, "digraph g { a -> b; }");
  const absl::Status bad = WriteDotFile(dir + "/bad.svg", "this is not dot");
  EXPECT_TRUE(absl::IsFailedPrecondition(bad)) << bad;
}

}  // namespace
}  // namespace onnx_opt::tools
