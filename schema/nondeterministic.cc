#include "schema/nondeterministic.h"

#include <string>

namespace onnx_opt::schema {

bool IsNondeterministic(const ir::Node& node) {
  if (!node.is_onnx_domain()) return false;
  const std::string& op = node.op_type();
  return op == "RandomNormal" || op == "RandomNormalLike" || op == "RandomUniform" ||
         op == "RandomUniformLike" || op == "Multinomial" || op == "Bernoulli" || op == "Dropout";
}

}  // namespace onnx_opt::schema
