#include "ir/clone.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "ir/attribute.h"
#include "ir/function.h"
#include "ir/node.h"
#include "ir/value.h"

namespace onnx_opt::ir {
namespace {

// Two phases, because a graph need not be in topological order and a subgraph may use an outer
// value defined after the node holding it: first every value and node (without edges), then the
// edges, graph outputs and value_info.
class Cloner {
 public:
  void Skeleton(const Graph& from, Graph& to);
  Attribute CloneAttribute(const Attribute& a);
  std::unique_ptr<Function> CloneFunction(const Function& f);
  absl::Status Wire();

 private:
  static void CopyValueFields(const Value& from, Value& to) {
    to.set_type(from.type());
    to.set_doc_string(from.doc_string());
    to.set_metadata_props(from.metadata_props());
  }

  absl::flat_hash_map<const Value*, Value*> map_;
  std::vector<std::pair<const Node*, Node*>> nodes_;
  std::vector<std::pair<const Graph*, Graph*>> graphs_;
  absl::Status status_;
};

void Cloner::Skeleton(const Graph& from, Graph& to) {
  to.set_name(from.name());
  to.set_doc_string(from.doc_string());
  to.mutable_metadata_props() = from.metadata_props();
  to.mutable_explicit_defaults() = from.explicit_defaults();
  to.mutable_quantization_annotation() = from.quantization_annotation();

  for (const Value* v : from.inputs()) {
    Value* nv = to.AddInput(v->name(), v->type());
    CopyValueFields(*v, *nv);
    map_[v] = nv;
  }
  for (const Value* v : from.initializers()) {
    if (v->initializer() == nullptr) continue;
    if (v->is_graph_input()) {
      to.SetInitializer(map_[v], *v->initializer());
      continue;
    }
    Value* nv = to.AddInitializer(*v->initializer());
    nv->set_name(v->name());
    CopyValueFields(*v, *nv);
    map_[v] = nv;
  }
  for (const Value* v : from.sparse_initializers()) {
    if (v->is_graph_input()) {
      if (status_.ok()) {
        status_ = absl::UnimplementedError(absl::StrCat("cannot copy graph '", from.name(),
                                                        "': sparse initializer '", v->name(),
                                                        "' is also a graph input"));
      }
      continue;
    }
    Value* nv = to.AddSparseInitializer(v->name(), *v->sparse_initializer());
    CopyValueFields(*v, *nv);
    map_[v] = nv;
  }
  for (const Node* n : from.nodes()) {
    std::vector<std::string> out_names;
    out_names.reserve(n->num_outputs());
    for (size_t i = 0; i < n->num_outputs(); ++i) out_names.push_back(n->output(i)->name());
    std::unique_ptr<Node> nn = Node::Create(n->domain(), n->op_type(), {}, out_names);
    nn->set_overload(n->overload());
    nn->set_name(n->name());
    nn->set_doc_string(n->doc_string());
    nn->set_metadata_props(n->metadata_props());
    if (!n->device_configurations().empty())
      nn->mutable_device_configurations() = n->device_configurations();
    nn->mutable_explicit_defaults() = n->explicit_defaults();
    for (const Attribute& a : n->attributes()) nn->SetAttribute(CloneAttribute(a));
    Node* added = to.Append(std::move(nn));
    for (size_t i = 0; i < n->num_outputs(); ++i) {
      CopyValueFields(*n->output(i), *added->output(i));
      map_[n->output(i)] = added->output(i);
    }
    nodes_.emplace_back(n, added);
  }
  graphs_.emplace_back(&from, &to);
}

Attribute Cloner::CloneAttribute(const Attribute& a) {
  Attribute c(a.name(), a.kind());
  c.set_ref_attr_name(a.ref_attr_name());
  c.set_doc_string(a.doc_string());
  c.f = a.f;
  c.i = a.i;
  c.s = a.s;
  if (a.t.is_set()) c.t = *a.t;
  if (a.sparse_tensor.is_set()) c.sparse_tensor = *a.sparse_tensor;
  if (a.tp.is_set()) c.tp = *a.tp;
  c.floats = a.floats;
  c.ints = a.ints;
  c.strings = a.strings;
  c.tensors = a.tensors;
  c.sparse_tensors = a.sparse_tensors;
  c.type_protos = a.type_protos;
  if (a.g) {
    c.g = std::make_unique<Graph>();
    Skeleton(*a.g, *c.g);
  }
  for (const auto& g : a.graphs) {
    if (!g) {
      c.graphs.push_back(nullptr);
      continue;
    }
    auto ng = std::make_unique<Graph>();
    Skeleton(*g, *ng);
    c.graphs.push_back(std::move(ng));
  }
  return c;
}

std::unique_ptr<Function> Cloner::CloneFunction(const Function& f) {
  auto nf = std::make_unique<Function>(f.domain(), f.name(), f.overload());
  nf->set_doc_string(f.doc_string());
  Skeleton(f.body(), nf->body());
  nf->mutable_attribute_names() = f.attribute_names();
  for (const Attribute& a : f.attribute_defaults()) {
    nf->mutable_attribute_defaults().push_back(CloneAttribute(a));
  }
  nf->mutable_opset_imports() = f.opset_imports();
  nf->mutable_metadata_props() = f.metadata_props();
  nf->mutable_explicit_defaults() = f.explicit_defaults();
  return nf;
}

absl::Status Cloner::Wire() {
  if (!status_.ok()) return status_;
  auto lookup = [&](const Value* v, const Node* user) -> absl::StatusOr<Value*> {
    auto it = map_.find(v);
    if (it == map_.end()) {
      return absl::FailedPreconditionError(
          absl::StrCat("cannot copy the model: ",
                       user != nullptr ? user->Describe() : std::string("a graph output"),
                       " uses '", v->name(), "', which is not defined in its scope"));
    }
    return it->second;
  };
  for (const auto& [from, to] : nodes_) {
    for (const Value* v : from->inputs()) {
      if (v == nullptr) {
        to->AddInput(nullptr);
        continue;
      }
      absl::StatusOr<Value*> nv = lookup(v, from);
      if (!nv.ok()) return nv.status();
      to->AddInput(*nv);
    }
  }
  for (const auto& [from, to] : graphs_) {
    for (size_t i = 0; i < from->outputs().size(); ++i) {
      absl::StatusOr<Value*> nv = lookup(from->outputs()[i], nullptr);
      if (!nv.ok()) return nv.status();
      to->AddOutput(*nv);
      if (from->output_info(i).has_value()) to->set_output_info(i, from->output_info(i));
    }
    // value_info membership and order (shared with entries that name no value).
    struct Entry {
      uint64_t order;
      const Value* value;
      const DanglingValueInfo* dangling;
    };
    std::vector<Entry> entries;
    auto consider = [&](const Value* v) {
      if (v->in_value_info()) entries.push_back({v->value_info_order(), v, nullptr});
    };
    for (const Value* v : from->inputs()) consider(v);
    for (const Value* v : from->initializers()) {
      if (!v->is_graph_input()) consider(v);
    }
    for (const Value* v : from->sparse_initializers()) consider(v);
    for (const Node* n : from->nodes()) {
      for (size_t i = 0; i < n->num_outputs(); ++i) consider(n->output(i));
    }
    for (const DanglingValueInfo& d : from->dangling_value_info()) {
      entries.push_back({d.order, nullptr, &d});
    }
    std::stable_sort(entries.begin(), entries.end(),
                     [](const Entry& a, const Entry& b) { return a.order < b.order; });
    for (const Entry& e : entries) {
      if (e.value != nullptr) {
        to->AddValueInfo(map_[e.value]);
      } else {
        DanglingValueInfo d = *e.dangling;
        d.order = to->NextValueInfoOrder();
        to->mutable_dangling_value_info().push_back(std::move(d));
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::unique_ptr<Model>> CloneModel(const Model& model) {
  auto m = std::make_unique<Model>();
  m->set_ir_version(model.ir_version());
  m->mutable_opset_imports() = model.opset_imports();
  m->set_producer_name(model.producer_name());
  m->set_producer_version(model.producer_version());
  m->set_domain(model.domain());
  m->set_model_version(model.model_version());
  m->set_doc_string(model.doc_string());
  m->mutable_metadata_props() = model.metadata_props();
  m->mutable_training_info() = model.training_info();
  m->mutable_configuration() = model.configuration();
  m->mutable_explicit_defaults() = model.explicit_defaults();
  Cloner cloner;
  cloner.Skeleton(model.graph(), m->graph());
  for (const auto& f : model.functions())
    m->mutable_functions().push_back(cloner.CloneFunction(*f));
  absl::Status s = cloner.Wire();
  if (!s.ok()) return s;
  return m;
}

absl::StatusOr<std::unique_ptr<Graph>> CloneGraph(const Graph& graph) {
  auto g = std::make_unique<Graph>();
  Cloner cloner;
  cloner.Skeleton(graph, *g);
  absl::Status s = cloner.Wire();
  if (!s.ok()) return s;
  return g;
}

}  // namespace onnx_opt::ir
