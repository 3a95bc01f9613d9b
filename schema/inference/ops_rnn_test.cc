// Recurrent layers and attention.
#include "gtest/gtest.h"
#include "schema/testing/inference_test_util.h"

namespace onnx_opt::schema::inference {
namespace {

using testing::InferGraph;
using testing::TypeOf;

TEST(RecurrentTest, LstmAndGru) {
  auto r = InferGraph(R"(g (float[S,B,10] X, float[2,80,10] W, float[2,80,20] R) => (Y, H, C) {
    Y, H, C = LSTM<hidden_size = 20, direction = "bidirectional">(X, W, R)
  })");
  EXPECT_EQ(r.Type("Y"), "tensor(float)[S,2,B,20]");
  EXPECT_EQ(r.Type("H"), "tensor(float)[2,B,20]");
  EXPECT_EQ(r.Type("C"), "tensor(float)[2,B,20]");
  r = InferGraph(R"(g (float[B,S,10] X, float[1,60,10] W, float[1,60,20] R) => (Y, H) {
    Y, H = GRU<layout = 1>(X, W, R)
  })");
  EXPECT_EQ(r.Type("Y"), "tensor(float)[B,S,1,20]");  // hidden size from R
  EXPECT_EQ(r.Type("H"), "tensor(float)[B,1,20]");
  r = InferGraph(R"(g (float[S,B,10] X, float[1,20,10] W, float[1,20,20] R) => (H) {
    , H = RNN<hidden_size = 20>(X, W, R)
  })");
  EXPECT_EQ(r.Type("H"), "tensor(float)[1,B,20]");
}

TEST(AttentionTest, ThreeDimensional) {
  EXPECT_EQ(TypeOf(R"(g (float[2,4,24] Q, float[2,6,24] K, float[2,6,30] V) => (Y) {
    Y = Attention<q_num_heads = 3, kv_num_heads = 3>(Q, K, V)
  })",
                   "Y", 23),
            "tensor(float)[2,4,30]");
}

TEST(AttentionTest, FourDimensionalWithPast) {
  auto r = InferGraph(R"(g (float[B,8,L,16] Q, float[B,2,S,16] K, float[B,2,S,32] V,
                            float[B,2,P,16] PK, float[B,2,P,32] PV) => (Y, K2, V2, QK) {
    Y, K2, V2, QK = Attention(Q, K, V, , PK, PV)
  })",
                      23);
  EXPECT_EQ(r.Type("Y"), "tensor(float)[B,8,L,32]");
  EXPECT_EQ(r.Type("K2"), "tensor(float)[B,2,?,16]");  // P + S is not guessed
  EXPECT_EQ(r.Type("QK"), "tensor(float)[B,8,L,?]");
  r = InferGraph(R"(g (float[2,3,4,8] Q, float[2,3,6,8] K, float[2,3,6,8] V,
                       float[2,3,12,8] PK, float[2,3,12,8] PV) => (Y, K2, V2, QK) {
    Y, K2, V2, QK = Attention(Q, K, V, , PK, PV)
  })",
                 23);
  EXPECT_EQ(r.Type("K2"), "tensor(float)[2,3,18,8]");
  EXPECT_EQ(r.Type("QK"), "tensor(float)[2,3,4,18]");
}

TEST(AttentionTest, LinearAttentionAndFriends) {
  auto r = InferGraph(R"(g (float16[2,4,64] Q, float16[2,4,32] K, float16[2,4,32] V) => (Y, S) {
    Y, S = LinearAttention<q_num_heads = 8, kv_num_heads = 4>(Q, K, V)
  })",
                      27);
  EXPECT_EQ(r.Type("Y"), "tensor(float16)[2,4,64]");
  EXPECT_EQ(r.Type("S"), "tensor(float16)[2,4,8,8]");
  EXPECT_EQ(TypeOf("g (float[2,4] A, float[2,4] B) => (Y) { Y = SwiGLU(A, B) }", "Y", 28),
            "tensor(float)[2,4]");
  EXPECT_EQ(TypeOf("g (float[2,3,32] X, float[50,4] C, float[50,4] S, int64[2,3] P) => (Y) "
                   "{ Y = RotaryEmbedding<num_heads = 4>(X, C, S, P) }",
                   "Y", 23),
            "tensor(float)[2,3,32]");
  EXPECT_EQ(TypeOf("g (float[N,8] X, float[8] W) => (Y) { Y = RMSNormalization(X, W) }", "Y", 23),
            "tensor(float)[N,8]");
}

TEST(AttentionTest, FlexAttentionInfersItsModifiers) {
  auto r = testing::InferModel(R"(<ir_version: 10, opset_import: ["" : 26, "ai.onnx.preview" : 1]>
  g (float[2,4,8,16] Q, float[2,4,6,16] K, float[2,4,6,32] V) => (Y) {
    Y = ai.onnx.preview.FlexAttention<score_mod = m (scores) => (out) { out = Neg(scores) }>(Q, K, V)
  })");
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.Type("Y"), "tensor(float)[2,4,8,32]");
  EXPECT_EQ(r.Type("out"), "tensor(float)[2,4,8,6]");
}

}  // namespace
}  // namespace onnx_opt::schema::inference
