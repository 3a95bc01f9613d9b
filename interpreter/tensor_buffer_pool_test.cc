#include "interpreter/tensor_buffer_pool.h"

#include <algorithm>
#include <cstring>
#include <thread>

#include "gtest/gtest.h"
#include "interpreter/tensor.h"

namespace onnx_opt::interpreter {
namespace {

TEST(TensorBufferPool, SizeClassesAreQuarterPowersOfTwoNoSmallerThanTheRequest) {
  EXPECT_EQ(TensorBufferPool::ClassBytes(16384), 16384u);
  EXPECT_EQ(TensorBufferPool::ClassBytes(16385), 20480u);
  EXPECT_EQ(TensorBufferPool::ClassBytes(20480), 20480u);
  EXPECT_EQ(TensorBufferPool::ClassBytes(28673), 32768u);
  EXPECT_EQ(TensorBufferPool::ClassBytes(3 * 1024 * 1024 + 1), 3670016u);  // 2^21 * 1.75
  for (size_t bytes = TensorBufferPool::kPooledFrom; bytes < (size_t{1} << 26);
       bytes = bytes * 9 / 7) {
    const size_t c = TensorBufferPool::ClassBytes(bytes);
    EXPECT_GE(c, bytes);
    EXPECT_LE(c, bytes + bytes / 4) << bytes;  // wastes at most a quarter
  }
}

TEST(TensorBufferPool, HandsOutTheMostRecentlyFreedBufferOfAClass) {
  auto pool = TensorBufferPool::Create();
  std::shared_ptr<void> a = pool->Take(100000);
  std::shared_ptr<void> b = pool->Take(100000);
  std::shared_ptr<void> other = pool->Take(40000);  // another class
  void* const a_data = a.get();
  void* const b_data = b.get();
  EXPECT_NE(a_data, b_data);
  EXPECT_EQ(pool->kept_bytes(), 0u);
  a.reset();
  b.reset();
  EXPECT_EQ(pool->kept_bytes(), 2 * TensorBufferPool::ClassBytes(100000));
  std::shared_ptr<void> c = pool->Take(99000);  // same class as 100000: b's buffer, freed last
  EXPECT_EQ(c.get(), b_data);
  std::shared_ptr<void> d = pool->Take(100000);
  EXPECT_EQ(d.get(), a_data);
  std::shared_ptr<void> e = pool->Take(100000);  // none kept: a new one
  EXPECT_NE(e.get(), a_data);
  EXPECT_NE(e.get(), b_data);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(e.get()) % 64, 0u);
  EXPECT_EQ(pool->kept_bytes(), 0u);
}

TEST(TensorBufferPool, ClosingFreesWhatIsKeptAndWhatComesBackLater) {
  auto pool = TensorBufferPool::Create();
  std::shared_ptr<void> held = pool->Take(50000);
  pool->Take(50000).reset();
  EXPECT_GT(pool->kept_bytes(), 0u);
  pool->Close();
  EXPECT_EQ(pool->kept_bytes(), 0u);
  std::memset(held.get(), 1, 50000);  // still the holder's
  held.reset();
  EXPECT_EQ(pool->kept_bytes(), 0u);
}

TEST(TensorBufferPool, BuffersOutliveThePoolsOwnerAndReturnFromAnyThread) {
  std::shared_ptr<void> held;
  {
    auto pool = TensorBufferPool::Create();
    held = pool->Take(70000);
    std::shared_ptr<void> other = pool->Take(70000);
    std::thread([moved = std::move(other)]() mutable { moved.reset(); }).join();
    EXPECT_EQ(pool->kept_bytes(), TensorBufferPool::ClassBytes(70000));
  }  // the owner lets go; the held buffer keeps the pool alive until it dies
  std::memset(held.get(), 2, 70000);
  held.reset();
}

TEST(TensorBufferPool, TensorsTakeLargeBuffersFromThePoolInUseOnTheirThread) {
  auto pool = TensorBufferPool::Create();
  const void* first = nullptr;
  {
    TensorBufferPool::Use use(pool.get());
    EXPECT_EQ(TensorBufferPool::Current(), pool.get());
    Tensor large = Tensor::Uninitialized(DataType::kFloat, {64, 1024});
    first = large.raw();
    std::fill(large.mutable_data<float>(), large.mutable_data<float>() + large.size(), 1.0f);
    Tensor small(DataType::kFloat, {16});  // under kPooledFrom: from the heap
    EXPECT_EQ(pool->kept_bytes(), 0u);
  }
  EXPECT_EQ(TensorBufferPool::Current(), nullptr);
  EXPECT_EQ(pool->kept_bytes(), TensorBufferPool::ClassBytes(64 * 1024 * 4));
  {
    TensorBufferPool::Use use(pool.get());
    // Zero-filled tensors are zeroed even when their buffer held another tensor's values.
    Tensor again(DataType::kFloat, {64, 1024});
    EXPECT_EQ(again.raw(), first);
    for (int64_t i = 0; i < again.size(); ++i) ASSERT_EQ(again.data<float>()[i], 0.0f);
  }
  {
    TensorBufferPool::Use use(pool.get());
    // Past kPooledUpTo: from the heap, and back to it.
    const int64_t floats = static_cast<int64_t>(TensorBufferPool::kPooledUpTo / sizeof(float)) + 16;
    Tensor huge = Tensor::Uninitialized(DataType::kFloat, {floats});
  }
  Tensor outside = Tensor::Uninitialized(DataType::kFloat, {64, 1024});  // no pool in use
  EXPECT_NE(outside.raw(), first);
  EXPECT_EQ(pool->kept_bytes(), TensorBufferPool::ClassBytes(64 * 1024 * 4));
}

}  // namespace
}  // namespace onnx_opt::interpreter
