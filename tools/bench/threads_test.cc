// Whole models give the same bits on one thread and on several: every parallel kernel cuts its work
// into chunks that depend only on the shapes (interpreter/cpu/thread_pool.h).
#include <cstring>
#include <vector>

#include "absl/status/statusor.h"
#include "gtest/gtest.h"
#include "interpreter/cpu/thread_pool.h"
#include "interpreter/evaluator.h"
#include "tools/bench/model_zoo.h"

namespace onnx_opt::bench {
namespace {

std::vector<float> RunWithThreads(const ZooModel& zoo, int threads) {
  interpreter::SetNumThreads(threads);
  interpreter::Evaluator evaluator(*zoo.model);
  absl::StatusOr<std::vector<interpreter::RuntimeValue>> outputs =
      evaluator.RunByName(zoo.make_inputs(1));
  interpreter::SetNumThreads(1);
  EXPECT_TRUE(outputs.ok()) << outputs.status();
  if (!outputs.ok() || outputs->size() != 1) return {};
  const interpreter::Tensor& out = (*outputs)[0].tensor();
  return std::vector<float>(out.data<float>(), out.data<float>() + out.size());
}

void ExpectSameBits(const absl::StatusOr<ZooModel>& zoo, const std::vector<int>& thread_counts) {
  ASSERT_TRUE(zoo.ok()) << zoo.status();
  const std::vector<float> one = RunWithThreads(*zoo, 1);
  ASSERT_FALSE(one.empty());
  for (int threads : thread_counts) {
    const std::vector<float> many = RunWithThreads(*zoo, threads);
    ASSERT_EQ(many.size(), one.size());
    int64_t differ = 0;
    for (size_t i = 0; i < one.size(); ++i)
      differ += std::memcmp(&one[i], &many[i], sizeof(float)) != 0;
    EXPECT_EQ(differ, 0) << zoo->name << ": " << differ << " of " << one.size()
                         << " outputs differ on " << threads << " threads";
  }
}

// 32 tokens: the projections (32x768x768) and the FFN are above the GEMM tiling threshold.
TEST(ThreadsTest, BertLayerSameBitsOnOneTwoAndThreeThreads) {
  ExpectSameBits(MakeBertLayer({.sequence_length = 32}), {2, 3});
}

// ConvInteger's 8-bit GEMM splits B's columns (large planes) or A's rows (planes too small to go
// round the threads) and its im2col by channels.
TEST(ThreadsTest, QuantizedCnnSameBitsOnOneTwoAndThreeThreads) {
  ExpectSameBits(MakeQuantizedCnn(), {2, 3});
}

// 64x64 images: the early convolutions' GEMMs are tiled.
TEST(ThreadsTest, ResNet50SameBitsOnOneAndTwoThreads) {
  ExpectSameBits(MakeResNet50({.image_size = 64}), {2});
}

}  // namespace
}  // namespace onnx_opt::bench
