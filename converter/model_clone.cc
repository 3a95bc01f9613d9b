#include "converter/model_clone.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "ir/node.h"
#include "ir/value.h"

namespace onnx_opt::converter {
namespace {

// Two phases, because a graph need not be in topological order and a subgraph may use an outer
// value defined after the node holding it: first every value and node (without edges), then the
// edges, graph outputs and value_info.
class Cloner {
 public:
  void Skeleton(const ir::Graph& from, ir::Graph& to);
  ir::Attribute CloneAttribute(const ir::Attribute& a);
  std::unique_ptr<ir::Function> CloneFunction(const ir::Function& f);
  absl::Status Wire();

 private:
  static void CopyValueFields(const ir::Value& from, ir::Value& to) {
    to.set_type(from.type());
    to.set_doc_string(from.doc_string());
    to.mutable_metadata_props() = from.metadata_props();
  }

  absl::flat_hash_map<const ir::Value*, ir::Value*> map_;
  std::vector<std::pair<const ir::Node*, ir::Node*>> nodes_;
  std::vector<std::pair<const ir::Graph*, ir::Graph*>> graphs_;
  absl::Status status_;
};

void Cloner::Skeleton(const ir::Graph& from, ir::Graph& to) {
  to.set_name(from.name());
  to.set_doc_string(from.doc_string());
  to.mutable_metadata_props() = from.metadata_props();
  to.mutable_explicit_defaults() = from.explicit_defaults();
  to.mutable_quantization_annotation() = from.quantization_annotation();

  for (const ir::Value* v : from.inputs()) {
    ir::Value* nv = to.AddInput(v->name(), v->type());
    CopyValueFields(*v, *nv);
    map_[v] = nv;
  }
  for (const ir::Value* v : from.initializers()) {
    if (v->initializer() == nullptr) continue;
    if (v->is_graph_input()) {
      to.SetInitializer(map_[v], *v->initializer());
      continue;
    }
    ir::Value* nv = to.AddInitializer(*v->initializer());
    nv->set_name(v->name());
    CopyValueFields(*v, *nv);
    map_[v] = nv;
  }
  for (const ir::Value* v : from.sparse_initializers()) {
    if (v->is_graph_input()) {
      if (status_.ok()) {
        status_ = absl::UnimplementedError(absl::StrCat(
            "cannot copy graph '", from.name(), "': sparse initializer '", v->name(),
            "' is also a graph input"));
      }
      continue;
    }
    ir::Value* nv = to.AddSparseInitializer(v->name(), *v->sparse_initializer());
    CopyValueFields(*v, *nv);
    map_[v] = nv;
  }
  for (const ir::Node* n : from.nodes()) {
    std::vector<std::string> out_names;
    out_names.reserve(n->num_outputs());
    for (size_t i = 0; i < n->num_outputs(); ++i) out_names.push_back(n->output(i)->name());
    std::unique_ptr<ir::Node> nn = ir::Node::Create(n->domain(), n->op_type(), {}, out_names);
    nn->set_overload(n->overload());
    nn->set_name(n->name());
    nn->set_doc_string(n->doc_string());
    nn->mutable_metadata_props() = n->metadata_props();
    nn->mutable_device_configurations() = n->device_configurations();
    nn->mutable_explicit_defaults() = n->explicit_defaults();
    for (const ir::Attribute& a : n->attributes()) nn->SetAttribute(CloneAttribute(a));
    ir::Node* added = to.Append(std::move(nn));
    for (size_t i = 0; i < n->num_outputs(); ++i) {
      CopyValueFields(*n->output(i), *added->output(i));
      map_[n->output(i)] = added->output(i);
    }
    nodes_.emplace_back(n, added);
  }
  graphs_.emplace_back(&from, &to);
}

ir::Attribute Cloner::CloneAttribute(const ir::Attribute& a) {
  ir::Attribute c(a.name(), a.kind());
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
    c.g = std::make_unique<ir::Graph>();
    Skeleton(*a.g, *c.g);
  }
  for (const auto& g : a.graphs) {
    if (!g) {
      c.graphs.push_back(nullptr);
      continue;
    }
    auto ng = std::make_unique<ir::Graph>();
    Skeleton(*g, *ng);
    c.graphs.push_back(std::move(ng));
  }
  return c;
}

std::unique_ptr<ir::Function> Cloner::CloneFunction(const ir::Function& f) {
  auto nf = std::make_unique<ir::Function>(f.domain(), f.name(), f.overload());
  nf->set_doc_string(f.doc_string());
  Skeleton(f.body(), nf->body());
  nf->mutable_attribute_names() = f.attribute_names();
  for (const ir::Attribute& a : f.attribute_defaults()) {
    nf->mutable_attribute_defaults().push_back(CloneAttribute(a));
  }
  nf->mutable_opset_imports() = f.opset_imports();
  nf->mutable_metadata_props() = f.metadata_props();
  nf->mutable_explicit_defaults() = f.explicit_defaults();
  return nf;
}

absl::Status Cloner::Wire() {
  if (!status_.ok()) return status_;
  auto lookup = [&](const ir::Value* v, const ir::Node* user) -> absl::StatusOr<ir::Value*> {
    auto it = map_.find(v);
    if (it == map_.end()) {
      return absl::FailedPreconditionError(absl::StrCat(
          "cannot copy the model: ", user != nullptr ? user->Describe() : std::string("a graph output"),
          " uses '", v->name(), "', which is not defined in its scope"));
    }
    return it->second;
  };
  for (const auto& [from, to] : nodes_) {
    for (const ir::Value* v : from->inputs()) {
      if (v == nullptr) {
        to->AddInput(nullptr);
        continue;
      }
      absl::StatusOr<ir::Value*> nv = lookup(v, from);
      if (!nv.ok()) return nv.status();
      to->AddInput(*nv);
    }
  }
  for (const auto& [from, to] : graphs_) {
    for (size_t i = 0; i < from->outputs().size(); ++i) {
      absl::StatusOr<ir::Value*> nv = lookup(from->outputs()[i], nullptr);
      if (!nv.ok()) return nv.status();
      to->AddOutput(*nv);
      if (from->output_info(i).has_value()) to->set_output_info(i, from->output_info(i));
    }
    // value_info membership and order (shared with entries that name no value).
    struct Entry {
      uint64_t order;
      const ir::Value* value;
      const ir::DanglingValueInfo* dangling;
    };
    std::vector<Entry> entries;
    auto consider = [&](const ir::Value* v) {
      if (v->in_value_info()) entries.push_back({v->value_info_order(), v, nullptr});
    };
    for (const ir::Value* v : from->inputs()) consider(v);
    for (const ir::Value* v : from->initializers()) {
      if (!v->is_graph_input()) consider(v);
    }
    for (const ir::Value* v : from->sparse_initializers()) consider(v);
    for (const ir::Node* n : from->nodes()) {
      for (size_t i = 0; i < n->num_outputs(); ++i) consider(n->output(i));
    }
    for (const ir::DanglingValueInfo& d : from->dangling_value_info()) {
      entries.push_back({d.order, nullptr, &d});
    }
    std::stable_sort(entries.begin(), entries.end(),
                     [](const Entry& a, const Entry& b) { return a.order < b.order; });
    for (const Entry& e : entries) {
      if (e.value != nullptr) {
        to->AddValueInfo(map_[e.value]);
      } else {
        ir::DanglingValueInfo d = *e.dangling;
        d.order = to->NextValueInfoOrder();
        to->mutable_dangling_value_info().push_back(std::move(d));
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::unique_ptr<ir::Model>> CloneModel(const ir::Model& model) {
  auto m = std::make_unique<ir::Model>();
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
  for (const auto& f : model.functions()) m->mutable_functions().push_back(cloner.CloneFunction(*f));
  absl::Status s = cloner.Wire();
  if (!s.ok()) return s;
  return m;
}

absl::StatusOr<std::unique_ptr<ir::Graph>> CloneGraph(const ir::Graph& graph) {
  auto g = std::make_unique<ir::Graph>();
  Cloner cloner;
  cloner.Skeleton(graph, *g);
  absl::Status s = cloner.Wire();
  if (!s.ok()) return s;
  return g;
}

}  // namespace onnx_opt::converter
