#include "optimizer/initializers_as_inputs.h"

#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "glog/logging.h"
#include "ir/graph.h"

namespace onnx_opt::optimizer {
namespace {

// Lists the initializers of `g` (and of the graphs nested in it) that are not inputs; returns how
// many. A value cannot become an input in place, so each one is replaced by a new input of the same
// name, type and tensor, which takes over its uses.
int64_t ListInGraph(ir::Graph& g) {
  int64_t count = 0;
  for (ir::Node* n : g.nodes()) {
    for (ir::Graph* sub : n->subgraphs()) count += ListInGraph(*sub);
  }
  std::vector<ir::Value*> replaced;
  for (ir::Value* v : g.initializers()) {
    if (v->is_graph_input() || v->initializer() == nullptr) continue;
    replaced.push_back(v);
  }
  for (ir::Value* v : replaced) {
    ir::Value* input = g.AddInput(v->name(), v->type());
    input->set_doc_string(v->doc_string());
    input->set_metadata_props(v->metadata_props());
    g.SetInitializer(input, std::move(*v->mutable_initializer()));
    v->ReplaceAllUsesWith(input);
  }
  // All at once: one by one, each removal scans the initializer list.
  const absl::Status removed = g.RemoveInitializers(replaced);
  CHECK(removed.ok()) << removed;  // each has just lost its every use
  return count + static_cast<int64_t>(replaced.size());
}

// Removes the inputs of the graphs nested in `g`'s nodes that only list an initializer.
int64_t UnlistInSubgraphsOf(ir::Graph& g) {
  int64_t count = 0;
  for (ir::Node* n : g.nodes()) {
    for (ir::Graph* sub : n->subgraphs()) {
      count += UnlistInSubgraphsOf(*sub);
      std::vector<ir::Value*> listed;
      for (ir::Value* v : sub->inputs()) {
        if (v->is_initializer()) listed.push_back(v);
      }
      for (ir::Value* v : listed) {
        const absl::Status removed = sub->RemoveInput(v);
        CHECK(removed.ok()) << removed;  // an input with an initializer can always go
      }
      count += static_cast<int64_t>(listed.size());
    }
  }
  return count;
}

}  // namespace

std::string InitializersListedAsInputs::Summary() const {
  if (count == 0) return "";
  return absl::StrCat("ir_version ", ir_version, ": ", count, " new initializer",
                      count == 1 ? "" : "s", " listed as graph inputs");
}

InitializersListedAsInputs ListInitializersAsInputs(ir::Model& model) {
  InitializersListedAsInputs result;
  result.ir_version = model.ir_version();
  if (model.ir_version() <= 0 || model.ir_version() >= 4) return result;
  result.count = ListInGraph(model.graph());
  return result;
}

int64_t UnlistSubgraphInitializerInputs(ir::Model& model) {
  if (model.ir_version() < 4) return 0;
  return UnlistInSubgraphsOf(model.graph());
}

}  // namespace onnx_opt::optimizer
