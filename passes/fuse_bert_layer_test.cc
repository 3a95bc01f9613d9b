// The acceptance check of the standard fusions: a BERT encoder layer as exporters write it at opset
// 17 (MatMul+Add projections, Reshape/Transpose to heads, Div by sqrt(d), an additive mask,
// Softmax, the primitive LayerNorm and the erf form of Gelu), converted to opset 23 and optimized
// by `convert(23),default`, ends with Attention, LayerNormalization and Gelu, and computes the
// same.
#include <cmath>
#include <map>
#include <string>

#include "absl/strings/str_cat.h"
#include "equivalence/equivalence.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ir/io/model_io.h"
#include "optimizer/model_stats.h"
#include "optimizer/pass_manager.h"
#include "passes/testing/pass_test_util.h"

namespace onnx_opt::passes {
namespace {

using ::onnx_opt::passes::testing::ExpectSameOutputs;
using ::onnx_opt::passes::testing::OpTypes;
using ::onnx_opt::passes::testing::RunPipelineOnText;
using ::testing::Contains;
using ::testing::Not;

// `n` deterministic weights in [-0.5, 0.5] as a text literal list.
std::string Weights(int n, double phase) {
  std::string out;
  for (int i = 0; i < n; ++i) absl::StrAppend(&out, i ? "," : "", 0.5 * std::sin(1.7 * i + phase));
  return out;
}

// LayerNorm over the last axis of `x` as exporters write it (opset 17: ReduceMean takes
// attributes).
std::string LayerNorm(const std::string& p, const std::string& x, const std::string& y) {
  return absl::StrCat("      ", p, "mean = ReduceMean<axes = [-1]>(", x, ")\n      ", p, "d = Sub(",
                      x, ", ", p, "mean)\n      ", p, "sq = Pow(", p, "d, two)\n      ", p,
                      "var = ReduceMean<axes = [-1]>(", p, "sq)\n      ", p, "ve = Add(", p,
                      "var, eps)\n      ", p, "sd = Sqrt(", p, "ve)\n      ", p, "n = Div(", p,
                      "d, ", p, "sd)\n      ", p, "g = Mul(", p, "n, ", p, "gamma)\n      ", y,
                      " = Add(", p, "g, ", p, "beta)\n");
}

// Hidden 8, 2 heads of 4, FFN 16, sequence 4, batch 1.
std::string ExportedBertLayer() {
  std::string inits;
  int phase = 0;
  auto add = [&](const std::string& decl, int n) {
    absl::StrAppend(&inits, inits.empty() ? "" : ",\n     ", decl, " = {",
                    Weights(n, 0.37 * ++phase), "}");
  };
  for (const char* w : {"Wq", "Wk", "Wv", "Wo"}) add(absl::StrCat("float[8,8] ", w), 64);
  for (const char* b : {"bq", "bk", "bv", "bo", "b2"}) add(absl::StrCat("float[8] ", b), 8);
  add("float[8,16] W1", 128);
  add("float[16] b1", 16);
  add("float[16,8] W2", 128);
  for (const char* b : {"ln1_beta", "ln2_beta"}) add(absl::StrCat("float[8] ", b), 8);
  absl::StrAppend(&inits, ",\n     float[8] ln1_gamma = {1.1,0.9,1.0,1.05,0.95,1.2,0.8,1.0}",
                  ",\n     float[8] ln2_gamma = {0.9,1.1,1.0,0.95,1.05,0.8,1.2,1.0}",
                  ",\n     int64[4] heads = {1, 4, 2, 4}, int64[3] merged = {1, 4, 8}",
                  ",\n     float sqrt_d = {2.0}, float two = {2.0}, float eps = {1e-12}",
                  ",\n     float sqrt2 = {1.4142135}, float one = {1.0}, float half = {0.5}");
  std::string body;
  for (const char* h : {"q", "k", "v"}) {
    absl::StrAppend(&body, "      ", h, "0 = MatMul(X, W", h, ")\n      ", h, "1 = Add(", h, "0, b",
                    h, ")\n      ", h, "2 = Reshape(", h, "1, heads)\n      ", h,
                    " = Transpose<perm = ", std::string(h) == "k" ? "[0, 2, 3, 1]" : "[0, 2, 1, 3]",
                    ">(", h, "2)\n");
  }
  absl::StrAppend(&body, R"(      s = MatMul(q, k)
      scaled = Div(s, sqrt_d)
      masked = Add(scaled, mask)
      p = Softmax<axis = -1>(masked)
      c = MatMul(p, v)
      ct = Transpose<perm = [0, 2, 1, 3]>(c)
      cm = Reshape(ct, merged)
      o0 = MatMul(cm, Wo)
      o1 = Add(o0, bo)
      r1 = Add(o1, X)
)");
  absl::StrAppend(&body, LayerNorm("ln1_", "r1", "a"));
  absl::StrAppend(&body, R"(      f0 = MatMul(a, W1)
      f1 = Add(f0, b1)
      e0 = Div(f1, sqrt2)
      e1 = Erf(e0)
      e2 = Add(e1, one)
      e3 = Mul(f1, e2)
      e4 = Mul(e3, half)
      f2 = MatMul(e4, W2)
      f3 = Add(f2, b2)
      r2 = Add(f3, a)
)");
  absl::StrAppend(&body, LayerNorm("ln2_", "r2", "Y"));
  return absl::StrCat(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    bert_layer (float[1,4,8] X, float[1,1,1,4] mask) => (float[1,4,8] Y)
    <)",
                      inits, ">\n    {\n", body, "    }");
}

TEST(FuseBertLayerTest, ConvertTo23ThenDefaultEndsWithAttentionLayerNormAndGelu) {
  auto run = RunPipelineOnText(ExportedBertLayer(), "convert(23),default");
  ASSERT_TRUE(run.ok()) << run.status();
  const std::vector<std::string> ops = OpTypes(run->after->graph());
  EXPECT_THAT(ops, Contains("Attention"));
  EXPECT_THAT(ops, Contains("LayerNormalization").Times(2));
  EXPECT_THAT(ops, Contains("Gelu"));
  // The split into heads and the merge back went into Attention's 3-D form.
  for (const char* gone :
       {"Softmax", "Erf", "ReduceMean", "Sqrt", "Pow", "Div", "Reshape", "Transpose"}) {
    EXPECT_THAT(ops, Not(Contains(gone))) << gone;
  }
  // The key-padding mask [1,1,1,4] reaches Attention with its 4 query rows, [1,1,4,4]:
  // onnxruntime's kernel refuses a 1 there (tools/ort_interop runs the result).
  for (const ir::Node* n : run->after->graph().nodes()) {
    if (n->op_type() != "Attention") continue;
    ASSERT_EQ(n->num_inputs(), 4u);
    const ir::Type& mask = n->input(3)->type();
    ASSERT_TRUE(mask.is_tensor() && mask.shape().has_value());
    EXPECT_EQ(ir::ShapeToString(*mask.shape()), "[1,1,4,4]");
  }
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
}

// The same on the bundled transformer block (opset 20, reshape targets computed from shapes).
TEST(FuseBertLayerTest, BundledTransformerBlockAtOpset23) {
  auto original = ir::io::LoadModel("testdata/models/transformer_block.onnx");
  auto model = ir::io::LoadModel("testdata/models/transformer_block.onnx");
  ASSERT_TRUE(original.ok() && model.ok());
  optimizer::PassManager manager;
  auto result = manager.Run(**model, "convert(23),default");
  ASSERT_TRUE(result.ok()) << result.status();
  const std::map<std::string, int64_t> ops = optimizer::CountOpTypes(**model);
  EXPECT_EQ(ops.count("Softmax"), 0u);
  EXPECT_EQ(ops.at("Attention"), 1);
  EXPECT_EQ(ops.at("LayerNormalization"), 2);
  EXPECT_EQ(ops.at("Gelu"), 1);
  equivalence::EquivalenceOptions options;
  options.dims["N"] = 2;
  EXPECT_OK(equivalence::CheckEquivalent(**original, **model, options));
}

}  // namespace
}  // namespace onnx_opt::passes
