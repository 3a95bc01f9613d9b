#include "optimizer/model_stats.h"

#include "ir/captures.h"

namespace onnx_opt::optimizer {
int64_t TensorBytes(const ir::Tensor& t) {
  int64_t n = static_cast<int64_t>(t.raw_size());
  for (const std::string& s : t.strings()) n += static_cast<int64_t>(s.size());
  return n;
}

namespace {

void MeasureGraph(const ir::Graph& g, ModelSize& size) {
  for (const ir::Value* v : g.initializers())
    size.initializer_bytes += TensorBytes(*v->initializer());
  for (const ir::Value* v : g.sparse_initializers()) {
    size.initializer_bytes += TensorBytes(v->sparse_initializer()->values) +
                              TensorBytes(v->sparse_initializer()->indices);
  }
  size.nodes += static_cast<int64_t>(g.num_nodes());
  if (g.num_subgraph_holders() == 0) return;  // no need to walk the nodes
  for (const ir::Node* n : g.nodes()) {
    if (!n->may_have_subgraphs()) continue;
    for (const ir::Graph* sub : n->subgraphs()) MeasureGraph(*sub, size);
  }
}

}  // namespace

ModelSize MeasureModel(const ir::Model& model) {
  ModelSize size;
  MeasureGraph(model.graph(), size);
  for (const auto& f : model.functions()) MeasureGraph(f->body(), size);
  return size;
}

std::map<std::string, int64_t> CountOpTypes(const ir::Model& model) {
  std::map<std::string, int64_t> counts;
  auto count = [&](ir::Node* n) { ++counts[n->QualifiedOpType()]; };
  ir::ForEachNodeRecursive(model.graph(), count);
  for (const auto& f : model.functions()) ir::ForEachNodeRecursive(f->body(), count);
  return counts;
}

}  // namespace onnx_opt::optimizer
