#include "passes/annotations.h"

#include <optional>

namespace onnx_opt::passes {
namespace {

// The accessors return const references; the walker needs the fields themselves, so it works
// through set_doc_string on a copy only when there is something to change.
template <typename T>
void VisitOwner(T& owner, const AnnotationVisitor& visit) {
  std::string doc = owner.doc_string();
  visit(doc, &owner.mutable_metadata_props());
  if (doc != owner.doc_string()) owner.set_doc_string(std::move(doc));
}

void VisitTensor(ir::Tensor& t, const AnnotationVisitor& visit) { VisitOwner(t, visit); }

void VisitGraph(ir::Graph& g, const AnnotationVisitor& visit);

void VisitAttribute(ir::Attribute& a, const AnnotationVisitor& visit) {
  std::string doc = a.doc_string();
  visit(doc, nullptr);
  if (doc != a.doc_string()) a.set_doc_string(std::move(doc));
  if (a.t.is_set()) VisitTensor(*a.t, visit);  // not boxing the tensor of every attribute
  for (ir::Tensor& t : a.tensors) VisitTensor(t, visit);
  if (a.sparse_tensor.is_set()) {
    VisitTensor(a.sparse_tensor->values, visit);
    VisitTensor(a.sparse_tensor->indices, visit);
  }
  for (ir::SparseTensor& s : a.sparse_tensors) {
    VisitTensor(s.values, visit);
    VisitTensor(s.indices, visit);
  }
  if (a.g) VisitGraph(*a.g, visit);
  for (auto& g : a.graphs) VisitGraph(*g, visit);
}

void VisitValue(ir::Value& v, const AnnotationVisitor& visit) {
  VisitOwner(v, visit);
  if (ir::Tensor* t = v.mutable_initializer()) VisitTensor(*t, visit);
}

void VisitGraph(ir::Graph& g, const AnnotationVisitor& visit) {
  VisitOwner(g, visit);
  for (ir::Value* v : g.inputs()) VisitValue(*v, visit);
  for (ir::Value* v : g.initializers()) {
    if (!v->is_graph_input()) VisitValue(*v, visit);
  }
  for (size_t i = 0; i < g.outputs().size(); ++i) {
    std::optional<ir::OutputInfo> info = g.output_info(i);
    if (!info) continue;
    visit(info->doc_string, &info->metadata_props);
    g.set_output_info(i, std::move(info));
  }
  for (ir::DanglingValueInfo& d : g.mutable_dangling_value_info())
    visit(d.doc_string, &d.metadata_props);
  for (ir::Node* n : g.nodes()) {
    VisitOwner(*n, visit);
    for (size_t i = 0; i < n->num_outputs(); ++i) VisitValue(*n->output(i), visit);
    // Attribute names first: FindMutableAttribute is the only mutable access.
    std::vector<std::string> names;
    for (const ir::Attribute& a : n->attributes()) names.push_back(a.name());
    for (const std::string& name : names) VisitAttribute(*n->FindMutableAttribute(name), visit);
  }
}

}  // namespace

void ForEachAnnotation(ir::Model& model, const AnnotationVisitor& visit) {
  VisitOwner(model, visit);
  VisitGraph(model.graph(), visit);
  for (auto& f : model.mutable_functions()) {
    VisitOwner(*f, visit);
    for (ir::Attribute& a : f->mutable_attribute_defaults()) VisitAttribute(a, visit);
    VisitGraph(f->body(), visit);
  }
}

}  // namespace onnx_opt::passes
