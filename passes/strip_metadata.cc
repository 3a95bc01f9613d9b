// strip-metadata: removes every metadata_props entry (model, functions, graphs, nodes, values,
// tensors). Metadata is what a user or exporter chose to record (licences, provenance, labels), so
// this pass is in no group: onnx-opt runs it only when asked.
#include "optimizer/pass_registry.h"
#include "passes/annotations.h"

namespace onnx_opt::passes {
namespace {

class StripMetadata final : public optimizer::Pass {
 public:
  static constexpr char kName[] = "strip-metadata";
  std::string_view name() const override { return kName; }

  absl::StatusOr<bool> Run(ir::Model& model, optimizer::PassContext& ctx) override {
    int64_t stripped = 0;
    ForEachAnnotation(model, [&](std::string&, ir::StringPairs* metadata) {
      if (metadata == nullptr || metadata->empty()) return;
      stripped += static_cast<int64_t>(metadata->size());
      metadata->clear();
    });
    ctx.CountRewrite(stripped);
    return stripped > 0;
  }
};

}  // namespace

REGISTER_PASS(StripMetadata, StripMetadata::kName,
              "remove every metadata_props entry (user-set facts; not in any group)");

}  // namespace onnx_opt::passes
