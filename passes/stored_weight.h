// The lossy weight passes (float16-weights, quantize-weights) store a weight in another form and
// compute it back with a node: the one step they share.
#ifndef ONNX_OPT_PASSES_STORED_WEIGHT_H_
#define ONNX_OPT_PASSES_STORED_WEIGHT_H_

#include <memory>

#include "absl/status/status.h"
#include "ir/graph.h"
#include "ir/node.h"
#include "passes/rewrite/rewriter.h"

namespace onnx_opt::passes {

// Puts `node` (one output, reading only initializers) first in `rw`'s graph and makes its output
// the constant initializer `w`'s replacement: typed as `w`, under `w`'s own name (its users keep
// reading the name they had); `w` is removed.
absl::Status ComputeWeightWith(rewrite::Rewriter& rw, ir::Value& w, std::unique_ptr<ir::Node> node);

}  // namespace onnx_opt::passes

#endif  // ONNX_OPT_PASSES_STORED_WEIGHT_H_
