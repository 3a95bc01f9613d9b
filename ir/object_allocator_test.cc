#include "ir/object_allocator.h"

#include <atomic>
#include <cstddef>
#include <new>
#include <string>

#include "gtest/gtest.h"
#include "ir/graph.h"

namespace onnx_opt::ir {
namespace {

// Counts what the IR asks for, by kind, and hands out ordinary heap memory.
class CountingAllocator : public ObjectAllocator {
 public:
  void* Allocate(ObjectKind kind, size_t size) override {
    ++live[static_cast<int>(kind)];
    return ::operator new(size);
  }
  void Free(ObjectKind kind, void* object, size_t size) override {
    --live[static_cast<int>(kind)];
    ::operator delete(object, size);
  }
  std::atomic<int> live[2] = {0, 0};
};

// One test: the allocator can be set only before the first object of the process, which is this
// test binary's first node or value.
TEST(ObjectAllocatorTest, NodesAndValuesComeFromTheInstalledAllocatorWhichIsSetOnlyBeforeTheFirst) {
  static CountingAllocator counting;  // outlives every object, as the contract asks
  ASSERT_TRUE(SetObjectAllocator(&counting).ok());
  {
    Graph graph("g");
    Value* x = graph.AddInput("x");
    Node* relu = graph.AddNode("Relu", {x}, {"y"});
    graph.AddOutput(relu->output(0));
    EXPECT_EQ(counting.live[static_cast<int>(ObjectKind::kNode)], 1);
    EXPECT_EQ(counting.live[static_cast<int>(ObjectKind::kValue)], 2);
    const absl::Status again = SetObjectAllocator(nullptr);
    EXPECT_EQ(again.code(), absl::StatusCode::kFailedPrecondition);
    EXPECT_NE(again.message().find("before the first node"), std::string::npos);
  }
  EXPECT_EQ(counting.live[static_cast<int>(ObjectKind::kNode)], 0);
  EXPECT_EQ(counting.live[static_cast<int>(ObjectKind::kValue)], 0);
}

}  // namespace
}  // namespace onnx_opt::ir
