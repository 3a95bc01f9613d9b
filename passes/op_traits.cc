#include "passes/op_traits.h"

#include <algorithm>
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

std::pair<int64_t, int64_t> ShapeOpRange(const ir::Node& n, int64_t rank, int64_t opset) {
  int64_t start = opset >= 15 ? n.GetInt("start", 0) : 0;
  int64_t end = opset >= 15 ? n.GetInt("end", rank) : rank;
  if (start < 0) start += rank;
  if (end < 0) end += rank;
  start = std::clamp<int64_t>(start, 0, rank);
  end = std::clamp<int64_t>(end, 0, rank);
  return {start, std::max(start, end)};
}

}  // namespace onnx_opt::passes
