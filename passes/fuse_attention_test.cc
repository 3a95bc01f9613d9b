// Tests for fuse-attention: scaled dot-product attention written out as primitives becomes one
// Attention node (opset 23), checked structurally and numerically.
#include <cmath>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ir/constant_value.h"
#include "passes/testing/pass_test_util.h"

namespace onnx_opt::passes {
namespace {

using ::onnx_opt::passes::testing::ExpectSameOutputs;
using ::onnx_opt::passes::testing::OpTypes;
using ::onnx_opt::passes::testing::RunPipelineOnText;
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::Not;

// `n` deterministic weights in [-0.5, 0.5] as a text literal list.
std::string Weights(int n, double phase) {
  std::string out;
  for (int i = 0; i < n; ++i) absl::StrAppend(&out, i ? "," : "", 0.5 * std::sin(1.7 * i + phase));
  return out;
}

const ir::Node* FindOp(const ir::Graph& g, const std::string& op) {
  for (const ir::Node* n : g.nodes()) {
    if (n->op_type() == op) return n;
  }
  return nullptr;
}

// The constant target shape of the Expand that feeds `attention`'s mask; empty when there is none.
std::vector<int64_t> MaskTarget(const ir::Node& attention) {
  if (attention.num_inputs() < 4 || attention.input(3)->producer() == nullptr ||
      attention.input(3)->producer()->op_type() != "Expand") {
    return {};
  }
  const ir::Tensor* target = ir::GetConstantTensor(attention.input(3)->producer()->input(1));
  if (target == nullptr) return {};
  return ir::ConstantAsInts(*target).value_or(std::vector<int64_t>{});
}

// What an exporter writes for 2 heads of size 4 over [B=2, S=3, 8]: projections, Reshape/Transpose
// to heads (keys straight to [B,H,D,S]), Div by sqrt(d), an additive mask, Softmax, MatMul, and
// back to [B, S, 8].
std::string ExportedSelfAttention() {
  return absl::StrCat(R"(
    <ir_version: 10, opset_import: ["" : 23]>
    g (float[2,3,8] X, float[2,1,1,3] mask) => (float[2,3,8] Y)
    <float[8,8] Wq = {)",
                      Weights(64, 0.1), "}, float[8,8] Wk = {", Weights(64, 0.7),
                      "}, float[8,8] Wv = {", Weights(64, 1.3), R"(},
     int64[4] heads = {2, 3, 2, 4}, int64[3] merged = {2, 3, 8}, float sqrt_d = {2.0}>
    {
      q0 = MatMul(X, Wq)
      q1 = Reshape(q0, heads)
      q = Transpose<perm = [0, 2, 1, 3]>(q1)
      k0 = MatMul(X, Wk)
      k1 = Reshape(k0, heads)
      kt = Transpose<perm = [0, 2, 3, 1]>(k1)
      v0 = MatMul(X, Wv)
      v1 = Reshape(v0, heads)
      v = Transpose<perm = [0, 2, 1, 3]>(v1)
      s = MatMul(q, kt)
      scaled = Div(s, sqrt_d)
      masked = Add(scaled, mask)
      p = Softmax<axis = -1>(masked)
      c = MatMul(p, v)
      ct = Transpose<perm = [0, 2, 1, 3]>(c)
      Y = Reshape(ct, merged)
    })");
}

TEST(FuseAttentionTest, ExportedHeadsFormWithDivAndMask) {
  auto run = RunPipelineOnText(ExportedSelfAttention(), "infer-shapes,fuse-attention");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(
      OpTypes(run->after->graph()),
      ElementsAre("MatMul", "Reshape", "Transpose", "MatMul", "Reshape", "MatMul", "Reshape",
                  "Transpose", "Transpose", "Expand", "Attention", "Transpose", "Reshape"));
  const ir::Node* attention = FindOp(run->after->graph(), "Attention");
  ASSERT_NE(attention, nullptr);
  EXPECT_FLOAT_EQ(attention->GetFloat("scale", 0), 0.5f);
  EXPECT_EQ(attention->num_inputs(), 4u);
  // The keys' Transpose took the swap: [0, 2, 3, 1] became [0, 2, 1, 3].
  EXPECT_THAT(attention->input(1)->producer()->GetInts("perm"), ElementsAre(0, 2, 1, 3));
  // The key-padding mask [2,1,1,3] is expanded to the 3 query rows (onnxruntime wants them).
  EXPECT_THAT(MaskTarget(*attention), ElementsAre(1, 1, 3, 1));
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
}

TEST(FuseAttentionTest, FullyMatchedHeadsBecomeThe3DForm) {
  auto run = RunPipelineOnText(ExportedSelfAttention(), "fixed(infer-shapes,fuse-attention)");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()),
              ElementsAre("MatMul", "MatMul", "MatMul", "Expand", "Attention"));
  const ir::Node* attention = run->after->graph().last_node();
  EXPECT_THAT(MaskTarget(*attention), ElementsAre(1, 1, 3, 1));
  EXPECT_FLOAT_EQ(attention->GetFloat("scale", 0), 0.5f);
  EXPECT_EQ(attention->GetInt("q_num_heads", 0), 2);
  EXPECT_EQ(attention->GetInt("kv_num_heads", 0), 2);
  EXPECT_EQ(attention->output(0)->name(), "Y");
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
}

TEST(FuseAttentionTest, HeadsMergedOtherwiseKeepThe4DForm) {
  // The result is merged to [B, S, H, D] only (no Reshape back): the 4-D form stays.
  std::string text = ExportedSelfAttention();
  text.replace(text.find("float[2,3,8] Y"), 14, "float[2,3,2,4] Y");
  text.replace(text.find("      Y = Reshape(ct, merged)"), 29, "      Y = Identity(ct)");
  auto run = RunPipelineOnText(text, "fixed(infer-shapes,fuse-attention)");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), Contains("Attention"));
  EXPECT_THAT(OpTypes(run->after->graph()), Contains("Reshape").Times(3));
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
}

TEST(FuseAttentionTest, MulOnTheProductAndKeysTransposedBack) {
  auto run = RunPipelineOnText(R"(
    <ir_version: 10, opset_import: ["" : 23]>
    g (float[2,2,3,4] Q, float[2,2,5,4] K, float[2,2,5,6] V) => (float[2,2,3,6] Y)
    <float c = {0.125}>
    {
      kt = Transpose<perm = [0, 1, 3, 2]>(K)
      s = MatMul(Q, kt)
      scaled = Mul(c, s)
      p = Softmax(scaled)
      Y = MatMul(p, V)
    })",
                               "infer-shapes,fuse-attention");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("Attention"));
  EXPECT_FLOAT_EQ(run->after->graph().first_node()->GetFloat("scale", 0), 0.125f);
  EXPECT_EQ(run->after->graph().outputs()[0]->name(), "Y");
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
}

