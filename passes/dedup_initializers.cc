// dedup-initializers: constant initializers with the same element type, dims and bytes (whatever
// their names) are merged into the first one. Graph inputs with defaults and graph outputs keep
// their own values, as they are part of the interface.
// Tensors are bucketed by a hash of their contents and compared byte for byte only within a
// bucket, so no copy of the weights is made. Only tensors that share type and dims with another are
// hashed, and hashing reads in pieces releasing mapped pages behind, so merging the weights of a
// model larger than memory keeps little of it resident.
#include <algorithm>

#include "absl/container/flat_hash_map.h"
#include "absl/hash/hash.h"
#include "optimizer/pass_registry.h"
#include "passes/rewrite/graph_pass.h"
#include "passes/rewrite/rewriter.h"

namespace onnx_opt::passes {
namespace {

size_t ShapeHash(const ir::Tensor& t) {
  return absl::HashOf(static_cast<int>(t.data_type()), t.dims());
}

size_t ContentHash(const ir::Tensor& t) {
  size_t h = absl::HashOf(ShapeHash(t), t.raw_size(), t.strings());
  t.ScanRaw([&](const char* chunk, size_t n) { h = absl::HashOf(h, absl::string_view(chunk, n)); });
  return h;
}

class DeduplicateInitializers final : public rewrite::GraphPass {
 public:
  static constexpr char kName[] = "dedup-initializers";
  DeduplicateInitializers() : GraphPass(kName) {}

  absl::StatusOr<int64_t> RunOnGraph(ir::Graph& g, rewrite::GraphRun& run) override {
    rewrite::Rewriter rw(g, run.opset, run.names, rewrite::TouchedNodes::kIgnore);
    auto candidate = [](const ir::Value* v) {
      return v->is_constant_initializer() && !v->is_graph_output() && v->has_uses();
    };
    const std::vector<ir::Value*> inits = g.initializers();
    absl::flat_hash_map<size_t, int> same_shape;  // by type and dims
    for (const ir::Value* v : inits) {
      if (candidate(v)) ++same_shape[ShapeHash(*v->initializer())];
    }
    absl::flat_hash_map<size_t, std::vector<ir::Value*>> kept;  // by content hash
    int64_t merged = 0;
    for (ir::Value* v : inits) {
      if (!candidate(v) || same_shape[ShapeHash(*v->initializer())] < 2) continue;
      std::vector<ir::Value*>& bucket = kept[ContentHash(*v->initializer())];
      auto same = std::find_if(bucket.begin(), bucket.end(), [&](const ir::Value* k) {
        return k->initializer()->ContentEquals(*v->initializer());
      });
      if (same == bucket.end()) {
        bucket.push_back(v);
        continue;
      }
      rw.ReplaceAllUsesWith(v, *same);
      ++merged;
    }
    return merged;
  }
};

}  // namespace

REGISTER_PASS(DeduplicateInitializers, DeduplicateInitializers::kName,
              "merge initializers with identical contents");

}  // namespace onnx_opt::passes
