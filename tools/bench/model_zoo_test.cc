#include "tools/bench/model_zoo.h"

#include <cmath>
#include <vector>

#include "absl/status/statusor.h"
#include "gtest/gtest.h"
#include "interpreter/evaluator.h"
#include "schema/checker/checker.h"

namespace onnx_opt::bench {
namespace {

// The CNNs run at 64x64 and the sequence models at 32 steps: the same graphs as at full size, fast
// enough for fastbuild.
constexpr CnnOptions kSmallImage = {.image_size = 64};
constexpr SequenceOptions kShortSequence = {.sequence_length = 32};

// The model passes the checker, runs, and gives one output of `dims` with only finite values.
void ExpectValidAndRuns(const absl::StatusOr<ZooModel>& zoo, const std::vector<int64_t>& dims) {
  ASSERT_TRUE(zoo.ok()) << zoo.status();
  EXPECT_TRUE(schema::checker::CheckModel(*zoo->model).ok())
      << schema::checker::CheckModel(*zoo->model);
  interpreter::Evaluator evaluator(*zoo->model);
  absl::StatusOr<std::vector<interpreter::RuntimeValue>> outputs =
      evaluator.RunByName(zoo->make_inputs(1));
  ASSERT_TRUE(outputs.ok()) << zoo->name << ": " << outputs.status();
  ASSERT_EQ(outputs->size(), 1u);
  const interpreter::Tensor& out = (*outputs)[0].tensor();
  ASSERT_EQ(out.dims(), dims) << zoo->name;
  const float* data = out.data<float>();
  int64_t non_finite = 0;
  for (int64_t i = 0; i < out.size(); ++i) non_finite += !std::isfinite(data[i]);
  EXPECT_EQ(non_finite, 0) << zoo->name;
}

TEST(ModelZooTest, ResNet50IsValidAndRuns) {
  ExpectValidAndRuns(MakeResNet50(kSmallImage), {1, 1000});
}

TEST(ModelZooTest, MobileNetV2IsValidAndRuns) {
  ExpectValidAndRuns(MakeMobileNetV2(kSmallImage), {1, 1000});
}

TEST(ModelZooTest, LstmIsValidAndRuns) {
  ExpectValidAndRuns(MakeLstm(), {1, 10});
  ExpectValidAndRuns(MakeLstm(kShortSequence), {1, 10});
}

TEST(ModelZooTest, BertLayerIsValidAndRuns) {
  ExpectValidAndRuns(MakeBertLayer(kShortSequence), {1, 32, 768});
}

TEST(ModelZooTest, SmallOpsIsValidAndRuns) {
  ExpectValidAndRuns(MakeSmallOps({.blocks = 20}), {1, 64});
}

TEST(ModelZooTest, QuantizedCnnIsValidAndRuns) {
  ExpectValidAndRuns(MakeQuantizedCnn(kSmallImage), {1, 10});
}

TEST(ModelZooTest, BranchyStepsIsValidAndRuns) {
  ExpectValidAndRuns(MakeBranchySteps({.blocks = 5}), {1, 64});
}

TEST(ModelZooTest, SameSeedSameModel) {
  absl::StatusOr<ZooModel> a = MakeBertLayer(kShortSequence);
  absl::StatusOr<ZooModel> b = MakeBertLayer(kShortSequence);
  ASSERT_TRUE(a.ok() && b.ok());
  const auto& ai = a->model->graph().initializers();
  const auto& bi = b->model->graph().initializers();
  ASSERT_EQ(ai.size(), bi.size());
  for (size_t i = 0; i < ai.size(); ++i) {
    EXPECT_TRUE(ai[i]->initializer()->ContentEquals(*bi[i]->initializer())) << ai[i]->name();
  }
}

TEST(ModelZooTest, RejectsImageSizeNotAMultipleOf32) {
  EXPECT_FALSE(MakeResNet50({.image_size = 100}).ok());
  EXPECT_FALSE(MakeMobileNetV2({.image_size = 0}).ok());
}

// BERT's multiply-adds per layer: Q, K, V and output projections, the two FFN matrices, and per
// head QK^T and PV.
TEST(ModelZooTest, BertFlopsMatchTheFormula) {
  const int64_t t = 32, h = 768, ffn = 3072, heads = 12, head = 64;
  const int64_t macs = 4 * t * h * h + 2 * t * h * ffn + 2 * heads * t * t * head;
  absl::StatusOr<ZooModel> bert = MakeBertLayer(kShortSequence);
  ASSERT_TRUE(bert.ok());
  absl::StatusOr<double> flops = CountMatrixFlops(*bert->model);
  ASSERT_TRUE(flops.ok()) << flops.status();
  EXPECT_DOUBLE_EQ(*flops, 2.0 * macs);
}

// The published counts at 224x224: ResNet-50 4.09 GMACs, MobileNetV2 0.30 GMACs (torchvision).
TEST(ModelZooTest, CnnFlopsMatchPublishedCounts) {
  absl::StatusOr<ZooModel> resnet = MakeResNet50();
  ASSERT_TRUE(resnet.ok());
  absl::StatusOr<double> resnet_flops = CountMatrixFlops(*resnet->model);
  ASSERT_TRUE(resnet_flops.ok()) << resnet_flops.status();
  EXPECT_NEAR(*resnet_flops / 2e9, 4.09, 0.02);
  absl::StatusOr<ZooModel> mobilenet = MakeMobileNetV2();
  ASSERT_TRUE(mobilenet.ok());
  absl::StatusOr<double> mobilenet_flops = CountMatrixFlops(*mobilenet->model);
  ASSERT_TRUE(mobilenet_flops.ok()) << mobilenet_flops.status();
  EXPECT_NEAR(*mobilenet_flops / 2e9, 0.30, 0.01);
}

// Two layers of 4 gates over (input + hidden) per step, plus the classifier.
TEST(ModelZooTest, LstmFlopsMatchTheFormula) {
  absl::StatusOr<ZooModel> lstm = MakeLstm();
  ASSERT_TRUE(lstm.ok());
  absl::StatusOr<double> flops = CountMatrixFlops(*lstm->model);
  ASSERT_TRUE(flops.ok()) << flops.status();
  const int64_t macs = 100 * 4 * 128 * (64 + 128) + 100 * 4 * 128 * (128 + 128) + 128 * 10;
  EXPECT_DOUBLE_EQ(*flops, 2.0 * macs);
}

}  // namespace
}  // namespace onnx_opt::bench
