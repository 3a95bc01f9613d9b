// unused-value-info: drops value_info entries that name no value of their graph (left by an exporter,
// or by a rewrite in another tool). They describe nothing, so removing them loses nothing; entries of
// live values stay, as runtimes may use their shapes.
#include "optimizer/pass_registry.h"
#include "passes/graph_walk.h"

namespace onnx_opt::passes {
namespace {

class EliminateUnusedValueInfo final : public optimizer::Pass {
 public:
  std::string_view name() const override { return "unused-value-info"; }

  absl::StatusOr<bool> Run(ir::Model& model, optimizer::PassContext& ctx) override {
    return ForEachGraphOuterFirst(model, [&](ir::Graph& g) -> absl::StatusOr<bool> {
      const size_t n = g.dangling_value_info().size();
      g.mutable_dangling_value_info().clear();
      ctx.CountRewrite(static_cast<int64_t>(n));
      return n > 0;
    });
  }
};

}  // namespace

REGISTER_PASS(EliminateUnusedValueInfo, "unused-value-info", "remove value_info entries that name no value");

}  // namespace onnx_opt::passes
