#include "tools/cli/ir_slab_pools.h"

#include <cstddef>

#include "glog/logging.h"
#include "ir/object_allocator.h"
#include "platform/slab_pool.h"

namespace onnx_opt::cli {
namespace {

class SlabPools : public ir::ObjectAllocator {
 public:
  void* Allocate(ir::ObjectKind kind, size_t size) override { return Pool(kind).Allocate(size); }
  void Free(ir::ObjectKind kind, void* object, size_t /*size*/) override {
    Pool(kind).Free(object);
  }

 private:
  platform::SlabPool& Pool(ir::ObjectKind kind) {
    return kind == ir::ObjectKind::kNode ? nodes_ : values_;
  }
  platform::SlabPool nodes_;
  platform::SlabPool values_;
};

}  // namespace

void UseSlabPoolsForIr() {
  if constexpr (!platform::kSlabPoolsPay) return;
  // Never destroyed: nodes may be freed during static destruction.
  static SlabPools* const pools = [] {
    auto* p = new SlabPools();
    const absl::Status s = ir::SetObjectAllocator(p);
    CHECK(s.ok()) << s.message();  // our invariant: the tools call this first
    return p;
  }();
  (void)pools;
}

}  // namespace onnx_opt::cli
