// Quantization, generators, text, images, ai.onnx.ml and the training optimizers.
#include "gtest/gtest.h"
#include "schema/testing/inference_test_util.h"

namespace onnx_opt::schema::inference {
namespace {

using testing::InferGraph;
using testing::InferModel;
using testing::TypeOf;

TEST(QuantizationTest, ElementTypesFollowZeroPointsAndScales) {
  EXPECT_EQ(TypeOf("g (float[N,3] X, float s, int8 z) => (Y) { Y = QuantizeLinear(X, s, z) }"),
            "tensor(int8)[N,3]");
  EXPECT_EQ(TypeOf("g (float[N,3] X, float s) => (Y) { Y = QuantizeLinear(X, s) }"),
            "tensor(uint8)[N,3]");
  EXPECT_EQ(TypeOf("g (int8[N,3] X, float16 s) => (Y) { Y = DequantizeLinear(X, s) }"),
            "tensor(float16)[N,3]");
  auto r = InferGraph("g (float[2,3] X) => (Y, S, Z) { Y, S, Z = DynamicQuantizeLinear(X) }");
  EXPECT_EQ(r.Type("Y"), "tensor(uint8)[2,3]");
  EXPECT_EQ(r.Type("S"), "tensor(float)[]");
  EXPECT_EQ(r.Type("Z"), "tensor(uint8)[]");
}

TEST(GeneratorTest, RandomAndNms) {
  EXPECT_EQ(TypeOf("g () => (Y) { Y = RandomNormal<shape = [2, 3], dtype = 11>() }"),
            "tensor(double)[2,3]");
  EXPECT_EQ(TypeOf("g (float[B,C] X) => (Y) { Y = Multinomial<sample_size = 4>(X) }"),
            "tensor(int32)[B,4]");
  EXPECT_EQ(TypeOf("g (float[1,6,4] B, float[1,1,6] S) => (Y) { Y = NonMaxSuppression(B, S) }"),
            "tensor(int64)[?,3]");
}

TEST(TextTest, StringOperators) {
  auto r = InferGraph("g (string[2,3] X) => (Y, Z) { Y, Z = StringSplit(X) }", 20);
  EXPECT_EQ(r.Type("Y"), "tensor(string)[2,3,?]");
  EXPECT_EQ(r.Type("Z"), "tensor(int64)[2,3]");
  EXPECT_EQ(TypeOf("g (string[2] X) => (Y) { Y = RegexFullMatch<pattern = \"a+\">(X) }", "Y", 20),
            "tensor(bool)[2]");
  EXPECT_EQ(
      TypeOf("g (int32[2,6] X) => (Y) { Y = TfIdfVectorizer<mode = \"TF\", min_gram_length = 1, "
             "max_gram_length = 1, max_skip_count = 0, ngram_counts = [0], "
             "ngram_indexes = [0, 1, 2], pool_int64s = [2, 3, 5]>(X) }"),
      "tensor(float)[2,3]");
  EXPECT_EQ(TypeOf("g (uint8[N] X) => (Y) { Y = ImageDecoder<pixel_format = \"Grayscale\">(X) }",
                   "Y", 20),
            "tensor(uint8)[?,?,1]");
}

TEST(MlTest, TraditionalMl) {
  auto r = InferModel(R"(<ir_version: 10, opset_import: ["" : 21, "ai.onnx.ml" : 4]>
  g (string[N] X, float[N,4] F) => (L, A) <int64[2] idx = {0, 3}> {
    L = ai.onnx.ml.LabelEncoder<keys_strings = ["a", "b"], values_int64s = [1, 2]>(X)
    A = ai.onnx.ml.ArrayFeatureExtractor(F, idx)
  })");
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.Type("L"), "tensor(int64)[N]");
  EXPECT_EQ(r.Type("A"), "tensor(float)[N,2]");
}

TEST(TrainingTest, OptimizersUpdateTheirInputs) {
  auto r = InferModel(R"(<ir_version: 10, opset_import: ["" : 21, "ai.onnx.preview.training" : 1]>
  g (float R, int64 T, float[3] X, float[3] G, float[3] H) => (X2, H2) {
    X2, H2 = ai.onnx.preview.training.Adagrad(R, T, X, G, H)
  })");
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.Type("X2"), "tensor(float)[3]");
  EXPECT_EQ(r.Type("H2"), "tensor(float)[3]");
}

}  // namespace
}  // namespace onnx_opt::schema::inference
