// dedup-initializers: constant initializers with the same element type, dims and bytes (whatever
// their names) are merged into the first one. Graph inputs with defaults and graph outputs keep
// their own values, as they are part of the interface.
// Tensors are bucketed by a hash of their contents and compared byte for byte only within a
// bucket, so no copy of the weights is made.
#include <algorithm>

#include "absl/container/flat_hash_map.h"
#include "absl/hash/hash.h"
#include "optimizer/pass_registry.h"
#include "passes/graph_walk.h"

namespace onnx_opt::passes {
namespace {

size_t ContentHash(const ir::Tensor& t) {
  const absl::string_view bytes(t.raw_data() ? t.raw_data() : "", t.raw_size());
  return absl::HashOf(static_cast<int>(t.data_type()), t.dims(), bytes, t.strings());
}

class DeduplicateInitializers final : public optimizer::Pass {
 public:
  std::string_view name() const override { return "dedup-initializers"; }

  absl::StatusOr<bool> Run(ir::Model& model, optimizer::PassContext& ctx) override {
    return ForEachGraphOuterFirst(model, [&](ir::Graph& g) -> absl::StatusOr<bool> {
      absl::flat_hash_map<size_t, std::vector<ir::Value*>> kept;  // by content hash
      bool changed = false;
      const std::vector<ir::Value*> inits = g.initializers();
      for (ir::Value* v : inits) {
        if (!v->is_constant_initializer() || v->is_graph_output() || !v->has_uses()) continue;
        std::vector<ir::Value*>& bucket = kept[ContentHash(*v->initializer())];
        auto same = std::find_if(bucket.begin(), bucket.end(), [&](const ir::Value* k) {
          return k->initializer()->ContentEquals(*v->initializer());
        });
        if (same == bucket.end()) {
          bucket.push_back(v);
          continue;
        }
        v->ReplaceAllUsesWith(*same);
        ctx.CountRewrite();
        changed = true;
      }
      return changed;
    });
  }
};

}  // namespace

REGISTER_PASS(DeduplicateInitializers, "dedup-initializers", "merge initializers with identical contents");

}  // namespace onnx_opt::passes