TEST(FuseAttentionTest, ScaledQueryAndKeysAndNoScaleAtAll) {
  auto run = RunPipelineOnText(R"(
    <ir_version: 10, opset_import: ["" : 23]>
    g (float[N,2,S,4] Q, float[N,2,4,S] Kt, float[N,2,S,4] V, float[N,1,S,S] M) => (float[N,2,S,4] Y, float[N,2,S,4] Z)
    <float a = {0.5}, float b = {2.0}>
    {
      qs = Mul(Q, a)
      ks = Div(Kt, b)
      s = MatMul(qs, ks)
      sm = Add(M, s)
      p = Softmax<axis = 3>(sm)
      Y = MatMul(p, V)
      s2 = MatMul(Q, Kt)
      p2 = Softmax(s2)
      Z = MatMul(p2, V)
    })",
                               "infer-shapes,fuse-attention");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()),
              ElementsAre("Transpose", "Attention", "Transpose", "Attention"));
  const ir::Node* attention = FindOp(run->after->graph(), "Attention");
  ASSERT_NE(attention, nullptr);
  EXPECT_FLOAT_EQ(attention->GetFloat("scale", 0), 0.25f);
  EXPECT_FLOAT_EQ(run->after->graph().last_node()->GetFloat("scale", 0), 1.0f);
  equivalence::EquivalenceOptions options;
  options.dims = {{"N", 2}, {"S", 3}};
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after, options));
}

// onnxruntime's Attention takes only masks whose dim -2 is the query length (tools/ort_interop):
// a mask broadcast over the queries goes through an Expand to Sq rows, whose count comes from a
// constant, the mask's own last dim (self-attention) or the queries before their split.
TEST(FuseAttentionTest, MasksBroadcastOverQueriesGetTheirRows) {
  // Self-attention with symbolic B and S, a BERT key-padding mask [B,1,1,S] shared by two
  // attentions, and a [S] row for a third: Sq from the mask's last dim, one Expand after cse.
  auto run =
      RunPipelineOnText(R"(
    <ir_version: 10, opset_import: ["" : 23]>
    g (float[B,2,S,4] Q, float[B,2,S,4] K, float[B,2,S,4] V, float[B,1,1,S] M, float[S] R)
      => (float[B,2,S,4] Y, float[B,2,S,4] Z, float[B,2,S,4] W)
    <float c = {0.5}>
    {
      kt = Transpose<perm = [0, 1, 3, 2]>(K)
      s1 = MatMul(Q, kt)
      c1 = Mul(s1, c)
      m1 = Add(c1, M)
      p1 = Softmax(m1)
      Y = MatMul(p1, V)
      s2 = MatMul(V, kt)
      c2 = Mul(s2, c)
      m2 = Add(M, c2)
      p2 = Softmax(m2)
      Z = MatMul(p2, Q)
      s3 = MatMul(K, kt)
      c3 = Mul(s3, c)
      m3 = Add(c3, R)
      p3 = Softmax(m3)
      W = MatMul(p3, V)
    })",
                        "fixed(infer-shapes,fuse-attention,dedup-initializers,cse,dead-nodes)");
  ASSERT_TRUE(run.ok()) << run.status();
  const std::vector<std::string> ops = OpTypes(run->after->graph());
  EXPECT_THAT(ops, Contains("Attention").Times(3));
  EXPECT_THAT(ops, Contains("Expand").Times(2));  // [B,1,S,S] once for Y and Z, [S,S] for W
  EXPECT_THAT(ops, Contains("Shape").Times(2));   // M's and R's last dims
  for (const ir::Node* n : run->after->graph().nodes()) {
    if (n->op_type() == "Shape") EXPECT_EQ(n->GetInt("start", 0), -1);
  }
  equivalence::EquivalenceOptions options;
  options.dims = {{"B", 2}, {"S", 3}};
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after, options));
}

TEST(FuseAttentionTest, CrossAttentionMaskRowsFromTheQueriesBeforeTheirSplit) {
  // Queries of symbolic length T over keys of length S: the rows come from Shape(X)[1], which
  // leaves the split into heads to go into the 3-D form.
  auto run =
      RunPipelineOnText(absl::StrCat(R"(
    <ir_version: 10, opset_import: ["" : 23]>
    g (float[2,T,8] X, float[2,S,8] E, float[2,1,1,S] mask) => (float[2,T,8] Y)
    <float[8,8] Wq = {)",
                                     Weights(64, 0.1), "}, float[8,8] Wk = {", Weights(64, 0.7),
                                     "}, float[8,8] Wv = {", Weights(64, 1.3), R"(},
     int64[4] heads = {0, 0, 2, 4}, int64[3] merged = {0, 0, 8}, float sqrt_d = {2.0}>
    {
      q0 = MatMul(X, Wq)
      q1 = Reshape(q0, heads)
      q = Transpose<perm = [0, 2, 1, 3]>(q1)
      k0 = MatMul(E, Wk)
      k1 = Reshape(k0, heads)
      kt = Transpose<perm = [0, 2, 3, 1]>(k1)
      v0 = MatMul(E, Wv)
      v1 = Reshape(v0, heads)
      v = Transpose<perm = [0, 2, 1, 3]>(v1)
      s = MatMul(q, kt)
      scaled = Div(s, sqrt_d)
      masked = Add(scaled, mask)
      p = Softmax<axis = -1>(masked)
      c = MatMul(p, v)
      ct = Transpose<perm = [0, 2, 1, 3]>(c)
      Y = Reshape(ct, merged)
    })"),
                        "fixed(infer-shapes,fuse-attention,dead-nodes)");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()),
              ElementsAre("MatMul", "MatMul", "MatMul", "Shape", "Concat", "Expand", "Attention"));
  const ir::Node* shape = FindOp(run->after->graph(), "Shape");
  ASSERT_NE(shape, nullptr);
  EXPECT_EQ(shape->input(0)->name(), "q0");  // the queries before their split, [2,T,8]
  EXPECT_EQ(shape->GetInt("start", 0), 1);
  EXPECT_EQ(shape->GetInt("end", 0), 2);
  equivalence::EquivalenceOptions options;
  options.dims = {{"T", 3}, {"S", 5}};
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after, options));
}

