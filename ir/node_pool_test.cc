#include "ir/node_pool.h"

#include <cstddef>
#include <cstdint>
#include <vector>

#include "gtest/gtest.h"

namespace onnx_opt::ir {
namespace {

// The value pool is used by nothing else in this test binary, so its slots are ours.
constexpr size_t kSlot = 64;

TEST(NodePoolTest, ReusesTheLowestFreeSlotSoLaterObjectsStayInCreationOrder) {
  if (!kSlabPoolsEnabled) GTEST_SKIP() << "under AddressSanitizer objects come from the ordinary heap";
  std::vector<void*> slots;
  for (int i = 0; i < 10; ++i) slots.push_back(AllocateValueSlot(kSlot));
  for (int i = 1; i < 10; ++i) EXPECT_EQ(static_cast<char*>(slots[i]) - static_cast<char*>(slots[i - 1]), kSlot);
  // Free in an order a last-freed-first list would hand back scrambled.
  for (int i : {7, 2, 9, 4, 0}) FreeValueSlot(slots[i], kSlot);
  std::vector<void*> again;
  for (int i = 0; i < 5; ++i) again.push_back(AllocateValueSlot(kSlot));
  EXPECT_EQ(again, (std::vector<void*>{slots[0], slots[2], slots[4], slots[7], slots[9]}));
  // Past the freed ones, new slots continue where the slab left off.
  void* next = AllocateValueSlot(kSlot);
  EXPECT_EQ(static_cast<char*>(next) - static_cast<char*>(slots[9]), kSlot);
  for (void* p : again) FreeValueSlot(p, kSlot);
  for (int i : {1, 3, 5, 6, 8}) FreeValueSlot(slots[i], kSlot);
  FreeValueSlot(next, kSlot);
}

TEST(NodePoolTest, ObjectsOfACacheLineOrMoreStartOnALine) {
  if (!kSlabPoolsEnabled) GTEST_SKIP() << "under AddressSanitizer objects come from the ordinary heap";
  // The node pool is not used by this test binary either: its first request fixes its slot size.
  void* a = AllocateNodeSlot(72);
  void* b = AllocateNodeSlot(72);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a) % 64, 0u);
  EXPECT_EQ(static_cast<char*>(b) - static_cast<char*>(a), 128);
  FreeNodeSlot(b, 72);
  FreeNodeSlot(a, 72);
}

TEST(NodePoolTest, FillsAWholeSlabBeforeStartingTheNext) {
  if (!kSlabPoolsEnabled) GTEST_SKIP() << "under AddressSanitizer objects come from the ordinary heap";
  // Slabs of 64 KiB doubling up to 1 MiB, then of 2 MiB (1024, 2048, ... 16384, then 32768 slots of
  // 64 bytes): each is filled whole, its slots running on without a gap to its end; every slot is
  // handed out once, and freed ones come back first.
  constexpr int kCount = 40000;
  std::vector<void*> slots;
  for (int i = 0; i < kCount; ++i) slots.push_back(AllocateValueSlot(kSlot));
  size_t begin = 0;
  for (const size_t slab_slots : {1024, 2048, 4096, 8192, 16384, kCount - 31744}) {
    auto* first = static_cast<char*>(slots[begin]);
    for (size_t i = begin + 1; i < begin + slab_slots; ++i) {
      ASSERT_EQ(static_cast<char*>(slots[i]) - first, static_cast<std::ptrdiff_t>((i - begin) * kSlot)) << i;
    }
    begin += slab_slots;
  }
  // The first full slab is one aligned 2 MiB page.
  EXPECT_EQ(reinterpret_cast<uintptr_t>(slots[31744]) % (uintptr_t{2} << 20), 0u);
  FreeValueSlot(slots[kCount - 1], kSlot);
  FreeValueSlot(slots[10], kSlot);
  EXPECT_EQ(AllocateValueSlot(kSlot), slots[10]);
  EXPECT_EQ(AllocateValueSlot(kSlot), slots[kCount - 1]);
  for (void* p : slots) FreeValueSlot(p, kSlot);
}

}  // namespace
}  // namespace onnx_opt::ir
