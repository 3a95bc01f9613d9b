// Larger models written the way tests across the project write them.
#include <algorithm>
#include <string>

#include "gtest/gtest.h"
#include "ir/captures.h"
#include "ir/text/model_equality.h"
#include "ir/text/parser.h"
#include "ir/text/printer.h"
#include "ir/topological_sort.h"
#include "ir/verifier.h"

namespace onnx_opt::ir::text {
namespace {

std::unique_ptr<Model> ParseVerifyRoundTrip(std::string_view text) {
  absl::StatusOr<std::unique_ptr<Model>> m = ParseModel(text);
  EXPECT_TRUE(m.ok()) << m.status();
  if (!m.ok()) return nullptr;
  absl::Status v = Verify(**m);
  EXPECT_TRUE(v.ok()) << v;
  const std::string printed = PrintModel(**m);
  absl::StatusOr<std::unique_ptr<Model>> again = ParseModel(printed);
  EXPECT_TRUE(again.ok()) << again.status() << "\n" << printed;
  if (!again.ok()) return nullptr;
  absl::Status eq = StructurallyEqual(**m, **again);
  EXPECT_TRUE(eq.ok()) << eq << "\n" << printed;
  EXPECT_EQ(PrintModel(**again), printed);
  return std::move(*m);
}

Node* FindNode(const Graph& g, std::string_view output) {
  for (Node* n : g.nodes()) {
    for (size_t i = 0; i < n->num_outputs(); ++i) {
      if (n->output(i)->name() == output) return n;
    }
  }
  return nullptr;
}

TEST(RealisticModelsTest, SmallCnnBlock) {
  auto m = ParseVerifyRoundTrip(R"(
<
  ir_version: 8,
  opset_import: ["" : 17],
  producer_name: "onnx-opt tests"
>
cnn_block (float[N, 2, 4, 4] image) => (float[N, 3] logits)
<
  float[2, 2, 3, 3] conv_w = {
    0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9,
    -0.1, -0.2, -0.3, -0.4, -0.5, -0.6, -0.7, -0.8, -0.9,
    1, 0, 0, 0, 1, 0, 0, 0, 1,
    0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5},
  float[2] conv_b = {0.01, -0.01},
  float[2] bn_scale = {1.0, 0.9},
  float[2] bn_bias = {0.0, 0.1},
  float[2] bn_mean = {0.05, -0.05},
  float[2] bn_var = {1.0, 1.2},
  float[3, 2] fc_w = {0.1, -0.2, 0.3, -0.4, 0.5, -0.6},
  float[3] fc_b = {0, 0, 1e-3},
  float[N, 2, 4, 4] conv,
  float[N, 2, 2, 2] pooled
>
{
  [conv1] conv = Conv<kernel_shape = [3, 3], pads = [1, 1, 1, 1], strides = [1, 1], group = 1>(image, conv_w, conv_b)
  [bn1] bn = BatchNormalization<epsilon = 1e-5, momentum = 0.9>(conv, bn_scale, bn_bias, bn_mean, bn_var)
  relu = Relu(bn)
  residual = Add(relu, image)
  pooled = MaxPool<kernel_shape = [2, 2], strides = [2, 2], auto_pad = "NOTSET">(residual)
  gap = GlobalAveragePool(pooled)
  shape = Constant<value = int64[2] {0, -1}>()
  flat = Reshape(gap, shape)
  logits = Gemm<alpha = 1.0, beta = 1.0, transB = 1>(flat, fc_w, fc_b)
}
)");
  ASSERT_NE(m, nullptr);
  const Graph& g = m->graph();
  EXPECT_EQ(g.num_nodes(), 9u);
  EXPECT_EQ(g.initializers().size(), 8u);
  const Node* conv = FindNode(g, "conv");
  ASSERT_NE(conv, nullptr);
  EXPECT_EQ(conv->name(), "conv1");
  EXPECT_EQ(conv->GetInts("pads"), (std::vector<int64_t>{1, 1, 1, 1}));
  EXPECT_EQ(conv->input(1)->initializer()->num_elements(), 36u);
  EXPECT_FLOAT_EQ(conv->input(1)->initializer()->at<float>(9), -0.1f);
  EXPECT_FLOAT_EQ(FindNode(g, "bn")->GetFloat("epsilon", 0), 1e-5f);
  const Attribute* shape = FindNode(g, "shape")->FindAttribute("value");
  ASSERT_NE(shape, nullptr);
  EXPECT_EQ(shape->t->ToVector<int64_t>(), (std::vector<int64_t>{0, -1}));
  EXPECT_EQ(FindNode(g, "pooled")->GetString("auto_pad", ""), "NOTSET");
  EXPECT_EQ(g.outputs()[0]->type(),
            Type::Tensor(DataType::kFloat, Shape({Dim::Symbolic("N"), Dim::Known(3)})));
  // The image feeds the Conv and the residual Add.
  EXPECT_EQ(g.inputs()[0]->uses().size(), 2u);
}

TEST(RealisticModelsTest, IfAndLoopCapturingOuterValues) {
  const char* text = R"(
<ir_version: 9, opset_import: ["" : 19]>
control_flow (float[4] x, int64 trip_count, bool start) => (float[4] final, float[M, 4] history, float[4] chosen)
<float[4] step = {0.5, 0.5, 0.5, 0.5}, float[4] limit = {10, 10, 10, 10}>
{
  doubled = Add(x, x)
  final, history = Loop(trip_count, start, x) <
    body = loop_body (int64 i, bool cond_in, float[4] acc) => (bool cond_out, float[4] acc_out, float[4] scan) {
      grown = Add(acc, step)
      big = Greater(grown, limit)
      any_big = ReduceMax<keepdims = 0>(big_f)
      big_f = Cast<to = 1>(big)
      cond_out = Less(any_big, one)
      one = Constant<value_float = 1.0>()
      acc_out = If(cond_in) <
        then_branch = keep () => (float[4] kept) { kept = Add(grown, doubled) },
        else_branch = reset () => (float[4] reset_value) { reset_value = Identity(x) }
      >
      scan = Identity(acc_out)
    }
  >
  chosen = If(start) <
    then_branch = take_final () => (final) {},
    else_branch = take_doubled () => (float[4] d) { d = Mul(doubled, step) }
  >
}
)";
  // The loop body uses `big_f` and `one` before defining them: the parser accepts that, the
  // verifier does not, and a topological sort fixes it.
  absl::StatusOr<std::unique_ptr<Model>> parsed = ParseModel(text);
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  Model& m = **parsed;
  EXPECT_FALSE(Verify(m).ok());
  ASSERT_TRUE(TopologicalSort(m.graph()).ok());
  ASSERT_TRUE(Verify(m).ok()) << Verify(m);
  auto sorted = ParseVerifyRoundTrip(PrintModel(m));
  ASSERT_NE(sorted, nullptr);