TEST(FuseAttentionTest, MaskRowsFromQAndFromAConstant) {
  // Queries given as [2,2,T,4] (no split to look through): Shape(Q)[2]. A known Sq: a constant
  // target, [Sq, 1] for a rank-1 mask.
  auto run = RunPipelineOnText(R"(
    <ir_version: 10, opset_import: ["" : 23]>
    g (float[2,2,T,4] Q, float[2,2,S,4] K, float[2,2,S,4] V, float[2,1,1,S] M,
       float[2,2,3,4] P, float[2,2,5,4] K5, float[2,2,5,4] V5, float[5] R)
      => (float[2,2,T,4] Y, float[2,2,3,4] Z)
    {
      kt = Transpose<perm = [0, 1, 3, 2]>(K)
      s1 = MatMul(Q, kt)
      m1 = Add(s1, M)
      p1 = Softmax(m1)
      Y = MatMul(p1, V)
      k5t = Transpose<perm = [0, 1, 3, 2]>(K5)
      s2 = MatMul(P, k5t)
      m2 = Add(s2, R)
      p2 = Softmax(m2)
      Z = MatMul(p2, V5)
    })",
                               "infer-shapes,fuse-attention");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), Contains("Attention").Times(2));
  const ir::Node* shape = FindOp(run->after->graph(), "Shape");
  ASSERT_NE(shape, nullptr);
  EXPECT_EQ(shape->input(0)->name(), "Q");
  EXPECT_EQ(shape->GetInt("start", 0), 2);
  EXPECT_EQ(shape->GetInt("end", 0), 3);
  const ir::Node* second = run->after->graph().last_node();
  ASSERT_EQ(second->op_type(), "Attention");
  EXPECT_THAT(MaskTarget(*second), ElementsAre(3, 1));
  equivalence::EquivalenceOptions options;
  options.dims = {{"T", 3}, {"S", 5}};
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after, options));
}

TEST(FuseAttentionTest, MasksNotSurelyOfTheKeysLengthAreExpandedToIt) {
  // A mask broadcast over the keys ([2,1,3,1]), and a key-padding mask [B,1,1,S] over scores whose
  // length inference left unknown (as in an exported BERT, where the sequence axis goes unknown
  // once the position ids are sliced to the input's length): both expanded to [.., Sq, Skv], from
  // constants for the first, from Q's and V's shapes for the second.
  auto run = RunPipelineOnText(R"(
    <ir_version: 10, opset_import: ["" : 23]>
    g (float[2,2,3,4] Q, float[2,2,4,3] Kt, float[2,2,3,4] V, float[2,1,3,1] M,
       float[B,2,?,4] Q2, float[B,2,4,?] K2t, float[B,2,?,4] V2, float[B,1,1,S] M2)
      => (float[2,2,3,4] Y, float[B,2,?,4] Z)
    {
      s = MatMul(Q, Kt)
      m = Add(s, M)
      p = Softmax(m)
      Y = MatMul(p, V)
      s2 = MatMul(Q2, K2t)
      m2 = Add(s2, M2)
      p2 = Softmax(m2)
      Z = MatMul(p2, V2)
    })",
                               "infer-shapes,fuse-attention");
  ASSERT_TRUE(run.ok()) << run.status();
  const std::vector<std::string> ops = OpTypes(run->after->graph());
  EXPECT_THAT(ops, Contains("Attention").Times(2));
  const ir::Node* first = FindOp(run->after->graph(), "Attention");
  ASSERT_NE(first, nullptr);
  EXPECT_THAT(MaskTarget(*first), ElementsAre(1, 1, 3, 3));
  const ir::Node* second = run->after->graph().last_node();
  ASSERT_EQ(second->op_type(), "Attention");
  const ir::Node* expand = second->input(3)->producer();
  ASSERT_NE(expand, nullptr);
  ASSERT_EQ(expand->op_type(), "Expand");
  const ir::Node* concat = expand->input(1)->producer();
  ASSERT_NE(concat, nullptr);
  ASSERT_EQ(concat->op_type(), "Concat");
  ASSERT_EQ(concat->num_inputs(), 3u);  // [1, 1], Shape(Q2)[2], Shape(V2)[2]
  EXPECT_EQ(concat->input(1)->producer()->input(0)->name(), "Q2");
  EXPECT_EQ(concat->input(2)->producer()->input(0)->name(), "V2");
  equivalence::EquivalenceOptions options;
  options.dims = {{"B", 2}, {"S", 3}};
  options.shapes = {{"Q2", {2, 2, 3, 4}}, {"K2t", {2, 2, 4, 3}}, {"V2", {2, 2, 3, 4}}};
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after, options));
}

TEST(FuseAttentionTest, InexactFormsStay) {
  auto run = RunPipelineOnText(R"(
    <ir_version: 10, opset_import: ["" : 23]>
    g (float[2,2,3,4] Q, float[2,2,4,3] Kt, float[1,2,4,3] K1, float[2,2,3,4] V, float[2,1,3,2] M, float[2,2,3,3] F)
      => (float[2,2,3,4] A, float[2,2,3,4] B, float[2,2,3,4] C, float[2,2,3,4] D, float[2,2,3,4] E, float[2,2,3,3] G)
    <float neg = {-0.5}>
    {
      s1 = MatMul(Q, Kt)
      p1 = Softmax<axis = 2>(s1)
      A = MatMul(p1, V)
      s2 = MatMul(Q, Kt)
      m2 = Add(s2, M)
      p2 = Softmax(m2)
      B = MatMul(p2, V)
      s3 = MatMul(Q, K1)
      p3 = Softmax(s3)
      C = MatMul(p3, V)
      s4 = MatMul(Q, Kt)
      n4 = Mul(s4, neg)
      p4 = Softmax(n4)
      D = MatMul(p4, V)
      s5 = MatMul(Q, Kt)
      m5 = Add(s5, F)
      G = Softmax(m5)
      E = MatMul(G, V)
    })",
                               "infer-shapes,fuse-attention");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), Not(Contains("Attention")));
}

TEST(FuseAttentionTest, NeedsOpset23) {
  std::string text = ExportedSelfAttention();
  text.replace(text.find("\"\" : 23"), 7, "\"\" : 22");
  auto run = RunPipelineOnText(text, "infer-shapes,fuse-attention");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), Not(Contains("Attention")));
}

