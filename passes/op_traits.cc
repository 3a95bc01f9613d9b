#include "passes/op_traits.h"

#include <string>

namespace onnx_opt::passes {

bool IsKnownOp(const ir::Model& model, const ir::Node& node) {
  if (node.is_onnx_domain() || node.domain() == "ai.onnx.ml") return true;
  return model.FindFunction(node.domain(), node.op_type(), node.overload()) != nullptr;
}

bool IsNondeterministic(const ir::Node& node) {
  if (!node.is_onnx_domain()) return false;
  const std::string& op = node.op_type();
  // Dropout is deterministic only when not training; its training_mode may be a runtime input.
  return op == "RandomNormal" || op == "RandomNormalLike" || op == "RandomUniform" ||
         op == "RandomUniformLike" || op == "Multinomial" || op == "Bernoulli" || op == "Dropout";
}

}  // namespace onnx_opt::passes
