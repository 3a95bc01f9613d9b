// standardize: onnxruntime's contrib operators (domain com.microsoft) rewritten into standard ONNX
// operators at the model's opset of ai.onnx, where a standard form computes the same. A node whose
// standard form needs a newer opset, or which uses a feature with no exact standard spelling, is
// left as it is, and the report says why (see standardize.cc for the forms).
//
// The registered pass (`--passes=standardize`) logs each node it leaves as a warning, once per
// node; tools that want the list (onnx-convert --standardize) call Standardize() and print it
// themselves.
#ifndef ONNX_OPT_PASSES_STANDARDIZE_H_
#define ONNX_OPT_PASSES_STANDARDIZE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "ir/model.h"
#include "optimizer/pass.h"

namespace onnx_opt::passes {

struct StandardizeReport {
  int64_t rewritten = 0;  // contrib nodes replaced by standard ones
  // One line per contrib node left: "<the node, as Node::Describe() names it>: why".
  std::vector<std::string> kept;
};

// Rewrites the contrib nodes of the model's main graph and its subgraphs (function bodies, which
// follow their own opset imports, are left alone). Counts its rewrites on `ctx`.
absl::StatusOr<StandardizeReport> Standardize(ir::Model& model, optimizer::PassContext& ctx);

}  // namespace onnx_opt::passes

#endif  // ONNX_OPT_PASSES_STANDARDIZE_H_