// Grouped-query attention as transformers writes it: 4 query heads and 2 key/value heads of 2 over
// [B=2, S=3, 8], K and V repeated to 4 heads by repeat_kv (Unsqueeze at 2, Expand, Reshape). With
// `cache`, K and V are Concat(past, new) on the sequence axis (past 4, total 7) and those are graph
// outputs (present_key/present_value), and the mask covers the 7 keys.
std::string GroupedQueryAttention(bool cache) {
  const std::string t = cache ? "7" : "3";
  std::string text = absl::StrCat(
      R"(
    <ir_version: 10, opset_import: ["" : 23]>
    g (float[2,3,8] X, float[2,1,3,@T] mask)",
      cache ? ", float[2,2,4,2] past_key, float[2,2,4,2] past_value" : "", ") => (float[2,3,8] Y",
      cache ? ", float[2,2,7,2] present_key, float[2,2,7,2] present_value" : "", R"()
    <float[8,8] Wq = {)",
      Weights(64, 0.1), "}, float[8,4] Wk = {", Weights(32, 0.7), "}, float[8,4] Wv = {",
      Weights(32, 1.3), R"(},
     int64[4] q_heads = {2, 3, 4, 2}, int64[4] kv_heads = {2, 3, 2, 2}, int64[3] merged = {2, 3, 8},
     int64[1] two = {2}, int64[5] repeated = {2, 2, 2, @T, 2}, int64[4] heads = {2, 4, @T, 2}, float sqrt_d = {1.4142135}>
    {
      q0 = MatMul(X, Wq)
      q1 = Reshape(q0, q_heads)
      q = Transpose<perm = [0, 2, 1, 3]>(q1)
      k0 = MatMul(X, Wk)
      k1 = Reshape(k0, kv_heads)
      k = Transpose<perm = [0, 2, 1, 3]>(k1)
      v0 = MatMul(X, Wv)
      v1 = Reshape(v0, kv_heads)
      v = Transpose<perm = [0, 2, 1, 3]>(v1)
)",
      cache ? R"(      present_key = Concat<axis = 2>(past_key, k)
      present_value = Concat<axis = -2>(past_value, v)
      ku = Unsqueeze(present_key, two)
      vu = Unsqueeze(present_value, two)
)"
            : R"(      ku = Unsqueeze(k, two)
      vu = Unsqueeze(v, two)
)",
      R"(      ke = Expand(ku, repeated)
      kr = Reshape(ke, heads)
      ve = Expand(vu, repeated)
      vr = Reshape(ve, heads)
      kt = Transpose<perm = [0, 1, 3, 2]>(kr)
      s = MatMul(q, kt)
      scaled = Div(s, sqrt_d)
      masked = Add(scaled, mask)
      p = Softmax<axis = -1>(masked)
      c = MatMul(p, vr)
      ct = Transpose<perm = [0, 2, 1, 3]>(c)
      Y = Reshape(ct, merged)
    })");
  // @T is the keys' length: the mask's, and the Expand and Reshape targets'.
  return absl::StrReplaceAll(text, {{"@T", t}});
}

TEST(FuseAttentionTest, GroupedQueryRepeatGoesIntoAttention) {
  auto run = RunPipelineOnText(GroupedQueryAttention(false), "fixed(infer-shapes,fuse-attention)");
  ASSERT_TRUE(run.ok()) << run.status();
  // The repeats went, and the head splits with them (the 3-D form with 4 query and 2 key/value
  // heads).
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("MatMul", "MatMul", "MatMul", "Attention"));
  const ir::Node* attention = run->after->graph().last_node();
  EXPECT_EQ(attention->GetInt("q_num_heads", 0), 4);
  EXPECT_EQ(attention->GetInt("kv_num_heads", 0), 2);
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));

  // The 4-D form alone (one sweep): K and V with their 2 heads.
  run = RunPipelineOnText(GroupedQueryAttention(false), "infer-shapes,fuse-attention");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), Not(Contains("Expand")));
  attention = FindOp(run->after->graph(), "Attention");
  ASSERT_NE(attention, nullptr);
  EXPECT_EQ(attention->input(1)->name(), "k");
  EXPECT_EQ(attention->input(2)->name(), "v");
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
}

TEST(FuseAttentionTest, RepeatsThatAlsoBroadcastStay) {
  // K of one head [2, 1, 3, 2] expanded to [2, 2, 2, 3, 2]: the Expand repeats the head axis too,
  // and Attention would not (its K must have Hkv heads); V's repeat is then kept as well.
  std::string text = GroupedQueryAttention(false);
  text.replace(text.find("ku = Unsqueeze(k, two)"), 22,
               "k_one = Slice(k, zero, one, one)\n      ku = Unsqueeze(k_one, two)");
  text.replace(text.find("int64[1] two = {2}"), 18,
               "int64[1] two = {2}, int64[1] zero = {0}, int64[1] one = {1}");
  auto run = RunPipelineOnText(text, "infer-shapes,fuse-attention");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), Contains("Attention"));
  EXPECT_THAT(OpTypes(run->after->graph()), Contains("Expand").Times(2));
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
}

TEST(FuseAttentionTest, KeyValueCacheGoesThroughAttention) {
  auto run = RunPipelineOnText(GroupedQueryAttention(true), "infer-shapes,fuse-attention");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), Not(Contains("Concat")));
  EXPECT_THAT(OpTypes(run->after->graph()), Not(Contains("Expand")));
  const ir::Node* attention = FindOp(run->after->graph(), "Attention");
  ASSERT_NE(attention, nullptr);
  ASSERT_EQ(attention->num_inputs(), 6u);
  EXPECT_EQ(attention->input(1)->name(), "k");
  EXPECT_EQ(attention->input(4)->name(), "past_key");
  EXPECT_EQ(attention->input(5)->name(), "past_value");
  ASSERT_EQ(attention->num_outputs(), 3u);
  EXPECT_EQ(attention->output(1)->name(), "present_key");
  EXPECT_EQ(attention->output(2)->name(), "present_value");
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));

  // The 3-D form takes the cache along.
  run = RunPipelineOnText(GroupedQueryAttention(true), "fixed(infer-shapes,fuse-attention)");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("MatMul", "MatMul", "MatMul", "Attention"));
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
}

TEST(FuseAttentionTest, KeyValueCacheUsedBeforeAttentionStaysToo) {
  // present_key is also used before the attention: the Concats stay for it (both: Attention returns
  // both presents or none), and Attention takes the past all the same, its presents unused (it has
  // them: onnxruntime refuses a past without them).
  std::string text = GroupedQueryAttention(true);
  text.replace(text.find("      ku = Unsqueeze"), 0,
               "      key_sum = ReduceSum<keepdims = 0>(present_key)\n");
  text.replace(text.find(", float[2,2,7,2] present_value)"), 0, ", float key_sum");
  auto run = RunPipelineOnText(text, "infer-shapes,fuse-attention");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), Contains("Concat").Times(2));
  const ir::Node* attention = FindOp(run->after->graph(), "Attention");
  ASSERT_NE(attention, nullptr);
  EXPECT_EQ(attention->num_inputs(), 6u);
  ASSERT_EQ(attention->num_outputs(), 3u);
  EXPECT_FALSE(attention->output(1)->has_uses());
  EXPECT_FALSE(attention->output(2)->has_uses());
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
}

