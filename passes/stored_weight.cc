#include "passes/stored_weight.h"

#include <string>
#include <utility>

#include "ir/status_macros.h"

namespace onnx_opt::passes {

absl::Status ComputeWeightWith(rewrite::Rewriter& rw, ir::Value& w,
                               std::unique_ptr<ir::Node> node) {
  ir::Node* inserted = rw.InsertFirst(std::move(node));
  inserted->output(0)->set_type(w.type());
  rw.ReplaceAllUsesWith(&w, inserted->output(0));
  std::string old_name = w.name();
  RETURN_IF_ERROR(rw.graph().RemoveInitializer(&w));
  inserted->output(0)->set_name(std::move(old_name));
  return absl::OkStatus();
}

}  // namespace onnx_opt::passes
