// infer-shapes: gives every value the element type and shape its producer implies (see
// schema/inference), so later passes can decide what needs shapes (no-op Reshape, neutral Add...).
// Types only: value_info is not filled, so the written model does not grow. Never reports a change,
// so it does not keep a fixed-point loop going; a model inference cannot handle simply stays as it
// is.
#include "optimizer/pass_registry.h"
#include "schema/inference/inference.h"

namespace onnx_opt::passes {
namespace {

class InferShapesPass final : public optimizer::Pass {
 public:
  static constexpr char kName[] = "infer-shapes";
  std::string_view name() const override { return kName; }

  absl::StatusOr<bool> Run(ir::Model& model, optimizer::PassContext&) override {
    schema::inference::InferOptions options;
    options.fill_value_info = false;
    // Non-strict inference reports contradictions as warnings; those are the checker's business.
    (void)schema::inference::InferShapes(model, options);
    return false;
  }
};

}  // namespace

REGISTER_PASS(InferShapesPass, InferShapesPass::kName,
              "infer value types and shapes for the passes that need them");

}  // namespace onnx_opt::passes
