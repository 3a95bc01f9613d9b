#include "ir/node_pool.h"

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

TEST(NodePoolTest, FillsAWholeSlabBeforeStartingTheNext) {
  if (!kSlabPoolsEnabled) GTEST_SKIP() << "under AddressSanitizer objects come from the ordinary heap";
  // More than one slab's worth: every slot is handed out once, and freed ones come back first.
  std::vector<void*> slots;
  for (int i = 0; i < 5000; ++i) slots.push_back(AllocateValueSlot(kSlot));
  FreeValueSlot(slots[4999], kSlot);
  FreeValueSlot(slots[10], kSlot);
  EXPECT_EQ(AllocateValueSlot(kSlot), slots[10]);
  EXPECT_EQ(AllocateValueSlot(kSlot), slots[4999]);
  for (void* p : slots) FreeValueSlot(p, kSlot);
}

}  // namespace
}  // namespace onnx_opt::ir
