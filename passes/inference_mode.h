// Whether a BatchNormalization node normalizes with its running statistics (inference) rather than
// batch statistics (training), by the rules of the node's own operator version.
#ifndef ONNX_OPT_PASSES_INFERENCE_MODE_H_
#define ONNX_OPT_PASSES_INFERENCE_MODE_H_

#include <cstdint>

#include "ir/node.h"

namespace onnx_opt::passes {

// `opset` is the model's ai.onnx version. True only when the node certainly computes
// Y = scale * (X - mean) / sqrt(var + epsilon) + bias with per-channel 1-D statistics, and none of
// its other outputs is used.
bool IsInferenceBatchNorm(const ir::Node& bn, int64_t opset);

}  // namespace onnx_opt::passes

#endif  // ONNX_OPT_PASSES_INFERENCE_MODE_H_
