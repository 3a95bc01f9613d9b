#include "platform/slab_pool.h"

#include <cstddef>
#include <cstdint>
#include <vector>

#include "gtest/gtest.h"

namespace onnx_opt::platform {
namespace {

constexpr size_t kSlot = 64;

TEST(SlabPoolTest, ReusesTheLowestFreeSlotSoLaterObjectsStayInCreationOrder) {
  SlabPool pool;
  std::vector<void*> slots;
  for (int i = 0; i < 10; ++i) slots.push_back(pool.Allocate(kSlot));
  for (int i = 1; i < 10; ++i)
    EXPECT_EQ(static_cast<char*>(slots[i]) - static_cast<char*>(slots[i - 1]), kSlot);
  // Free in an order a last-freed-first list would hand back scrambled.
  for (int i : {7, 2, 9, 4, 0}) pool.Free(slots[i]);
  std::vector<void*> again;
  for (int i = 0; i < 5; ++i) again.push_back(pool.Allocate(kSlot));
  EXPECT_EQ(again, (std::vector<void*>{slots[0], slots[2], slots[4], slots[7], slots[9]}));
  // Past the freed ones, new slots continue where the slab left off.
  void* next = pool.Allocate(kSlot);
  EXPECT_EQ(static_cast<char*>(next) - static_cast<char*>(slots[9]), kSlot);
  for (void* p : again) pool.Free(p);
  for (int i : {1, 3, 5, 6, 8}) pool.Free(slots[i]);
  pool.Free(next);
}

TEST(SlabPoolTest, ObjectsOfACacheLineOrMoreStartOnALine) {
  SlabPool pool;  // its first request fixes its slot size
  void* a = pool.Allocate(72);
  void* b = pool.Allocate(72);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a) % 64, 0u);
  EXPECT_EQ(static_cast<char*>(b) - static_cast<char*>(a), 128);
  pool.Free(b);
  pool.Free(a);
}

TEST(SlabPoolTest, FillsAWholeSlabBeforeStartingTheNext) {
  SlabPool pool;
  // Slabs of 64 KiB doubling up to 1 MiB, then of 2 MiB (1024, 2048, ... 16384, then 32768 slots of
  // 64 bytes): each is filled whole, its slots running on without a gap to its end; every slot is
  // handed out once, and freed ones come back first.
  constexpr int kCount = 40000;
  std::vector<void*> slots;
  for (int i = 0; i < kCount; ++i) slots.push_back(pool.Allocate(kSlot));
  size_t begin = 0;
  for (const size_t slab_slots : {1024, 2048, 4096, 8192, 16384, kCount - 31744}) {
    auto* first = static_cast<char*>(slots[begin]);
    for (size_t i = begin + 1; i < begin + slab_slots; ++i) {
      ASSERT_EQ(static_cast<char*>(slots[i]) - first,
                static_cast<std::ptrdiff_t>((i - begin) * kSlot))
          << i;
    }
    begin += slab_slots;
  }
  // The first full slab is one aligned 2 MiB page.
  EXPECT_EQ(reinterpret_cast<uintptr_t>(slots[31744]) % (uintptr_t{2} << 20), 0u);
  pool.Free(slots[kCount - 1]);
  pool.Free(slots[10]);
  EXPECT_EQ(pool.Allocate(kSlot), slots[10]);
  EXPECT_EQ(pool.Allocate(kSlot), slots[kCount - 1]);
  for (void* p : slots) pool.Free(p);
}

}  // namespace
}  // namespace onnx_opt::platform
