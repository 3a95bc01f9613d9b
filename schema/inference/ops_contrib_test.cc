// onnxruntime's com.microsoft operators: shapes of the ones with schemas, and operators without a
// schema passing through silently.
#include <string>

#include "gtest/gtest.h"
#include "schema/testing/inference_test_util.h"

namespace onnx_opt::schema::inference {
namespace {

using testing::InferModel;

testing::Inferred Infer(const std::string& graph) {
  return InferModel(
      std::string(R"(<ir_version: 10, opset_import: ["" : 21, "com.microsoft" : 1]>)") + graph);
}

TEST(ContribTest, Normalizations) {
  auto r = Infer(R"(g (float16[B,S,8] x, float16[B,S,8] s, float16[8] g) => (y, m, i, sum) {
                      y, m, i, sum = com.microsoft.SkipLayerNormalization(x, s, g) })");
  EXPECT_TRUE(r.warnings.empty()) << r.warnings[0];
  EXPECT_EQ(r.Type("y"), "tensor(float16)[B,S,8]");
  EXPECT_EQ(r.Type("m"), "tensor(float)[B,S,1]");
  EXPECT_EQ(r.Type("i"), "tensor(float)[B,S,1]");
  EXPECT_EQ(r.Type("sum"), "tensor(float16)[B,S,8]");
  r = Infer(
      "g (float[B,S,8] x, float[8] g) => (y, i) { y, i = "
      "com.microsoft.SimplifiedLayerNormalization(x, g) }");
  EXPECT_EQ(r.Type("y"), "tensor(float)[B,S,8]");
  EXPECT_EQ(r.Type("i"), "tensor(float)[B,S,1]");
}

TEST(ContribTest, ProjectionsAndEmbeddings) {
  auto r = Infer(R"(g (float[B,S,64] a, uint8[32,2,16] w, float[32,2] sc) => (y) {
                      y = com.microsoft.MatMulNBits<K = 64, N = 32, block_size = 32>(a, w, sc) })");
  EXPECT_EQ(r.Type("y"), "tensor(float)[B,S,32]");
  r = Infer(
      R"(g (int32[B,S] ids, int32[B,S] seg, float[100,16] we, float[64,16] pe, float[2,16] se, float[16] ga,
                  float[16] be, int32[B,S] mask) => (y, mi, es) {
                  y, mi, es = com.microsoft.EmbedLayerNormalization(ids, seg, we, pe, se, ga, be, mask) })");
  EXPECT_EQ(r.Type("y"), "tensor(float)[B,S,16]");
  EXPECT_EQ(r.Type("mi"), "tensor(int32)[B]");
  EXPECT_EQ(r.Type("es"), "tensor(float)[B,S,16]");
}

TEST(ContribTest, Attentions) {
  auto r = Infer(R"(g (float[B,S,16] x, float[16,48] w, float[48] b, int32[B] m) => (y) {
                      y = com.microsoft.Attention<num_heads = 2>(x, w, b, m) })");
  EXPECT_EQ(r.Type("y"), "tensor(float)[B,S,16]");
  r = Infer(R"(g (float[B,S,16] q, float[B,L,16] k, float[B,L,8] v) => (y) {
                 y = com.microsoft.MultiHeadAttention<num_heads = 2>(q, k, v) })");
  EXPECT_EQ(r.Type("y"), "tensor(float)[B,S,8]");
  r = Infer(R"(g (float[B,S,32] qkv, int32[B] sk, int32 t) => (y) {
                 y = com.microsoft.GroupQueryAttention<num_heads = 2, kv_num_heads = 1>(qkv, , , , , sk, t) })");
  EXPECT_EQ(r.Type("y"), "tensor(float)[B,S,16]");
}

TEST(ContribTest, OperatorsWithoutSchemaPassSilently) {
  auto r = Infer("g (float[2] x) => (y) { y = com.microsoft.QOrderedGelu(x) }");
  EXPECT_TRUE(r.status.ok()) << r.status;
  EXPECT_TRUE(r.warnings.empty()) << r.warnings[0];
  EXPECT_EQ(r.Type("y"), "unknown");
}

}  // namespace
}  // namespace onnx_opt::schema::inference
