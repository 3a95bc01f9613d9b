#include "passes/inference_mode.h"

namespace onnx_opt::passes {

bool IsInferenceBatchNorm(const ir::Node& bn, int64_t opset) {
  if (!bn.is_onnx_domain() || bn.op_type() != "BatchNormalization" || bn.num_inputs() != 5)
    return false;
  for (size_t i = 0; i < 5; ++i) {
    if (!bn.has_input(i)) return false;
  }
  for (size_t i = 1; i < bn.num_outputs(); ++i) {
    if (bn.output(i)->has_uses()) return false;
  }
  if (opset < 7) {
    // Versions 1 and 6: test mode only when is_test is set.
    if (bn.GetInt("is_test", 0) == 0) return false;
  } else if (opset < 14) {
    // Versions 7 and 9: extra declared outputs select training mode.
    size_t declared = 0;
    for (size_t i = 0; i < bn.num_outputs(); ++i) declared += !bn.output(i)->is_omitted();
    if (declared != 1) return false;
  } else if (bn.GetInt("training_mode", 0) != 0) {
    return false;
  }
  // Versions before 9 may normalize per activation (spatial = 0).
  if (opset < 9 && bn.GetInt("spatial", 1) != 1) return false;
  return true;
}

}  // namespace onnx_opt::passes