// Self-attention over Q, K, V [B, 2, S, 4] whose additive mask is computed in the graph by
// `mask_nodes` (ending with `mask = ...`), from S = Shape(Q)[2] (s, and s1 = [s]) and b1 = [B].
std::string CausalSelfAttention(const std::string& mask_nodes) {
  return absl::StrCat(R"(
    <ir_version: 10, opset_import: ["" : 23]>
    g (float[B,2,S,4] Q, float[B,2,S,4] K, float[B,2,S,4] V) => (float[B,2,S,4] Y)
    <int64 zero = {0}, int64 one = {1}, int64 two = {2}, int64[1] axes0 = {0}, int64[1] axes1 = {1},
     int64[2] axes01 = {0, 1}, int64[1] ones1 = {1}, int64[2] col = {-1, 1}, float zf = {0.0},
     float ninf = {-inf}, float lowest = {-3.4028234663852886e38}, float sc = {0.5},
     float one_f = {1.0}, int64[1] minus_one = {-1}, int64[1] minus_two = {-2}, int64[1] zero1 = {0}>
    {
      shp = Shape(Q)
      s = Gather<axis = 0>(shp, two)
      b = Gather<axis = 0>(shp, zero)
      s1 = Unsqueeze(s, axes0)
      b1 = Unsqueeze(b, axes0)
)",
                      mask_nodes, R"(
      kt = Transpose<perm = [0, 1, 3, 2]>(K)
      sc0 = MatMul(Q, kt)
      sc1 = Mul(sc0, sc)
      sc2 = Add(sc1, mask)
      p = Softmax<axis = -1>(sc2)
      Y = MatMul(p, V)
    })");
}

// transformers' _make_causal_mask as TorchScript exports it: a full grid of finfo.min, zeroed by
// masked_fill where the column is less than the row + 1, expanded to [B, 1, S, S].
constexpr char kMaskedFillCausal[] = R"(
      full_shape = Concat<axis = 0>(s1, s1)
      full = ConstantOfShape<value = float[1] {-3.4028234663852886e38}>(full_shape)
      r = Range(zero, s, one)
      r1 = Add(r, one)
      row_shape = Concat<axis = 0>(s1, ones1)
      r2 = Reshape(r1, row_shape)
      keep = Less(r, r2)
      m = Where(keep, zf, full)
      m4 = Unsqueeze(m, axes01)
      eshape = Concat<axis = 0>(b1, ones1, s1, s1)
      mask = Expand(m4, eshape))";
// transformers 4.4x's _update_causal_mask without a cache: triu(full(finfo.min), 1) times
// (arange(S) > cache_position[:, None]), cache_position = arange(S).
constexpr char kTriuCausal[] = R"(
      full_shape = Concat<axis = 0>(s1, s1)
      full = ConstantOfShape<value = float[1] {-3.4028234663852886e38}>(full_shape)
      tri = Trilu<upper = 1>(full, one)
      ar = Range(zero, s, one)
      cp = Range(zero, s, one)
      cp2 = Reshape(cp, col)
      gt = Greater(ar, cp2)
      gtf = Cast<to = 1>(gt)
      m = Mul(tri, gtf)
      m4 = Unsqueeze(m, axes01)
      eshape = Concat<axis = 0>(b1, ones1, s1, s1)
      mask = Expand(m4, eshape))";
// masking_utils' boolean causal mask (kv_idx <= q_idx) made additive by Where(mask, 0, -inf).
constexpr char kLessOrEqualCausal[] = R"(
      kv = Range(zero, s, one)
      qi = Range(zero, s, one)
      q2 = Unsqueeze(qi, axes1)
      le = LessOrEqual(kv, q2)
      m = Where(le, zf, ninf)
      mask = Unsqueeze(m, axes01))";

// torch's scaled_dot_product_attention(is_causal=True) as its TorchScript exporter writes the
// mask: Where(Equal(Trilu(Expand(1, [L, S]), upper = 0), 0), -inf, 0), L and S sliced off the
// query's and the key's shapes.
constexpr char kSdpaCausal[] = R"(
      qs = Shape(Q)
      ks = Shape(K)
      l = Slice(qs, minus_two, minus_one)
      sk = Slice(ks, minus_two, minus_one)
      size = Concat<axis = 0>(l, sk)
      ones = Expand(one_f, size)
      lower = Trilu<upper = 0>(ones)
      zeroed = Equal(lower, zf)
      mask = Where(zeroed, ninf, zf))";
// The same with a boolean triangle: Where(Not(tril(ones(L, S, bool))), -inf, 0).
constexpr char kBoolTrilCausal[] = R"(
      qs = Shape(Q)
      ks = Shape(K)
      l = Slice(qs, minus_two, minus_one)
      sk = Slice(ks, minus_two, minus_one)
      size = Concat<axis = 0>(l, sk)
      ones = ConstantOfShape<value = bool[1] {1}>(size)
      lower = Trilu<upper = 0>(ones)
      masked_out = Not(lower)
      mask = Where(masked_out, ninf, zf))";

// transformers' eager attention slicing the causal mask to the keys' length, K's dim -2.
constexpr char kSlicedCausal[] = R"(
      kv = Range(zero, s, one)
      qi = Range(zero, s, one)
      q2 = Unsqueeze(qi, axes1)
      le = LessOrEqual(kv, q2)
      m = Where(le, zf, lowest)
      full_mask = Unsqueeze(m, axes01)
      k_shape = Shape(K)
      k_len = Slice(k_shape, minus_two, minus_one)
      mask = Slice(full_mask, zero1, k_len, minus_one))";

TEST(FuseAttentionTest, CausalMasksBecomeIsCausal) {
  for (const char* mask : {kMaskedFillCausal, kTriuCausal, kLessOrEqualCausal, kSdpaCausal,
                           kBoolTrilCausal, kSlicedCausal}) {
    SCOPED_TRACE(mask);
    auto run = RunPipelineOnText(CausalSelfAttention(mask),
                                 "fixed(infer-shapes,fuse-attention,dead-nodes)");
    ASSERT_TRUE(run.ok()) << run.status();
    // The mask and everything computing it went.
    EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("Attention"));
    const ir::Node* attention = run->after->graph().last_node();
    EXPECT_EQ(attention->GetInt("is_causal", 0), 1);
    EXPECT_EQ(attention->num_inputs(), 3u);
    equivalence::EquivalenceOptions options;
    options.dims = {{"B", 2}, {"S", 4}};
    EXPECT_OK(ExpectSameOutputs(*run->before, *run->after, options));
  }
}

