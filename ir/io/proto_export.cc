#include "ir/io/proto_export.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "ir/io/proto_parse.h"
#include "ir/io/tensor_proto.h"
#include "ir/io/type_proto.h"

namespace onnx_opt::ir::io {
namespace {

using google::protobuf::RepeatedPtrField;

// Field numbers, for ExplicitDefaults (see explicit_defaults.h); the same as in proto_import.cc.
namespace field {
constexpr int kModelIrVersion = 1, kModelProducerName = 2, kModelProducerVersion = 3,
              kModelDomain = 4, kModelDocString = 6;
constexpr int kOpsetDomain = 1, kOpsetVersion = 2;
constexpr int kGraphName = 2, kGraphDocString = 10;
constexpr int kNodeName = 3, kNodeOpType = 4, kNodeDocString = 6, kNodeDomain = 7,
              kNodeOverload = 8;
constexpr int kFunctionName = 1, kFunctionDocString = 8, kFunctionDomain = 10,
              kFunctionOverload = 13;
}  // namespace field

// Writes a string field when it is set or was written explicitly empty.
template <typename Setter>
void MaybeSet(const std::string& value, const ExplicitDefaults& defaults, int field_number,
              Setter set) {
  if (!value.empty() || defaults.has(field_number)) set(value);
}

void ExportPairs(const StringPairs& pairs, RepeatedPtrField<onnx::StringStringEntryProto>* out) {
  for (const auto& [k, v] : pairs) {
    auto* e = out->Add();
    e->set_key(k);
    e->set_value(v);
  }
}

void ExportOpsets(const std::vector<OpsetImport>& imports,
                  RepeatedPtrField<onnx::OperatorSetIdProto>* out) {
  for (const OpsetImport& imp : imports) {
    auto* p = out->Add();
    if (!imp.domain.empty() || imp.explicit_defaults.has(field::kOpsetDomain))
      p->set_domain(imp.domain);
    if (imp.version != 0 || imp.explicit_defaults.has(field::kOpsetVersion))
      p->set_version(imp.version);
  }
}

void ExportValueInfo(const std::string& name, const Type& type, const std::string& doc,
                     const StringPairs& metadata, onnx::ValueInfoProto* out) {
  out->set_name(name);
  if (!type.is_none() || !type.denotation().empty()) ExportType(type, out->mutable_type());
  if (!doc.empty()) out->set_doc_string(doc);
  ExportPairs(metadata, out->mutable_metadata_props());
}

void ExportValueInfo(const Value& v, onnx::ValueInfoProto* out) {
  ExportValueInfo(v.name(), v.type(), v.doc_string(), v.metadata_props(), out);
}

class Exporter {
 public:
  explicit Exporter(const ExportOptions& options)
      : tensor_options_{options.force_raw_data, options.external_writer, options.external_threshold,
                        /*inline_external_data=*/false} {}

  absl::Status ExportModel(const Model& model, onnx::ModelProto* out);
  absl::Status ExportFunction(const Function& f, onnx::FunctionProto* out);

 private:
  absl::Status ExportGraph(const Graph& graph, onnx::GraphProto* out);
  absl::Status ExportNodes(const Graph& graph, RepeatedPtrField<onnx::NodeProto>* out);
  absl::Status ExportNode(const Node& node, onnx::NodeProto* out);
  absl::Status ExportAttribute(const Attribute& a, onnx::AttributeProto* out);
  void ExportValueInfoList(const Graph& graph, RepeatedPtrField<onnx::ValueInfoProto>* out);

