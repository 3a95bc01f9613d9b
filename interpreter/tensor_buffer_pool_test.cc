#include "interpreter/tensor_buffer_pool.h"

#include <algorithm>
#include <cstring>
#include <thread>

#include "gtest/gtest.h"
#include "interpreter/tensor.h"

namespace onnx_opt::interpreter {
namespace {

uintptr_t Address(const std::shared_ptr<void>& p) { return reinterpret_cast<uintptr_t>(p.get()); }

TEST(TensorBufferPool, ATensorOfAnySizeReusesTheLowestFreeMemory) {
  auto pool = TensorBufferPool::Create();
  std::shared_ptr<void> a = pool->Take(100000);
  std::shared_ptr<void> b = pool->Take(100000);
  std::shared_ptr<void> c = pool->Take(40000);
  EXPECT_EQ(pool->chunk_bytes(), TensorBufferPool::kFirstChunk);  // all three in the first chunk
  for (const auto& p : {a, b, c}) EXPECT_EQ(Address(p) % 64, 0u);
  // Rounded to granules, one after another.
  EXPECT_EQ(Address(b) - Address(a), 100352u);
  EXPECT_EQ(Address(c) - Address(b), 100352u);
  const uintptr_t a_at = Address(a);
  EXPECT_EQ(pool->kept_bytes(), TensorBufferPool::kFirstChunk - 2 * 100352 - 40960);
  a.reset();
  // Another size takes the memory `a` left (lowest first), not fresh memory past `c`.
  std::shared_ptr<void> d = pool->Take(30000);
  EXPECT_EQ(Address(d), a_at);
  // Too large for what is left before `b`: after `c`.
  std::shared_ptr<void> e = pool->Take(80000);
  EXPECT_EQ(Address(e), Address(c) + 40960);
  std::memset(d.get(), 1, 30000);
  std::memset(e.get(), 2, 80000);
}

TEST(TensorBufferPool, FreedNeighboursMergeIntoOneRun) {
  auto pool = TensorBufferPool::Create();
  std::shared_ptr<void> a = pool->Take(20000);
  std::shared_ptr<void> b = pool->Take(20000);
  std::shared_ptr<void> c = pool->Take(20000);
  std::shared_ptr<void> tail = pool->Take(500000);  // keeps the space after `c` taken
  const uintptr_t a_at = Address(a);
  a.reset();
  c.reset();
  b.reset();  // between two free runs: one run of all three now
  std::shared_ptr<void> all = pool->Take(3 * 20480);
  EXPECT_EQ(Address(all), a_at);
  EXPECT_EQ(pool->chunk_bytes(), TensorBufferPool::kFirstChunk);
}

size_t Pages(size_t bytes) { return (bytes + 4095) / 4096 * 4096; }

TEST(TensorBufferPool, GrowsByChunksAndSettlesInTheLargest) {
  auto pool = TensorBufferPool::Create();
  const size_t first = TensorBufferPool::kFirstChunk;
  std::shared_ptr<void> a = pool->Take(600000);
  std::shared_ptr<void> b = pool->Take(600000);  // does not fit beside `a`: a second chunk
  const size_t second = Pages(first + 600064);   // for what the first holds and `b`
  EXPECT_EQ(pool->chunk_bytes(), first + second);
  a.reset();  // the first chunk, empty and smaller than the second, goes
  EXPECT_EQ(pool->chunk_bytes(), second);
  b.reset();  // the last chunk stays for the next run
  EXPECT_EQ(pool->chunk_bytes(), second);
  EXPECT_EQ(pool->kept_bytes(), second);
  // A request larger than all chunks: a chunk for it and what they hold; the empty one goes.
  std::shared_ptr<void> big = pool->Take(3 * first);
  EXPECT_EQ(pool->chunk_bytes(), Pages(second + 3 * first));
  std::memset(big.get(), 3, 3 * first);
}

// Runs that take the same buffers settle in one chunk by the third run, at the same addresses from
// then on (a chunk only as large as all before it would be replaced on every run here).
TEST(TensorBufferPool, RepeatedRunsSettleInOneChunk) {
  auto pool = TensorBufferPool::Create();
  std::vector<uintptr_t> before;
  size_t settled = 0;
  for (int run = 0; run < 5; ++run) {
    std::vector<std::shared_ptr<void>> live;
    for (size_t bytes : {4800000, 4800000, 1200000}) live.push_back(pool->Take(bytes));
    std::vector<uintptr_t> at;
    for (const auto& p : live) at.push_back(Address(p));
    live.clear();
    if (run == 2) settled = pool->chunk_bytes();
    if (run >= 3) {
      EXPECT_EQ(pool->chunk_bytes(), settled) << "run " << run;
      EXPECT_EQ(at, before) << "run " << run;
    }
    before = at;
  }
  EXPECT_LT(settled, 2 * size_t{10800000});
}

TEST(TensorBufferPool, ClosingFreesWhatIsKeptAndWhatComesBackLater) {
  auto pool = TensorBufferPool::Create();
  std::shared_ptr<void> held = pool->Take(50000);
  pool->Take(50000).reset();
  std::shared_ptr<void> elsewhere = pool->Take(2 * TensorBufferPool::kFirstChunk);  // a 2nd chunk
  elsewhere.reset();
  EXPECT_EQ(pool->chunk_bytes(), 4 * TensorBufferPool::kFirstChunk);
  pool->Close();  // the second chunk goes; the first holds `held`
  EXPECT_EQ(pool->chunk_bytes(), TensorBufferPool::kFirstChunk);
  std::memset(held.get(), 1, 50000);  // still the holder's
  held.reset();
  EXPECT_EQ(pool->chunk_bytes(), 0u);
  EXPECT_EQ(pool->kept_bytes(), 0u);
}

TEST(TensorBufferPool, BuffersOutliveThePoolsOwnerAndReturnFromAnyThread) {
  std::shared_ptr<void> held;
  {
    auto pool = TensorBufferPool::Create();
    held = pool->Take(70000);
    std::shared_ptr<void> other = pool->Take(70000);
    std::thread([moved = std::move(other)]() mutable { moved.reset(); }).join();
    EXPECT_EQ(pool->kept_bytes(), TensorBufferPool::kFirstChunk - 70656);
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
    EXPECT_EQ(pool->kept_bytes(), pool->chunk_bytes() - 64 * 1024 * 4);
  }
  EXPECT_EQ(TensorBufferPool::Current(), nullptr);
  EXPECT_EQ(pool->kept_bytes(), pool->chunk_bytes());  // all free again
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
  EXPECT_EQ(pool->kept_bytes(), pool->chunk_bytes());
}

}  // namespace
}  // namespace onnx_opt::interpreter