TEST(FuseAttentionTest, Gpt2MaskedFillOfItsBiasBufferBecomesIsCausal) {
  // GPT-2: the scores where bias[:, :, k - q : k, :k] (a constant lower triangle of trues), else
  // finfo.min; without a past q = k, so the buffer's first S rows and columns.
  std::string bias;
  for (int r = 0; r < 8; ++r) {
    for (int c = 0; c < 8; ++c) absl::StrAppend(&bias, r || c ? "," : "", c <= r ? "1" : "0");
  }
  const std::string text = absl::StrCat(R"(
    <ir_version: 10, opset_import: ["" : 23]>
    g (float[B,2,S,4] Q, float[B,2,S,4] K, float[B,2,S,4] V) => (float[B,2,S,4] Y)
    <bool[1,1,8,8] bias = {)",
                                        bias, R"(}, int64 two = {2}, int64[1] axes0 = {0},
     int64[1] zero1 = {0}, int64[1] two1 = {2}, int64[1] three1 = {3},
     float lowest = {-3.4028234663852886e38}, float sqrt_d = {2.0}>
    {
      qshape = Shape(Q)
      ql = Gather<axis = 0>(qshape, two)
      kshape = Shape(K)
      kl = Gather<axis = 0>(kshape, two)
      start = Sub(kl, ql)
      start1 = Unsqueeze(start, axes0)
      kl1 = Unsqueeze(kl, axes0)
      rows = Slice(bias, start1, kl1, two1)
      causal = Slice(rows, zero1, kl1, three1)
      kt = Transpose<perm = [0, 1, 3, 2]>(K)
      s = MatMul(Q, kt)
      scaled = Div(s, sqrt_d)
      masked = Where(causal, scaled, lowest)
      p = Softmax<axis = -1>(masked)
      Y = MatMul(p, V)
    })");
  auto run = RunPipelineOnText(text, "fixed(infer-shapes,fuse-attention,dead-nodes)");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("Attention"));
  const ir::Node* attention = run->after->graph().last_node();
  EXPECT_EQ(attention->GetInt("is_causal", 0), 1);
  EXPECT_EQ(attention->num_inputs(), 3u);
  equivalence::EquivalenceOptions options;
  options.dims = {{"B", 2}, {"S", 5}};
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after, options));

  // Rows from 1 on (a query sees one key more), or a buffer that is no triangle: no fusion (a
  // Where's condition is no mask Attention could take instead).
  for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{
           {"rows = Slice(bias, start1, kl1, two1)", "rows = Slice(bias, three1, kl1, two1)"},
           {"{1,0,0", "{1,1,0"}}) {
    std::string changed = text;
    changed.replace(changed.find(from), from.size(), to);
    run = RunPipelineOnText(changed, "fixed(infer-shapes,fuse-attention,dead-nodes)");
    ASSERT_TRUE(run.ok()) << run.status();
    EXPECT_THAT(OpTypes(run->after->graph()), Not(Contains("Attention"))) << to;
  }
}

TEST(FuseAttentionTest, ConstantCausalMaskBecomesIsCausal) {
  auto run = RunPipelineOnText(R"(
    <ir_version: 10, opset_import: ["" : 23]>
    g (float[2,2,3,4] Q, float[2,2,3,4] K, float[2,2,3,4] V) => (float[2,2,3,4] Y)
    <float[1,1,3,3] M = {0, -inf, -inf, 0, 0, -inf, 0, 0, 0}>
    {
      kt = Transpose<perm = [0, 1, 3, 2]>(K)
      s = MatMul(Q, kt)
      m = Add(s, M)
      p = Softmax(m)
      Y = MatMul(p, V)
    })",
                               "infer-shapes,fuse-attention");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("Attention"));
  EXPECT_EQ(run->after->graph().first_node()->GetInt("is_causal", 0), 1);
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
}

TEST(FuseAttentionTest, MasksThatAreNotQuiteCausalStayMasks) {
  struct Variant {
    const char* mask;
    std::string from, to;
  };
  const std::vector<Variant> variants = {
      // A query sees the next key too.
      {kMaskedFillCausal, "keep = Less(r, r2)", "keep = LessOrEqual(r, r2)"},
      // The other triangle.
      {kTriuCausal, "gt = Greater(ar, cp2)", "gt = Less(ar, cp2)"},
      // A masked value that is not low enough to be -inf's equal.
      {kTriuCausal, "float[1] {-3.4028234663852886e38}", "float[1] {-30.0}"},
      // torch's lower triangle from the diagonal above.
      {kSdpaCausal, "lower = Trilu<upper = 0>(ones)", "lower = Trilu<upper = 0>(ones, one)"},
      // Rows from an offset index: kv <= q + 1.
      {kLessOrEqualCausal, "qi = Range(zero, s, one)",
       "qi0 = Range(zero, s, one)\n      qi = Add(qi0, one)"},
  };
  for (const Variant& v : variants) {
    SCOPED_TRACE(v.to);
    std::string text = CausalSelfAttention(v.mask);
    ASSERT_NE(text.find(v.from), std::string::npos);
    text.replace(text.find(v.from), v.from.size(), v.to);
    auto run = RunPipelineOnText(text, "fixed(infer-shapes,fuse-attention,dead-nodes)");
    ASSERT_TRUE(run.ok()) << run.status();
    const ir::Node* attention = FindOp(run->after->graph(), "Attention");
    ASSERT_NE(attention, nullptr);
    EXPECT_EQ(attention->GetInt("is_causal", 0), 0);
    EXPECT_EQ(attention->num_inputs(), 4u);
    equivalence::EquivalenceOptions options;
    options.dims = {{"B", 2}, {"S", 4}};
    EXPECT_OK(ExpectSameOutputs(*run->before, *run->after, options));
  }
}