  TensorExportOptions tensor_options_;
};

absl::Status Exporter::ExportModel(const Model& model, onnx::ModelProto* out) {
  const ExplicitDefaults& d = model.explicit_defaults();
  if (model.ir_version() != 0 || d.has(field::kModelIrVersion))
    out->set_ir_version(model.ir_version());
  ExportOpsets(model.opset_imports(), out->mutable_opset_import());
  MaybeSet(model.producer_name(), d, field::kModelProducerName,
           [&](const std::string& s) { out->set_producer_name(s); });
  MaybeSet(model.producer_version(), d, field::kModelProducerVersion,
           [&](const std::string& s) { out->set_producer_version(s); });
  MaybeSet(model.domain(), d, field::kModelDomain,
           [&](const std::string& s) { out->set_domain(s); });
  if (model.model_version().has_value()) out->set_model_version(*model.model_version());
  MaybeSet(model.doc_string(), d, field::kModelDocString,
           [&](const std::string& s) { out->set_doc_string(s); });
  ExportPairs(model.metadata_props(), out->mutable_metadata_props());
  if (absl::Status s = ExportGraph(model.graph(), out->mutable_graph()); !s.ok()) return s;
  for (const auto& f : model.functions()) {
    if (absl::Status s = ExportFunction(*f, out->add_functions()); !s.ok()) return s;
  }
  for (const std::string& bytes : model.training_info()) {
    absl::Status s =
        ParseProtoBytes(bytes, "training_info", "a TrainingInfoProto", out->add_training_info());
    if (!s.ok()) return s;
  }
  for (const std::string& bytes : model.configuration()) {
    absl::Status s = ParseProtoBytes(bytes, "configuration", "a DeviceConfigurationProto",
                                     out->add_configuration());
    if (!s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::Status Exporter::ExportGraph(const Graph& graph, onnx::GraphProto* out) {
  const ExplicitDefaults& d = graph.explicit_defaults();
  MaybeSet(graph.name(), d, field::kGraphName, [&](const std::string& s) { out->set_name(s); });
  MaybeSet(graph.doc_string(), d, field::kGraphDocString,
           [&](const std::string& s) { out->set_doc_string(s); });
  if (absl::Status s = ExportNodes(graph, out->mutable_node()); !s.ok()) return s;
  for (const Value* v : graph.initializers()) {
    onnx::TensorProto* t = out->add_initializer();
    if (absl::Status s = ExportTensor(*v->initializer(), tensor_options_, t); !s.ok()) return s;
    t->set_name(v->name());  // the value's name is the truth (passes rename values)
  }
  for (const Value* v : graph.sparse_initializers()) {
    onnx::SparseTensorProto* t = out->add_sparse_initializer();
    if (absl::Status s = ExportSparseTensor(*v->sparse_initializer(), tensor_options_, t);
        !s.ok()) {
      return s;
    }
    t->mutable_values()->set_name(v->name());
  }
  for (const Value* v : graph.inputs()) ExportValueInfo(*v, out->add_input());
  for (size_t i = 0; i < graph.outputs().size(); ++i) {
    const Value* v = graph.outputs()[i];
    if (const std::optional<OutputInfo>& info = graph.output_info(i); info.has_value()) {
      ExportValueInfo(v->name(), info->type, info->doc_string, info->metadata_props,
                      out->add_output());
    } else {
      ExportValueInfo(*v, out->add_output());
    }
  }
  ExportValueInfoList(graph, out->mutable_value_info());
  for (const TensorAnnotation& a : graph.quantization_annotation()) {
    auto* p = out->add_quantization_annotation();
    p->set_tensor_name(a.tensor_name);
    ExportPairs(a.quant_parameter_tensor_names, p->mutable_quant_parameter_tensor_names());
  }
  ExportPairs(graph.metadata_props(), out->mutable_metadata_props());
  return absl::OkStatus();
}

void Exporter::ExportValueInfoList(const Graph& graph,
                                   RepeatedPtrField<onnx::ValueInfoProto>* out) {
  for (const ValueInfoEntry& e : ValueInfoInOrder(graph)) {
    if (e.value != nullptr) {
      ExportValueInfo(*e.value, out->Add());
    } else {
      ExportValueInfo(e.dangling->name, e.dangling->type, e.dangling->doc_string,
                      e.dangling->metadata_props, out->Add());
    }
  }
}

absl::Status Exporter::ExportNodes(const Graph& graph, RepeatedPtrField<onnx::NodeProto>* out) {
  out->Reserve(static_cast<int>(graph.num_nodes()));
  for (const Node* n : graph.nodes()) {
    if (absl::Status s = ExportNode(*n, out->Add()); !s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::Status Exporter::ExportNode(const Node& n, onnx::NodeProto* out) {
  const ExplicitDefaults& d = n.explicit_defaults();
  for (const Value* v : n.inputs()) out->add_input(v == nullptr ? "" : v->name());
  for (size_t i = 0; i < n.num_outputs(); ++i) out->add_output(n.output(i)->name());
  MaybeSet(n.name(), d, field::kNodeName, [&](const std::string& s) { out->set_name(s); });
  MaybeSet(n.op_type(), d, field::kNodeOpType, [&](const std::string& s) { out->set_op_type(s); });
  MaybeSet(n.domain(), d, field::kNodeDomain, [&](const std::string& s) { out->set_domain(s); });
  MaybeSet(n.overload(), d, field::kNodeOverload,
           [&](const std::string& s) { out->set_overload(s); });
  MaybeSet(n.doc_string(), d, field::kNodeDocString,
           [&](const std::string& s) { out->set_doc_string(s); });
  for (const Attribute& a : n.attributes()) {
    if (absl::Status s = ExportAttribute(a, out->add_attribute()); !s.ok()) {
      return absl::Status(s.code(), absl::StrCat(n.Describe(), ": ", s.message()));
    }
  }
  ExportPairs(n.metadata_props(), out->mutable_metadata_props());
  for (const std::string& bytes : n.device_configurations()) {
    absl::Status s =
        ParseProtoBytes(bytes, "device_configurations", "a NodeDeviceConfigurationProto",
                        out->add_device_configurations());
    if (!s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::Status Exporter::ExportAttribute(const Attribute& a, onnx::AttributeProto* out) {
  out->set_name(a.name());
  if (!a.ref_attr_name().empty()) out->set_ref_attr_name(a.ref_attr_name());
  if (!a.doc_string().empty()) out->set_doc_string(a.doc_string());
  if (a.kind() != AttributeKind::kUndefined) {
    out->set_type(static_cast<onnx::AttributeProto::AttributeType>(a.kind()));
  }
  if (a.is_reference()) return absl::OkStatus();
  switch (a.kind()) {
    case AttributeKind::kFloat:
      out->set_f(a.f);
      break;
    case AttributeKind::kInt:
      out->set_i(a.i);
      break;
    case AttributeKind::kString:
      out->set_s(a.s);
      break;
    case AttributeKind::kTensor:
      return ExportTensor(a.t, tensor_options_, out->mutable_t());
    case AttributeKind::kGraph:
      if (a.g == nullptr)
        return absl::InvalidArgumentError(absl::StrCat("attribute '", a.name(), "' has no graph"));
      return ExportGraph(*a.g, out->mutable_g());
    case AttributeKind::kSparseTensor:
      return ExportSparseTensor(a.sparse_tensor, tensor_options_, out->mutable_sparse_tensor());
    case AttributeKind::kTypeProto:
      ExportType(a.tp, out->mutable_tp());
      break;
    case AttributeKind::kFloats:
      out->mutable_floats()->Add(a.floats.begin(), a.floats.end());
      break;
    case AttributeKind::kInts:
      out->mutable_ints()->Add(a.ints.begin(), a.ints.end());
      break;
    case AttributeKind::kStrings:
      for (const std::string& s : a.strings) out->add_strings(s);
      break;
    case AttributeKind::kTensors:
      for (const Tensor& t : a.tensors) {
        if (absl::Status s = ExportTensor(t, tensor_options_, out->add_tensors()); !s.ok())
          return s;
      }
      break;
    case AttributeKind::kGraphs:
      for (const auto& g : a.graphs) {
        if (absl::Status s = ExportGraph(*g, out->add_graphs()); !s.ok()) return s;
      }
      break;
    case AttributeKind::kSparseTensors:
      for (const SparseTensor& t : a.sparse_tensors) {
        absl::Status s = ExportSparseTensor(t, tensor_options_, out->add_sparse_tensors());
        if (!s.ok()) return s;
      }
      break;
    case AttributeKind::kTypeProtos:
      for (const Type& t : a.type_protos) ExportType(t, out->add_type_protos());
      break;
    case AttributeKind::kUndefined:
      break;
  }
  return absl::OkStatus();
}

absl::Status Exporter::ExportFunction(const Function& f, onnx::FunctionProto* out) {
  const ExplicitDefaults& d = f.explicit_defaults();
  MaybeSet(f.name(), d, field::kFunctionName, [&](const std::string& s) { out->set_name(s); });
  MaybeSet(f.domain(), d, field::kFunctionDomain,
           [&](const std::string& s) { out->set_domain(s); });
  MaybeSet(f.overload(), d, field::kFunctionOverload,
           [&](const std::string& s) { out->set_overload(s); });
  MaybeSet(f.doc_string(), d, field::kFunctionDocString,
           [&](const std::string& s) { out->set_doc_string(s); });
  const Graph& body = f.body();
  for (const Value* v : body.inputs()) out->add_input(v->name());
  for (const Value* v : body.outputs()) out->add_output(v->name());
  for (const std::string& name : f.attribute_names()) out->add_attribute(name);
  for (const Attribute& a : f.attribute_defaults()) {
    if (absl::Status s = ExportAttribute(a, out->add_attribute_proto()); !s.ok()) return s;
  }
  if (absl::Status s = ExportNodes(body, out->mutable_node()); !s.ok()) return s;
  ExportOpsets(f.opset_imports(), out->mutable_opset_import());
  ExportValueInfoList(body, out->mutable_value_info());
  ExportPairs(f.metadata_props(), out->mutable_metadata_props());
  return absl::OkStatus();
}

void VisitAttribute(const Attribute& a, const std::function<void(const Tensor&)>& fn);

void VisitGraph(const Graph& g, const std::function<void(const Tensor&)>& fn) {
  for (const Value* v : g.initializers()) fn(*v->initializer());
  for (const Value* v : g.sparse_initializers()) {
    fn(v->sparse_initializer()->values);
    fn(v->sparse_initializer()->indices);
  }
  for (const Node* n : g.nodes()) {
    for (const Attribute& a : n->attributes()) VisitAttribute(a, fn);
  }
}

void VisitAttribute(const Attribute& a, const std::function<void(const Tensor&)>& fn) {
  if (a.is_reference()) return;
  switch (a.kind()) {
    case AttributeKind::kTensor:
      fn(a.t);
      break;
    case AttributeKind::kTensors:
      for (const Tensor& t : a.tensors) fn(t);
      break;
    case AttributeKind::kSparseTensor:
      fn(a.sparse_tensor->values);
      fn(a.sparse_tensor->indices);
      break;
    case AttributeKind::kSparseTensors:
      for (const SparseTensor& t : a.sparse_tensors) {
        fn(t.values);
        fn(t.indices);
      }
      break;
    case AttributeKind::kGraph:
      if (a.g) VisitGraph(*a.g, fn);
      break;
    case AttributeKind::kGraphs:
      for (const auto& g : a.graphs) VisitGraph(*g, fn);
      break;
    default:
      break;
  }
}

}  // namespace

absl::Status ExportModel(const Model& model, const ExportOptions& options, onnx::ModelProto* out) {
  return Exporter(options).ExportModel(model, out);
}

absl::Status ExportFunction(const Function& f, const ExportOptions& options,
                            onnx::FunctionProto* out) {
  return Exporter(options).ExportFunction(f, out);
}

std::vector<ValueInfoEntry> ValueInfoInOrder(const Graph& graph) {
  // Values of this graph listed in value_info, and entries naming no value, in their recorded
  // order.
  std::vector<std::pair<uint64_t, const Value*>> values;
  absl::flat_hash_set<const Value*> seen;
  auto consider = [&](const Value* v) {
    if (v->in_value_info() && seen.insert(v).second) values.emplace_back(v->value_info_order(), v);
  };
  for (const Value* v : graph.inputs()) consider(v);
  for (const Value* v : graph.initializers()) consider(v);
  for (const Value* v : graph.sparse_initializers()) consider(v);
  for (const Node* n : graph.nodes()) {
    for (size_t i = 0; i < n->num_outputs(); ++i) consider(n->output(i));
  }
  std::vector<std::pair<uint64_t, const DanglingValueInfo*>> dangling;
  for (const DanglingValueInfo& d : graph.dangling_value_info()) dangling.emplace_back(d.order, &d);
  std::sort(values.begin(), values.end());
  std::sort(dangling.begin(), dangling.end());
  std::vector<ValueInfoEntry> entries;
  entries.reserve(values.size() + dangling.size());
  size_t i = 0, j = 0;
  while (i < values.size() || j < dangling.size()) {
    if (j == dangling.size() || (i < values.size() && values[i].first < dangling[j].first)) {
      entries.push_back({values[i++].second, nullptr});
    } else {
      entries.push_back({nullptr, dangling[j++].second});
    }
  }
  return entries;
}

void ForEachTensor(const Model& model, const std::function<void(const Tensor&)>& fn) {
  VisitGraph(model.graph(), fn);
  for (const auto& f : model.functions()) {
    VisitGraph(f->body(), fn);
    for (const Attribute& a : f->attribute_defaults()) VisitAttribute(a, fn);
  }
}

}  // namespace onnx_opt::ir::io
