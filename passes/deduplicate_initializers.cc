// dedup-initializers: constant initializers with the same element type, dims and bytes (whatever
// their names) are merged into the first one. Graph inputs with defaults and graph outputs keep
// their own values, as they are part of the interface.
#include "absl/container/flat_hash_map.h"
#include "optimizer/pass_registry.h"
#include "passes/graph_walk.h"
#include "passes/node_key.h"

namespace onnx_opt::passes {
namespace {

std::string ContentKey(const ir::Tensor& t) {
  // Reuse the attribute key encoding of a tensor: type, dims, bytes, strings.
  std::optional<std::string> key = AttributeKey(ir::Attribute::FromTensor("", t));
  return key.value_or("");
}

class DeduplicateInitializers final : public optimizer::Pass {
 public:
  std::string_view name() const override { return "dedup-initializers"; }

  absl::StatusOr<bool> Run(ir::Model& model, optimizer::PassContext& ctx) override {
    return ForEachGraphOuterFirst(model, [&](ir::Graph& g) -> absl::StatusOr<bool> {
      absl::flat_hash_map<std::string, ir::Value*> first;
      bool changed = false;
      const std::vector<ir::Value*> inits = g.initializers();
      for (ir::Value* v : inits) {
        if (!v->is_constant_initializer() || v->is_graph_output() || !v->has_uses()) continue;
        auto [it, inserted] = first.emplace(ContentKey(*v->initializer()), v);
        if (inserted) continue;
        v->ReplaceAllUsesWith(it->second);
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