TEST(FuseAttentionTest, ScaleComputedFromTheQueryShapeGoesIntoAttention) {
  // torch's scaled_dot_product_attention without a scale: sqrt(1 / sqrt(E)) from the query's shape,
  // multiplied into Q and the transposed K; as the TorchScript exporter writes it (Slice, Cast) for
  // Z, and as the dynamo one does (Gather, CastLike, which folding leaves) for W. Their value is
  // known before run time: it goes into Attention's scale.
  const std::string text = CausalSelfAttention(absl::StrCat(kSdpaCausal, R"(
      embedding = Slice(qs, minus_one, big)
      embedding_f = Cast<to = 1>(embedding)
      sqrt_embedding = Sqrt(embedding_f)
      scale = Div(one_f, sqrt_embedding)
      sqrt_scale = Sqrt(scale)
      q_scaled = Mul(Q, sqrt_scale)
      k_t = Transpose<perm = [0, 1, 3, 2]>(K)
      k_scaled = Mul(k_t, sqrt_scale)
      sdpa = MatMul(q_scaled, k_scaled)
      sdpa_masked = Add(sdpa, mask)
      sdpa_p = Softmax<axis = -1>(sdpa_masked)
      Z = MatMul(sdpa_p, V)
      last = Gather(qs, minus_one)
      e_like = CastLike(last, Q)
      one_like = CastLike(one_f, Q)
      sqrt_e = Sqrt(e_like)
      scale2 = Div(one_like, sqrt_e)
      sqrt_scale2 = Sqrt(scale2)
      q_scaled2 = Mul(Q, sqrt_scale2)
      k_t2 = Transpose<perm = [0, 1, 3, 2]>(K)
      k_scaled2 = Mul(k_t2, sqrt_scale2)
      dyn = MatMul(q_scaled2, k_scaled2)
      dyn_masked = Add(dyn, mask)
      dyn_p = Softmax<axis = -1>(dyn_masked)
      W = MatMul(dyn_p, V))"));
  std::string with_z = text;
  with_z.replace(with_z.find("=> (float[B,2,S,4] Y)"), 21,
                 "=> (float[B,2,S,4] Y, float[B,2,S,4] Z, float[B,2,S,4] W)");
  with_z.replace(with_z.find("float one_f"), 0, "int64[1] big = {9223372036854775807}, ");
  auto run = RunPipelineOnText(with_z, "fixed(infer-shapes,fuse-attention,dead-nodes)");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("Attention", "Attention", "Attention"));
  for (const ir::Node* n : run->after->graph().nodes()) {
    if (n->output(0)->name() == "Y") continue;
    EXPECT_NEAR(n->GetFloat("scale", 0), 0.5f, 1e-7);
    EXPECT_EQ(n->GetInt("is_causal", 0), 1);
  }
  equivalence::EquivalenceOptions options;
  options.dims = {{"B", 2}, {"S", 4}};
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after, options));

  // A factor known only at run time (a graph input) stays outside.
  auto dynamic = RunPipelineOnText(R"(
    <ir_version: 10, opset_import: ["" : 23]>
    g (float[2,2,3,4] Q, float[2,2,3,4] K, float[2,2,3,4] V, float[1] c) => (float[2,2,3,4] Y)
    {
      qc = Mul(Q, c)
      kt = Transpose<perm = [0, 1, 3, 2]>(K)
      s = MatMul(qc, kt)
      p = Softmax(s)
      Y = MatMul(p, V)
    })",
                                   "fixed(infer-shapes,fuse-attention,dead-nodes)");
  ASSERT_TRUE(dynamic.ok()) << dynamic.status();
  EXPECT_THAT(OpTypes(dynamic->after->graph()), ElementsAre("Mul", "Attention"));
}

TEST(FuseAttentionTest, InfiniteTriangleTimesZeroIsNoCausalMask) {
  // triu(full(-inf), 0) * (c > r): -inf * 0 on the diagonal is NaN, not 0: no is_causal.
  std::string text = CausalSelfAttention(kTriuCausal);
  text.replace(text.find("tri = Trilu<upper = 1>(full, one)"), 33,
               "tri = Trilu<upper = 1>(full, zero)");
  text.replace(text.find("float[1] {-3.4028234663852886e38}"), 33, "float[1] {-inf}");
  auto run = RunPipelineOnText(text, "fixed(infer-shapes,fuse-attention,dead-nodes)");
  ASSERT_TRUE(run.ok()) << run.status();
  const ir::Node* attention = FindOp(run->after->graph(), "Attention");
  if (attention != nullptr) EXPECT_EQ(attention->GetInt("is_causal", 0), 0);
}

TEST(FuseAttentionTest, CausalAndPaddingMaskStaysAMask) {
  // The causal mask plus a key-padding mask [B, 1, 1, S]: Attention's is_causal alone would drop
  // the padding, so the sum goes in as a mask.
  std::string text = CausalSelfAttention(absl::StrCat(kLessOrEqualCausal, R"(
      both = Add(mask, pad))"));
  text.replace(text.find("float[B,2,S,4] V)"), 17, "float[B,2,S,4] V, float[B,1,1,S] pad)");
  text.replace(text.find("sc2 = Add(sc1, mask)"), 20, "sc2 = Add(sc1, both)");
  auto run = RunPipelineOnText(text, "fixed(infer-shapes,fuse-attention,dead-nodes)");
  ASSERT_TRUE(run.ok()) << run.status();
  const ir::Node* attention = FindOp(run->after->graph(), "Attention");
  ASSERT_NE(attention, nullptr);
  EXPECT_EQ(attention->GetInt("is_causal", 0), 0);
  EXPECT_EQ(attention->num_inputs(), 4u);
  equivalence::EquivalenceOptions options;
  options.dims = {{"B", 2}, {"S", 4}};
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after, options));
}

TEST(FuseAttentionTest, CausalMaskWithAPastStaysAMask) {
  // An upper-left causal mask [3, 7] over a cache of 4 and 3 new keys: is_causal with a past counts
  // from the past's end in onnxruntime (and here), so the mask goes in as it is.
  std::string text = GroupedQueryAttention(true);
  text.replace(text.find(", float[2,1,3,7] mask"), 21, "");
  text.replace(text.find("<float[8,8] Wq"), 1, R"(<float[1,1,3,7] mask = {
       0, -inf, -inf, -inf, -inf, -inf, -inf, 0, 0, -inf, -inf, -inf, -inf, -inf,
       0, 0, 0, -inf, -inf, -inf, -inf},
     )");
  auto run = RunPipelineOnText(text, "fixed(infer-shapes,fuse-attention)");
  ASSERT_TRUE(run.ok()) << run.status();
  const ir::Node* attention = FindOp(run->after->graph(), "Attention");
  ASSERT_NE(attention, nullptr);
  EXPECT_EQ(attention->GetInt("is_causal", 0), 0);
  ASSERT_EQ(attention->num_inputs(), 6u);
  EXPECT_NE(attention->input(3), nullptr);
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));
}