  const Graph& g = sorted->graph();
  const Node* loop = FindNode(g, "final");
  ASSERT_NE(loop, nullptr);
  const Graph& body = *loop->FindAttribute("body")->g;
  EXPECT_EQ(body.inputs().size(), 3u);
  EXPECT_EQ(body.outputs().size(), 3u);
  // The body captures the initializers, `doubled` (through the nested If) and the outer input `x`.
  std::vector<std::string> captured;
  for (const Value* v : CapturedValues(body)) captured.push_back(v->name());
  std::sort(captured.begin(), captured.end());
  EXPECT_EQ(captured, (std::vector<std::string>{"doubled", "limit", "step", "x"}));
  const Node* inner_if = FindNode(body, "acc_out");
  ASSERT_NE(inner_if, nullptr);
  const Graph& keep = *inner_if->FindAttribute("then_branch")->g;
  EXPECT_EQ(keep.first_node()->input(0), FindNode(body, "grown")->output(0));
  EXPECT_EQ(keep.first_node()->input(1), FindNode(g, "doubled")->output(0));
  // A branch that returns an outer value directly.
  const Node* chosen = FindNode(g, "chosen");
  const Graph& take_final = *chosen->FindAttribute("then_branch")->g;
  EXPECT_EQ(take_final.outputs()[0], loop->output(0));
  EXPECT_EQ(g.outputs()[1]->type(),
            Type::Tensor(DataType::kFloat, Shape({Dim::Symbolic("M"), Dim::Known(4)})));
}

TEST(RealisticModelsTest, FunctionsWithAttributesAndReferences) {
  auto m = ParseVerifyRoundTrip(R"(
<
  ir_version: 10,
  opset_import: ["" : 21, "local" : 1]
>
main (float[N, 8] x) => (float[N, 8] y, float[N, 8] z)
{
  h = local.LeakyScale<alpha = 0.2, scale = 3.0>(x)
  y = local.LeakyScale(h)
  z = local.Norm:fast<axes = [1]>(y)
}

<
  domain: "local",
  opset_import: ["" : 21],
  doc_string: "alpha * x for x < 0, x otherwise, then times scale"
>
LeakyScale <alpha: float = 0.01, scale: float = 1.0> (X) => (Y)
{
  leaky = LeakyRelu<alpha: float = @alpha>(X)
  s = Constant<value_float: float = @scale>()
  Y = Mul(leaky, s)
}

<
  domain: "local",
  overload: "fast",
  opset_import: ["" : 21]
>
Norm <axes> (float[N, C] X) => (float[N, C] Y)
<float[N, 1] mean>
{
  axes_t = Constant<value_ints: ints = @axes>()
  mean = ReduceMean<keepdims = 1>(X, axes_t)
  centered = Sub(X, mean)
  sq = Mul(centered, centered)
  var = ReduceMean<keepdims = 1>(sq, axes_t)
  eps = Constant<value_float = 1e-6>()
  var_eps = Add(var, eps)
  std = Sqrt(var_eps)
  Y = Div(centered, std)
}
)");
  ASSERT_NE(m, nullptr);
  ASSERT_EQ(m->functions().size(), 2u);
  const Function* leaky = m->FindFunction("local", "LeakyScale");
  ASSERT_NE(leaky, nullptr);
  EXPECT_TRUE(leaky->attribute_names().empty());
  ASSERT_EQ(leaky->attribute_defaults().size(), 2u);
  EXPECT_FLOAT_EQ(leaky->attribute_defaults()[0].f, 0.01f);
  const Attribute* alpha = leaky->body().first_node()->FindAttribute("alpha");
  ASSERT_NE(alpha, nullptr);
  EXPECT_EQ(alpha->ref_attr_name(), "alpha");
  EXPECT_EQ(alpha->kind(), AttributeKind::kFloat);
  const Function* norm = m->FindFunction("local", "Norm", "fast");
  ASSERT_NE(norm, nullptr);
  EXPECT_EQ(norm->attribute_names(), std::vector<std::string>{"axes"});
  EXPECT_EQ(norm->body().inputs()[0]->type(),
            Type::Tensor(DataType::kFloat, Shape({Dim::Symbolic("N"), Dim::Symbolic("C")})));
  const Attribute* axes = norm->body().first_node()->FindAttribute("value_ints");
  ASSERT_NE(axes, nullptr);
  EXPECT_EQ(axes->kind(), AttributeKind::kInts);
  EXPECT_EQ(axes->ref_attr_name(), "axes");
  const Node* call = FindNode(m->graph(), "z");
  EXPECT_EQ(call->domain(), "local");
  EXPECT_EQ(call->overload(), "fast");
  EXPECT_EQ(call->GetInts("axes"), std::vector<int64_t>{1});
}

}  // namespace
}  // namespace onnx_opt::ir::text
