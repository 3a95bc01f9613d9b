#include "ir/name_generator.h"

#include "absl/strings/str_cat.h"

namespace onnx_opt::ir {

NameGenerator::NameGenerator(const Model& model) : model_(&model) {}

NameGenerator::NameGenerator(const Graph& graph) : graph_(&graph) {}

void NameGenerator::EnsureCollected() {
  if (collected_) return;
  collected_ = true;
  if (graph_ != nullptr) Collect(*graph_);
  if (model_ != nullptr) {
    Collect(model_->graph());
    for (const auto& f : model_->functions()) Collect(f->body());
  }
}

void NameGenerator::Collect(const Graph& graph) {
  for (const Value* v : graph.inputs()) taken_.insert(v->name());
  for (const Value* v : graph.initializers()) taken_.insert(v->name());
  for (const Value* v : graph.sparse_initializers()) taken_.insert(v->name());
  for (const Node* n : graph.nodes()) {
    if (!n->name().empty()) taken_.insert(n->name());
    for (size_t i = 0; i < n->num_outputs(); ++i) taken_.insert(n->output(i)->name());
    for (const Graph* sub : n->subgraphs()) Collect(*sub);
  }
}

std::string NameGenerator::Fresh(std::string_view base) {
  EnsureCollected();
  std::string name(base.empty() ? "v" : base);
  if (taken_.insert(name).second) return name;
  int64_t& suffix = next_suffix_[name];
  std::string candidate;
  do {
    candidate = absl::StrCat(name, "_", ++suffix);
  } while (!taken_.insert(candidate).second);
  return candidate;
}

}  // namespace onnx_opt::ir
