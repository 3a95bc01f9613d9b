#include "ir/forward_value.h"

#include <string>

#include "ir/graph.h"
#include "ir/node.h"

namespace onnx_opt::ir {

bool ForwardValue(Value* from, Value* to) {
  if (from == to) return false;
  bool is_output = false;
  for (const Use& u : from->uses()) is_output |= u.is_graph_output();
  if (is_output) {
    // The graph's interface names its outputs; `to` can only take over the name if it is a private
    // value of the same graph.
    if (to->producer() == nullptr || to->graph() != from->graph()) return false;
    for (const Use& u : to->uses()) {
      if (u.is_graph_output()) return false;
    }
    std::string name = from->name();
    from->set_name(to->name());
    to->set_name(std::move(name));
    to->set_type(from->type());
    // The declared output type and doc string stay with the output name.
    to->set_doc_string(from->doc_string());
  }
  from->ReplaceAllUsesWith(to);
  return true;
}

}  // namespace onnx_opt::ir
