#include "interpreter/kernel_cache.h"

#include <memory>

#include "gtest/gtest.h"

namespace onnx_opt::interpreter {
namespace {

// Tags for two kinds of derived values.
constexpr char kPacked = 0, kCropped = 0;

TEST(KernelCacheTest, FindsWhatWasKeptForTheSameTensorOnly) {
  KernelCache cache;
  const Tensor source = Tensor::FromVector<float>(DataType::kFloat, {2, 2}, {1, 2, 3, 4});
  EXPECT_EQ(cache.Find(0, &kPacked, source), nullptr);
  auto packed = std::make_shared<const int>(7);
  cache.Keep(0, &kPacked, source, packed);
  EXPECT_EQ(cache.Find(0, &kPacked, source), packed);
  const Tensor copy = source;  // shares the storage
  EXPECT_EQ(cache.Find(0, &kPacked, copy), packed);
  EXPECT_EQ(cache.Find(1, &kPacked, source), nullptr);                // another input
  EXPECT_EQ(cache.Find(0, &kPacked, source.Clone()), nullptr);        // same values, other storage
  EXPECT_EQ(cache.Find(0, &kPacked, source.Reshaped({4})), nullptr);  // other dims
  // Keeping again for the same input replaces the entry.
  const Tensor other = Tensor::FromVector<float>(DataType::kFloat, {2, 2}, {5, 6, 7, 8});
  auto repacked = std::make_shared<const int>(8);
  cache.Keep(0, &kPacked, other, repacked);
  EXPECT_EQ(cache.Find(0, &kPacked, source), nullptr);
  EXPECT_EQ(cache.Find(0, &kPacked, other), repacked);
}

// Values of another kind derived from the same input are kept beside each other, and neither is
// found for the other's kind (a kernel reading one as the other would misread its memory).
TEST(KernelCacheTest, KeepsEachKindApart) {
  KernelCache cache;
  const Tensor source = Tensor::FromVector<float>(DataType::kFloat, {2}, {1, 2});
  auto packed = std::make_shared<const int>(7);
  cache.Keep(0, &kPacked, source, packed);
  EXPECT_EQ(cache.Find(0, &kCropped, source), nullptr);
  auto cropped = std::make_shared<const double>(0.5);
  cache.Keep(0, &kCropped, source, cropped);
  EXPECT_EQ(cache.Find(0, &kPacked, source), packed);
  EXPECT_EQ(cache.Find(0, &kCropped, source), cropped);
}

// The entry holds the source's storage: the buffer is not the tensor's alone any more, so no
// kernel may overwrite it in place while the entry could be found for it.
TEST(KernelCacheTest, HoldsTheSourceStorage) {
  KernelCache cache;
  Tensor source = Tensor::FromVector<float>(DataType::kFloat, {3}, {1, 2, 3});
  ASSERT_TRUE(source.has_unique_buffer());
  cache.Keep(0, &kPacked, source, std::make_shared<const int>(1));
  EXPECT_FALSE(source.has_unique_buffer());
}

}  // namespace
}  // namespace onnx_opt::interpreter
