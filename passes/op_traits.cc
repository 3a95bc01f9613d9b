#include "passes/op_traits.h"

namespace onnx_opt::passes {

bool IsKnownOp(const ir::Model& model, const ir::Node& node) {
  if (node.is_onnx_domain() || node.domain() == "ai.onnx.ml") return true;
  return model.FindFunction(node.domain(), node.op_type(), node.overload()) != nullptr;
}

}  // namespace onnx_opt::passes
