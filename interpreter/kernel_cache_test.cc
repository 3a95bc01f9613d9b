#include "interpreter/kernel_cache.h"

#include <memory>

#include "gtest/gtest.h"

namespace onnx_opt::interpreter {
namespace {

TEST(KernelCacheTest, FindsWhatWasKeptForTheSameTensorOnly) {
  KernelCache cache;
  const Tensor source = Tensor::FromVector<float>(DataType::kFloat, {2, 2}, {1, 2, 3, 4});
  EXPECT_EQ(cache.Find(0, source), nullptr);
  auto packed = std::make_shared<const int>(7);
  cache.Keep(0, source, packed);
  EXPECT_EQ(cache.Find(0, source), packed);
  const Tensor copy = source;  // shares the storage
  EXPECT_EQ(cache.Find(0, copy), packed);
  EXPECT_EQ(cache.Find(1, source), nullptr);                // another input
  EXPECT_EQ(cache.Find(0, source.Clone()), nullptr);        // same values, other storage
  EXPECT_EQ(cache.Find(0, source.Reshaped({4})), nullptr);  // other dims
  // Keeping again for the same input replaces the entry.
  const Tensor other = Tensor::FromVector<float>(DataType::kFloat, {2, 2}, {5, 6, 7, 8});
  auto repacked = std::make_shared<const int>(8);
  cache.Keep(0, other, repacked);
  EXPECT_EQ(cache.Find(0, source), nullptr);
  EXPECT_EQ(cache.Find(0, other), repacked);
}

// The entry holds the source's storage: the buffer is not the tensor's alone any more, so no
// kernel may overwrite it in place while the entry could be found for it.
TEST(KernelCacheTest, HoldsTheSourceStorage) {
  KernelCache cache;
  Tensor source = Tensor::FromVector<float>(DataType::kFloat, {3}, {1, 2, 3});
  ASSERT_TRUE(source.has_unique_buffer());
  cache.Keep(0, source, std::make_shared<const int>(1));
  EXPECT_FALSE(source.has_unique_buffer());
}

}  // namespace
}  // namespace onnx_opt::interpreter
