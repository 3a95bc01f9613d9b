// unused-value-info: drops value_info entries that name no value of their graph (left by an
// exporter, or by a rewrite in another tool). They describe nothing, so removing them loses
// nothing; entries of live values stay, as runtimes may use their shapes.
#include "optimizer/pass_registry.h"
#include "passes/rewrite/graph_pass.h"

namespace onnx_opt::passes {
namespace {

class EliminateUnusedValueInfo final : public rewrite::GraphPass {
 public:
  static constexpr char kName[] = "unused-value-info";
  EliminateUnusedValueInfo() : GraphPass(kName) {}

  absl::StatusOr<int64_t> RunOnGraph(ir::Graph& g, rewrite::GraphRun&) override {
    const size_t n = g.dangling_value_info().size();
    g.mutable_dangling_value_info().clear();
    return static_cast<int64_t>(n);
  }
};

}  // namespace

REGISTER_PASS(EliminateUnusedValueInfo, EliminateUnusedValueInfo::kName,
              "remove value_info entries that name no value");

}  // namespace onnx_opt::passes