TEST(FuseAttentionTest, CausalMaskComputedWithACacheGoesInWithThePast) {
  // transformers' causal mask with a cache: triu(full([S, P + S], min), 1) times
  // (arange(P + S) > cache_position[:, None]), cache_position = arange(P, P + S). Inference leaves
  // its dims unknown but the Expand's target says [B, 1, S, ?]: it goes in as a mask (expanded to
  // the keys' length P + S from the past's and the new keys' shapes), with the past and presents.
  auto run = RunPipelineOnText(R"(
    <ir_version: 10, opset_import: ["" : 23]>
    g (float[B,2,S,4] Q, float[B,2,S,4] K, float[B,2,S,4] V, float[B,2,P,4] past_key,
       float[B,2,P,4] past_value) => (float[B,2,S,4] Y, float[B,2,T,4] present_key,
       float[B,2,T,4] present_value)
    <int64 zero = {0}, int64 one = {1}, int64 two = {2}, int64[1] axes0 = {0},
     int64[2] axes01 = {0, 1}, int64[1] ones1 = {1}, int64[2] col = {-1, 1}, float sc = {0.5}>
    {
      shp = Shape(Q)
      s = Gather<axis = 0>(shp, two)
      b = Gather<axis = 0>(shp, zero)
      s1 = Unsqueeze(s, axes0)
      b1 = Unsqueeze(b, axes0)
      pshp = Shape(past_key)
      p = Gather<axis = 0>(pshp, two)
      t = Add(p, s)
      t1 = Unsqueeze(t, axes0)
      full_shape = Concat<axis = 0>(s1, t1)
      full = ConstantOfShape<value = float[1] {-3.4028234663852886e38}>(full_shape)
      tri = Trilu<upper = 1>(full, one)
      ar = Range(zero, t, one)
      cp = Range(p, t, one)
      cp2 = Reshape(cp, col)
      gt = Greater(ar, cp2)
      gtf = Cast<to = 1>(gt)
      m = Mul(tri, gtf)
      m4 = Unsqueeze(m, axes01)
      eshape = Concat<axis = 0>(b1, ones1, s1, t1)
      mask = Expand(m4, eshape)
      present_key = Concat<axis = 2>(past_key, K)
      present_value = Concat<axis = 2>(past_value, V)
      kt = Transpose<perm = [0, 1, 3, 2]>(present_key)
      sc0 = MatMul(Q, kt)
      sc1 = Mul(sc0, sc)
      sc2 = Add(sc1, mask)
      probs = Softmax<axis = -1>(sc2)
      Y = MatMul(probs, present_value)
    })",
                               "fixed(infer-shapes,fuse-attention,dead-nodes)");
  ASSERT_TRUE(run.ok()) << run.status();
  const ir::Node* attention = FindOp(run->after->graph(), "Attention");
  ASSERT_NE(attention, nullptr);
  EXPECT_EQ(attention->GetInt("is_causal", 0), 0);
  ASSERT_EQ(attention->num_inputs(), 6u);
  EXPECT_NE(attention->input(3), nullptr);
  EXPECT_EQ(attention->input(4)->name(), "past_key");
  ASSERT_EQ(attention->num_outputs(), 3u);
  EXPECT_EQ(attention->output(1)->name(), "present_key");
  equivalence::EquivalenceOptions options;
  options.dims = {{"B", 2}, {"S", 3}, {"P", 4}, {"T", 7}};
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after, options));
}

TEST(FuseAttentionTest, SoftCappedScoresGiveSoftcap) {
  // Gemma 2: scores * scaling, then softcap * tanh(scores / softcap), then the causal mask.
  std::string capped = CausalSelfAttention(kLessOrEqualCausal);
  capped.replace(capped.find("sc2 = Add(sc1, mask)"), 20, R"(cap_in = Div(sc1, cap)
      capped_t = Tanh(cap_in)
      capped = Mul(capped_t, cap)
      sc2 = Add(capped, mask))");
  capped.replace(capped.find("float sc = {0.5}"), 16, "float sc = {0.5}, float cap = {0.75}");
  auto run = RunPipelineOnText(capped, "fixed(infer-shapes,fuse-attention,dead-nodes)");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("Attention"));
  const ir::Node* attention = run->after->graph().last_node();
  EXPECT_FLOAT_EQ(attention->GetFloat("softcap", 0), 0.75f);
  EXPECT_FLOAT_EQ(attention->GetFloat("scale", 0), 0.5f);
  EXPECT_EQ(attention->GetInt("is_causal", 0), 1);
  equivalence::EquivalenceOptions options;
  options.dims = {{"B", 2}, {"S", 4}};
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after, options));

  // Different caps inside and outside are no softcap.
  std::string uneven = capped;
  uneven.replace(uneven.find("capped = Mul(capped_t, cap)"), 27, "capped = Mul(capped_t, sc)");
  run = RunPipelineOnText(uneven, "fixed(infer-shapes,fuse-attention,dead-nodes)");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), Not(Contains("Attention")));
}

// Float16 attention whose softmax computes in the type `softmax_type` (an ONNX data type number)
// between Casts, as exporters of float16 models write it with float (1).
std::string HalfAttention(int softmax_type) {
  return absl::StrReplaceAll(R"(
    <ir_version: 10, opset_import: ["" : 23]>
    g (float16[2,2,3,4] Q, float16[2,2,3,4] K, float16[2,2,3,4] V, float16[2,1,3,3] M)
      => (float16[2,2,3,4] Y)
    <float16 c = {0.5}>
    {
      kt = Transpose<perm = [0, 1, 3, 2]>(K)
      s = MatMul(Q, kt)
      scaled = Mul(s, c)
      m = Add(scaled, M)
      m32 = Cast<to = @T>(m)
      p32 = Softmax<axis = -1>(m32)
      p = Cast<to = 10>(p32)
      Y = MatMul(p, V)
    })",
                             {{"@T", absl::StrCat(softmax_type)}});
}

TEST(FuseAttentionTest, Float16WithSoftmaxInFloatBetweenCasts) {
  auto run = RunPipelineOnText(HalfAttention(1), "infer-shapes,fuse-attention");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), ElementsAre("Attention"));
  const ir::Node* attention = run->after->graph().first_node();
  EXPECT_EQ(attention->GetInt("softmax_precision", 0), 1);
  EXPECT_OK(ExpectSameOutputs(*run->before, *run->after));

  // A softmax in double is not Attention's (softmax_precision = 11 would be; onnxruntime takes
  // float only): it stays.
  run = RunPipelineOnText(HalfAttention(11), "infer-shapes,fuse-attention");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(OpTypes(run->after->graph()), Not(Contains("Attention")));
}

}  // namespace
}  // namespace onnx_opt::passes
