#include "ir/io/proto_import.h"

#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/inlined_vector.h"
#include "absl/functional/function_ref.h"
#include "absl/strings/str_cat.h"
#include "glog/logging.h"
#include "ir/io/external_data.h"
#include "ir/io/limits.h"
#include "ir/io/proto_parse.h"
#include "ir/io/tensor_proto.h"
#include "ir/io/type_proto.h"

namespace onnx_opt::ir::io {
namespace {

using google::protobuf::RepeatedPtrField;

// Field numbers, for ExplicitDefaults (see explicit_defaults.h).
namespace field {
constexpr int kModelIrVersion = 1, kModelProducerName = 2, kModelProducerVersion = 3,
              kModelDomain = 4, kModelDocString = 6;
constexpr int kOpsetDomain = 1, kOpsetVersion = 2;
constexpr int kGraphName = 2, kGraphDocString = 10;
constexpr int kNodeName = 3, kNodeOpType = 4, kNodeDocString = 6, kNodeDomain = 7,
              kNodeOverload = 8;
constexpr int kFunctionName = 1, kFunctionDocString = 8, kFunctionDomain = 10,
              kFunctionOverload = 13;
constexpr int kAttributeType = 20;
}  // namespace field

absl::Status Invalid(const std::string& msg) { return absl::InvalidArgumentError(msg); }

StringPairs ImportPairs(const RepeatedPtrField<onnx::StringStringEntryProto>& entries) {
  StringPairs out;
  out.reserve(entries.size());
  for (const auto& e : entries) out.emplace_back(e.key(), e.value());
  return out;
}

std::vector<OpsetImport> ImportOpsets(const RepeatedPtrField<onnx::OperatorSetIdProto>& protos) {
  std::vector<OpsetImport> out;
  for (const auto& p : protos) {
    OpsetImport imp{p.domain(), p.version()};
    if (p.has_domain() && p.domain().empty()) imp.explicit_defaults.set(field::kOpsetDomain);
    if (p.has_version() && p.version() == 0) imp.explicit_defaults.set(field::kOpsetVersion);
    out.push_back(std::move(imp));
  }
  return out;
}

// Who defines a value, for duplicate-name messages.
std::string Definer(const Value* v) {
  if (v->producer() != nullptr) return v->producer()->Describe();
  if (v->is_graph_input()) return "a graph input";
  if (v->sparse_initializer() != nullptr) return "a sparse initializer";
  return "an initializer";
}

// A ValueInfoProto's description without its name, to tell whether two entries say the same.
std::string DescriptionKey(const onnx::ValueInfoProto& p) {
  onnx::ValueInfoProto copy = p;
  copy.clear_name();
  return copy.SerializeAsString();
}

std::string GraphWhere(const std::string& name, const std::string& fallback) {
  return name.empty() ? fallback : absl::StrCat("graph '", name, "'");
}

class Importer {
 public:
  explicit Importer(ExternalDataReader* external) : external_(external) {}

  // `streamed`, when given, is the main graph (and `proto` has none).
  absl::StatusOr<std::unique_ptr<Model>> ImportModel(onnx::ModelProto& proto,
                                                     StreamedGraph* streamed);

 private:
  struct Scope {
    const Scope* parent = nullptr;
    // Keyed by views of the values' own names (values are not renamed while a model is imported).
    absl::flat_hash_map<absl::string_view, Value*> values;

    Value* Find(const std::string& name) const {
      for (const Scope* s = this; s != nullptr; s = s->parent) {
        if (auto it = s->values.find(name); it != s->values.end()) return it->second;
      }
      return nullptr;
    }
  };

  // `role` names what `v` is, for an error; it is only called on one (as are the `where`
  // functions below: spelling every node's location up front was a tenth of a load).
  absl::Status Define(Scope& scope, Value* v, const std::string& where,
                      absl::FunctionRef<std::string()> role);
  absl::Status Define(Scope& scope, Value* v, const std::string& where, const char* role) {
    return Define(scope, v, where, [role] { return std::string(role); });
  }
  void Describe(const onnx::ValueInfoProto& p, Value* v);
  // `streamed`, when given, holds the nodes and initializers (`proto` is its shell).
  absl::Status ImportGraph(onnx::GraphProto& proto, StreamedGraph* streamed, Graph& graph,
                           const Scope* parent, int depth, const std::string& where);
  absl::Status ImportInitializer(onnx::TensorProto& init, Graph& graph, Scope& scope,
                                 const std::string& where);
  absl::Status ImportNodes(RepeatedPtrField<onnx::NodeProto>& protos, Graph& graph, Scope& scope,
                           int depth, const std::string& where);
  absl::Status ImportStreamedNodes(StreamedGraph& streamed, Graph& graph, Scope& scope, int depth,
                                   const std::string& where);
  // The three steps of a node's import: the node and its outputs; its attributes, once every name
  // of its graph is defined (a subgraph may use any); its inputs, likewise.
  absl::StatusOr<Node*> CreateNode(onnx::NodeProto& p, Graph& graph, Scope& scope,
                                   const std::string& where);
  absl::Status ImportAttributes(Node* n, onnx::NodeProto& p, const Scope& scope, int depth,
                                const std::string& where);
  absl::Status ImportInputs(Node* n, const onnx::NodeProto& p, const Scope& scope,
                            const std::string& where);
  absl::StatusOr<Attribute> ImportAttribute(onnx::AttributeProto& proto, const Scope* scope,
                                            int depth, absl::FunctionRef<std::string()> where);
  absl::StatusOr<std::unique_ptr<Graph>> ImportSubgraph(onnx::GraphProto& proto, const Scope* scope,
                                                        int depth, const std::string& fallback);
  void ImportValueInfo(const RepeatedPtrField<onnx::ValueInfoProto>& protos, Graph& graph,
                       const Scope& scope);
  absl::StatusOr<std::unique_ptr<Function>> ImportFunction(onnx::FunctionProto& proto);

  ExternalDataReader* external_;
  // The ValueInfoProto (without name) each described value was given, so a second entry that says
  // something else is kept separately instead of being lost.
  absl::flat_hash_map<const Value*, std::string> described_;
};

absl::Status Importer::Define(Scope& scope, Value* v, const std::string& where,
                              absl::FunctionRef<std::string()> role) {
  if (v->name().empty()) return Invalid(absl::StrCat(where, ": ", role(), " has no name"));
  auto [it, inserted] = scope.values.emplace(v->name(), v);
  if (!inserted) {
    return Invalid(absl::StrCat(where, ": ", role(), " '", v->name(), "' is already defined by ",
                                Definer(it->second)));
  }
  return absl::OkStatus();
}

void Importer::Describe(const onnx::ValueInfoProto& p, Value* v) {
  v->set_type(p.has_type() ? ImportType(p.type()) : Type());
  v->set_doc_string(p.doc_string());
  v->set_metadata_props(ImportPairs(p.metadata_props()));
  described_[v] = DescriptionKey(p);
}

absl::StatusOr<std::unique_ptr<Graph>> Importer::ImportSubgraph(onnx::GraphProto& proto,
                                                                const Scope* scope, int depth,
                                                                const std::string& fallback) {
  auto graph = std::make_unique<Graph>();
  absl::Status s =
      ImportGraph(proto, nullptr, *graph, scope, depth, GraphWhere(proto.name(), fallback));
  if (!s.ok()) return s;
  return graph;
}

absl::Status Importer::ImportGraph(onnx::GraphProto& proto, StreamedGraph* streamed, Graph& graph,
                                   const Scope* parent, int depth, const std::string& where) {
  if (depth > kMaxGraphDepth) {
    return Invalid(
        absl::StrCat(where, ": subgraphs are nested more than ", kMaxGraphDepth, " levels deep"));
  }
  graph.set_name(proto.name());
  if (proto.has_name() && proto.name().empty())
    graph.mutable_explicit_defaults().set(field::kGraphName);
  graph.set_doc_string(proto.doc_string());
  if (proto.has_doc_string() && proto.doc_string().empty()) {
    graph.mutable_explicit_defaults().set(field::kGraphDocString);
  }
  graph.mutable_metadata_props() = ImportPairs(proto.metadata_props());

  Scope scope{parent, {}};
  // Every name this graph defines, about: growing the map step by step rehashed it a dozen times.
  const size_t initializers =
      streamed != nullptr ? streamed->num_initializers() : proto.initializer_size();
  const size_t nodes = streamed != nullptr ? streamed->num_nodes() : proto.node_size();
  scope.values.reserve(static_cast<size_t>(proto.input_size() + proto.sparse_initializer_size()) +
                       initializers + nodes);
  for (const auto& in : proto.input()) {
    Value* v = graph.AddInput(in.name());
    Describe(in, v);
    if (absl::Status s = Define(scope, v, where, "graph input"); !s.ok()) return s;
  }
  if (streamed != nullptr) {
    onnx::TensorProto init;  // reused: its memory serves every initializer in turn
    for (size_t i = 0; i < initializers; ++i) {
      if (absl::Status s = streamed->ParseInitializer(i, &init); !s.ok()) return s;
      if (absl::Status s = ImportInitializer(init, graph, scope, where); !s.ok()) return s;
    }
  } else {
    for (auto& init : *proto.mutable_initializer()) {
      if (absl::Status s = ImportInitializer(init, graph, scope, where); !s.ok()) return s;
    }
  }
  for (auto& sparse : *proto.mutable_sparse_initializer()) {
    const std::string name = sparse.values().name();
    absl::StatusOr<SparseTensor> tensor = ImportSparseTensor(sparse, external_, [&] {
      return absl::StrCat(where, ": sparse initializer '", name, "'");
    });
    if (!tensor.ok()) return tensor.status();
    if (auto it = scope.values.find(name);
        it != scope.values.end() && it->second->is_graph_input()) {
      return absl::UnimplementedError(
          absl::StrCat(where, ": sparse initializer '", name,
                       "' is also a graph input, which is not supported"));
    }
    Value* v = graph.AddSparseInitializer(name, *std::move(tensor));
    if (absl::Status s = Define(scope, v, where, "sparse initializer"); !s.ok()) return s;
  }

  if (absl::Status s = streamed != nullptr
                           ? ImportStreamedNodes(*streamed, graph, scope, depth, where)
                           : ImportNodes(*proto.mutable_node(), graph, scope, depth, where);
      !s.ok()) {
    return s;
  }

  // value_info first: it is where intermediate values get their types.
  ImportValueInfo(proto.value_info(), graph, scope);
  for (int i = 0; i < proto.output_size(); ++i) {
    const onnx::ValueInfoProto& out = proto.output(i);
    Value* v = out.name().empty() ? nullptr : scope.Find(out.name());
    if (v == nullptr) {
      return Invalid(out.name().empty()
                         ? absl::StrCat(where, ": graph output #", i, " has no name")
                         : absl::StrCat(where, ": graph output '", out.name(), "' is not defined"));
    }
    graph.AddOutput(v);
    auto d = described_.find(v);
    if (d == described_.end() && v->graph() == &graph) {
      Describe(out, v);
    } else if (d == described_.end() || d->second != DescriptionKey(out)) {
      // An outer value, or a second description that differs: the output keeps its own.
      graph.set_output_info(i, OutputInfo{out.has_type() ? ImportType(out.type()) : Type(),
                                          out.doc_string(), ImportPairs(out.metadata_props())});
    }
  }
  for (const auto& a : proto.quantization_annotation()) {
    graph.mutable_quantization_annotation().push_back(
        TensorAnnotation{a.tensor_name(), ImportPairs(a.quant_parameter_tensor_names())});
  }
  return absl::OkStatus();
}

void Importer::ImportValueInfo(const RepeatedPtrField<onnx::ValueInfoProto>& protos, Graph& graph,
                               const Scope& scope) {
  for (const auto& vi : protos) {
    // Only values of this graph; an entry about anything else is kept as it is, in its place.
    auto it = scope.values.find(vi.name());
    Value* v = it == scope.values.end() ? nullptr : it->second;
    if (v != nullptr && !v->in_value_info()) {
      auto d = described_.find(v);
      if (d == described_.end() || d->second == DescriptionKey(vi)) {
        if (d == described_.end()) Describe(vi, v);
        graph.AddValueInfo(v);
        continue;
      }
    }
    graph.mutable_dangling_value_info().push_back(DanglingValueInfo{
        vi.name(), vi.has_type() ? ImportType(vi.type()) : Type(), vi.doc_string(),
        ImportPairs(vi.metadata_props()), graph.NextValueInfoOrder()});
  }
}

absl::Status Importer::ImportInitializer(onnx::TensorProto& init, Graph& graph, Scope& scope,
                                         const std::string& where) {
  const std::string& name = init.name();  // ImportTensor leaves the name alone
  absl::StatusOr<Tensor> tensor = ImportTensor(
      init, external_, [&] { return absl::StrCat(where, ": initializer '", name, "'"); });
  if (!tensor.ok()) return tensor.status();
  if (name.empty()) return Invalid(absl::StrCat(where, ": an initializer has no name"));
  auto it = scope.values.find(name);
  if (it != scope.values.end() && it->second->is_graph_input() && !it->second->is_initializer()) {
    // A graph input with a default (IR < 4 lists every initializer as an input too).
    graph.SetInitializer(it->second, *std::move(tensor));
    return absl::OkStatus();
  }
  if (it != scope.values.end()) {
    return Invalid(absl::StrCat(where, ": initializer '", name, "' is already defined by ",
                                Definer(it->second)));
  }
  Value* v = graph.AddInitializer(*std::move(tensor));
  scope.values.emplace(v->name(), v);
  return absl::OkStatus();
}

absl::StatusOr<Node*> Importer::CreateNode(onnx::NodeProto& p, Graph& graph, Scope& scope,
                                           const std::string& where) {
  Node* n = graph.Append(Node::Create(
      p.domain(), p.op_type(), {}, std::vector<std::string>(p.output().begin(), p.output().end())));
  ExplicitDefaults& defaults = n->mutable_explicit_defaults();
  if (p.has_domain() && p.domain().empty()) defaults.set(field::kNodeDomain);
  if (p.has_op_type() && p.op_type().empty()) defaults.set(field::kNodeOpType);
  if (p.has_name() && p.name().empty()) defaults.set(field::kNodeName);
  if (p.has_doc_string() && p.doc_string().empty()) defaults.set(field::kNodeDocString);
  if (p.has_overload() && p.overload().empty()) defaults.set(field::kNodeOverload);
  n->set_name(p.name());
  n->set_doc_string(p.doc_string());
  n->set_overload(p.overload());
  n->set_metadata_props(ImportPairs(p.metadata_props()));
  for (const auto& dc : p.device_configurations()) {
    n->mutable_device_configurations().push_back(dc.SerializeAsString());
  }
  for (size_t i = 0; i < n->num_outputs(); ++i) {
    Value* out = n->output(i);
    if (out->name().empty()) continue;  // an omitted optional output
    absl::Status s =
        Define(scope, out, where, [n] { return absl::StrCat(n->Describe(), " output"); });
    if (!s.ok()) return s;
  }
  return n;
}

absl::Status Importer::ImportAttributes(Node* n, onnx::NodeProto& p, const Scope& scope, int depth,
                                        const std::string& where) {
  auto node_where = [&where, n] { return absl::StrCat(where, ": ", n->Describe()); };
  n->ReserveAttributes(static_cast<size_t>(p.attribute_size()));
  for (onnx::AttributeProto& ap : *p.mutable_attribute()) {
    if (n->FindAttribute(ap.name()) != nullptr) {
      return Invalid(absl::StrCat(node_where(), " has two attributes named '", ap.name(), "'"));
    }
    absl::StatusOr<Attribute> attr = ImportAttribute(ap, &scope, depth, node_where);
    if (!attr.ok()) return attr.status();
    n->SetAttribute(*std::move(attr));
  }
  return absl::OkStatus();
}

absl::Status Importer::ImportInputs(Node* n, const onnx::NodeProto& p, const Scope& scope,
                                    const std::string& where) {
  for (const std::string& name : p.input()) {
    if (name.empty()) {
      n->AddInput(nullptr);  // an omitted optional input
      continue;
    }
    Value* v = scope.Find(name);
    if (v == nullptr) {
      return Invalid(
          absl::StrCat(where, ": ", n->Describe(), " input '", name, "' is not defined"));
    }
    n->AddInput(v);
  }
  return absl::OkStatus();
}

absl::Status Importer::ImportNodes(RepeatedPtrField<onnx::NodeProto>& protos, Graph& graph,
                                   Scope& scope, int depth, const std::string& where) {
  std::vector<std::pair<Node*, onnx::NodeProto*>> nodes;
  nodes.reserve(protos.size());
  for (onnx::NodeProto& p : protos) {
    absl::StatusOr<Node*> n = CreateNode(p, graph, scope, where);
    if (!n.ok()) return n.status();
    nodes.emplace_back(*n, &p);
  }
  for (auto& [n, p] : nodes) {
    if (absl::Status s = ImportAttributes(n, *p, scope, depth, where); !s.ok()) return s;
  }
  for (auto& [n, p] : nodes) {
    if (absl::Status s = ImportInputs(n, *p, scope, where); !s.ok()) return s;
  }
  return absl::OkStatus();
}

// A node with a subgraph attribute (If, Loop, Scan): its body may use any name of the graph around.
bool HasGraphAttribute(const onnx::NodeProto& p) {
  for (const onnx::AttributeProto& a : p.attribute()) {
    if (a.has_g() || a.graphs_size() > 0) return true;
  }
  return false;
}

absl::Status Importer::ImportStreamedNodes(StreamedGraph& streamed, Graph& graph, Scope& scope,
                                           int depth, const std::string& where) {
  // The main graph's scope has no parent, so a name found now is the one it will be when every node
  // is defined (a second definition is an error). Most models list their nodes in order: a node is
  // then whole after one parse. The rest (a subgraph attribute, an input defined further down) are
  // parsed again at the end for what is left.
  CHECK(scope.parent == nullptr);
  struct Later {
    size_t index;
    Node* node;
    bool attributes;
    bool inputs;
  };
  std::vector<Later> later;
  onnx::NodeProto p;  // reused: its memory serves every node in turn
  for (size_t i = 0; i < streamed.num_nodes(); ++i) {
    if (absl::Status s = streamed.ParseNode(i, &p); !s.ok()) return s;
    absl::StatusOr<Node*> n = CreateNode(p, graph, scope, where);
    if (!n.ok()) return n.status();
    const bool attributes_later = HasGraphAttribute(p);
    if (!attributes_later) {
      if (absl::Status s = ImportAttributes(*n, p, scope, depth, where); !s.ok()) return s;
    }
    bool inputs_defined = true;
    for (const std::string& name : p.input())
      inputs_defined &= name.empty() || scope.Find(name) != nullptr;
    if (inputs_defined) {
      if (absl::Status s = ImportInputs(*n, p, scope, where); !s.ok()) return s;
    }
    if (attributes_later || !inputs_defined)
      later.push_back(Later{i, *n, attributes_later, !inputs_defined});
  }
  for (const Later& l : later) {
    if (!l.attributes) continue;
    if (absl::Status s = streamed.ParseNode(l.index, &p); !s.ok()) return s;
    if (absl::Status s = ImportAttributes(l.node, p, scope, depth, where); !s.ok()) return s;
  }
  for (const Later& l : later) {
    if (!l.inputs) continue;
    if (absl::Status s = streamed.ParseNode(l.index, &p); !s.ok()) return s;
    if (absl::Status s = ImportInputs(l.node, p, scope, where); !s.ok()) return s;
  }
  return absl::OkStatus();
}

// The value fields an AttributeProto sets, each with the attribute type it stands for. (A repeated
// field counts when it has entries; an empty list cannot be told from an unset one.)
using ValueFields = absl::InlinedVector<std::pair<const char*, AttributeKind>, 2>;
ValueFields ValueFieldsSet(const onnx::AttributeProto& p) {
  ValueFields set;
  if (p.has_f()) set.emplace_back("f", AttributeKind::kFloat);
  if (p.has_i()) set.emplace_back("i", AttributeKind::kInt);
  if (p.has_s()) set.emplace_back("s", AttributeKind::kString);
  if (p.has_t()) set.emplace_back("t", AttributeKind::kTensor);
  if (p.has_g()) set.emplace_back("g", AttributeKind::kGraph);
  if (p.has_sparse_tensor()) set.emplace_back("sparse_tensor", AttributeKind::kSparseTensor);
  if (p.has_tp()) set.emplace_back("tp", AttributeKind::kTypeProto);
  if (p.floats_size() > 0) set.emplace_back("floats", AttributeKind::kFloats);
  if (p.ints_size() > 0) set.emplace_back("ints", AttributeKind::kInts);
  if (p.strings_size() > 0) set.emplace_back("strings", AttributeKind::kStrings);
  if (p.tensors_size() > 0) set.emplace_back("tensors", AttributeKind::kTensors);
  if (p.graphs_size() > 0) set.emplace_back("graphs", AttributeKind::kGraphs);
  if (p.sparse_tensors_size() > 0)
    set.emplace_back("sparse_tensors", AttributeKind::kSparseTensors);
  if (p.type_protos_size() > 0) set.emplace_back("type_protos", AttributeKind::kTypeProtos);
  return set;
}

absl::StatusOr<Attribute> Importer::ImportAttribute(onnx::AttributeProto& p, const Scope* scope,
                                                    int depth,
                                                    absl::FunctionRef<std::string()> where) {
  auto attr_where = [&] { return absl::StrCat(where(), ": attribute '", p.name(), "'"); };
  AttributeKind kind = static_cast<AttributeKind>(p.type());
  // IR.md: "An attribute MUST have only one of the value-carrying properties", the one its type
  // names, and a reference (ref_attr_name) carries none. ir::Attribute holds one value, so anything
  // else would be dropped here without a word; it is refused instead.
  const ValueFields fields = ValueFieldsSet(p);
  if (fields.size() > 1) {
    std::string names;
    for (const auto& [name, field_kind] : fields)
      absl::StrAppend(&names, names.empty() ? "" : ", ", name);
    return Invalid(absl::StrCat(attr_where(), " carries ", fields.size(), " values (fields ", names,
                                "); an attribute holds exactly one"));
  }
  if (!fields.empty() && !p.ref_attr_name().empty()) {
    return Invalid(absl::StrCat(attr_where(), " refers to '", p.ref_attr_name(),
                                "' (ref_attr_name) but also carries a value (field ",
                                fields[0].first, ")"));
  }
  if (!fields.empty() && kind != AttributeKind::kUndefined && fields[0].second != kind) {
    return Invalid(absl::StrCat(attr_where(), " has type ", AttributeKindName(kind),
                                " but its value is in field '", fields[0].first, "'"));
  }
  if (!p.has_type()) {
    // An enum number this proto does not know lands among the unknown fields.
    const auto& unknown = p.GetReflection()->GetUnknownFields(p);
    for (int i = 0; i < unknown.field_count(); ++i) {
      // Only a varint is an enum number: field 20 with another wire type also lands here, and
      // varint() on it asserts (fuzzer: regressions/load_model_fuzzer/attribute_type_not_varint).
      if (unknown.field(i).number() == field::kAttributeType &&
          unknown.field(i).type() == google::protobuf::UnknownField::TYPE_VARINT) {
        return Invalid(absl::StrCat(attr_where(), " has unknown type ", unknown.field(i).varint()));
      }
    }
  }
  if (kind == AttributeKind::kUndefined && p.ref_attr_name().empty()) {
    // IR 1 files have no type: infer it from the field that is set.
    if (fields.empty()) return Invalid(absl::StrCat(attr_where(), " has no type"));
    kind = fields[0].second;
  }
  Attribute a(p.name(), kind);
  a.set_doc_string(p.doc_string());
  if (!p.ref_attr_name().empty()) {
    a.set_ref_attr_name(p.ref_attr_name());
    return a;
  }
  auto graph_fallback = [&] { return absl::StrCat("subgraph '", p.name(), "' of ", where()); };
  switch (kind) {
    case AttributeKind::kFloat:
      a.f = p.f();
      break;
    case AttributeKind::kInt:
      a.i = p.i();
      break;
    case AttributeKind::kString:
      a.s = p.s();
      break;
    case AttributeKind::kTensor: {
      absl::StatusOr<Tensor> t = ImportTensor(*p.mutable_t(), external_, attr_where);
      if (!t.ok()) return t.status();
      a.t = *std::move(t);
      break;
    }
    case AttributeKind::kGraph: {
      auto g = ImportSubgraph(*p.mutable_g(), scope, depth + 1, graph_fallback());
      if (!g.ok()) return g.status();
      a.g = *std::move(g);
      break;
    }
    case AttributeKind::kSparseTensor: {
      auto t = ImportSparseTensor(*p.mutable_sparse_tensor(), external_, attr_where);
      if (!t.ok()) return t.status();
      a.sparse_tensor = *std::move(t);
      break;
    }
    case AttributeKind::kTypeProto:
      a.tp = ImportType(p.tp());
      break;
    case AttributeKind::kFloats:
      a.floats.assign(p.floats().begin(), p.floats().end());
      break;
    case AttributeKind::kInts:
      a.ints.assign(p.ints().begin(), p.ints().end());
      break;
    case AttributeKind::kStrings:
      a.strings.assign(p.strings().begin(), p.strings().end());
      break;
    case AttributeKind::kTensors:
      for (auto& tp : *p.mutable_tensors()) {
        absl::StatusOr<Tensor> t = ImportTensor(tp, external_, attr_where);
        if (!t.ok()) return t.status();
        a.tensors.push_back(*std::move(t));
      }
      break;
    case AttributeKind::kGraphs:
      for (auto& gp : *p.mutable_graphs()) {
        auto g = ImportSubgraph(gp, scope, depth + 1, graph_fallback());
        if (!g.ok()) return g.status();
        a.graphs.push_back(*std::move(g));
      }
      break;
    case AttributeKind::kSparseTensors:
      for (auto& sp : *p.mutable_sparse_tensors()) {
        auto t = ImportSparseTensor(sp, external_, attr_where);
        if (!t.ok()) return t.status();
        a.sparse_tensors.push_back(*std::move(t));
      }
      break;
    case AttributeKind::kTypeProtos:
      for (const auto& tp : p.type_protos()) a.type_protos.push_back(ImportType(tp));
      break;
    case AttributeKind::kUndefined:
      break;
  }
  return a;
}

absl::StatusOr<std::unique_ptr<Function>> Importer::ImportFunction(onnx::FunctionProto& p) {
  auto f = std::make_unique<Function>(p.domain(), p.name(), p.overload());
  ExplicitDefaults& defaults = f->mutable_explicit_defaults();
  if (p.has_name() && p.name().empty()) defaults.set(field::kFunctionName);
  if (p.has_doc_string() && p.doc_string().empty()) defaults.set(field::kFunctionDocString);
  if (p.has_domain() && p.domain().empty()) defaults.set(field::kFunctionDomain);
  if (p.has_overload() && p.overload().empty()) defaults.set(field::kFunctionOverload);
  f->set_doc_string(p.doc_string());
  f->mutable_metadata_props() = ImportPairs(p.metadata_props());
  f->mutable_opset_imports() = ImportOpsets(p.opset_import());
  f->mutable_attribute_names().assign(p.attribute().begin(), p.attribute().end());
  const std::string where = absl::StrCat("function '", f->QualifiedName(), "'");

  // A function body sees only its own names.
  Graph& body = f->body();
  Scope scope;
  for (const std::string& name : p.input()) {
    if (absl::Status s = Define(scope, body.AddInput(name), where, "function input"); !s.ok())
      return s;
  }
  const Scope no_values;
  for (onnx::AttributeProto& ap : *p.mutable_attribute_proto()) {
    absl::StatusOr<Attribute> attr = ImportAttribute(ap, &no_values, 0, [&where] { return where; });
    if (!attr.ok()) return attr.status();
    f->mutable_attribute_defaults().push_back(*std::move(attr));
  }
  if (absl::Status s = ImportNodes(*p.mutable_node(), body, scope, 0, where); !s.ok()) return s;
  for (const std::string& name : p.output()) {
    Value* v = name.empty() ? nullptr : scope.Find(name);
    if (v == nullptr) return Invalid(absl::StrCat(where, ": output '", name, "' is not defined"));
    body.AddOutput(v);
  }
  ImportValueInfo(p.value_info(), body, scope);
  return f;
}

absl::StatusOr<std::unique_ptr<Model>> Importer::ImportModel(onnx::ModelProto& p,
                                                             StreamedGraph* streamed) {
  auto model = std::make_unique<Model>();
  ExplicitDefaults& defaults = model->mutable_explicit_defaults();
  if (p.has_ir_version() && p.ir_version() == 0) defaults.set(field::kModelIrVersion);
  if (p.has_producer_name() && p.producer_name().empty()) defaults.set(field::kModelProducerName);
  if (p.has_producer_version() && p.producer_version().empty()) {
    defaults.set(field::kModelProducerVersion);
  }
  if (p.has_domain() && p.domain().empty()) defaults.set(field::kModelDomain);
  if (p.has_doc_string() && p.doc_string().empty()) defaults.set(field::kModelDocString);
  model->set_ir_version(p.ir_version());
  model->mutable_opset_imports() = ImportOpsets(p.opset_import());
  model->set_producer_name(p.producer_name());
  model->set_producer_version(p.producer_version());
  model->set_domain(p.domain());
  if (p.has_model_version()) model->set_model_version(p.model_version());
  model->set_doc_string(p.doc_string());
  model->mutable_metadata_props() = ImportPairs(p.metadata_props());

  if (!p.has_graph() && streamed == nullptr) return Invalid("the model has no graph");
  if (p.ir_version() >= 3 && p.opset_import_size() == 0) {
    return Invalid(
        absl::StrCat("the model (IR version ", p.ir_version(), ") imports no operator set"));
  }
  onnx::GraphProto& graph = streamed != nullptr ? streamed->shell() : *p.mutable_graph();
  if (absl::Status s = ImportGraph(graph, streamed, model->graph(), nullptr, 0,
                                   GraphWhere(graph.name(), "main graph"));
      !s.ok()) {
    return s;
  }
  for (onnx::FunctionProto& fp : *p.mutable_functions()) {
    absl::StatusOr<std::unique_ptr<Function>> f = ImportFunction(fp);
    if (!f.ok()) return f.status();
    model->mutable_functions().push_back(*std::move(f));
  }
  // Passed through untouched (serialized).
  for (const auto& ti : p.training_info())
    model->mutable_training_info().push_back(ti.SerializeAsString());
  for (const auto& c : p.configuration())
    model->mutable_configuration().push_back(c.SerializeAsString());
  return model;
}

}  // namespace

namespace {

absl::StatusOr<std::unique_ptr<Model>> Import(onnx::ModelProto& proto, StreamedGraph* graph,
                                              const ImportOptions& options) {
  ExternalDataReader external(options.external_data_dir, options.external_data_second_dir);
  if (options.spliced_file != nullptr)
    external.SetSplicedPayloads(options.spliced_file, options.spliced_payloads);
  absl::StatusOr<std::unique_ptr<Model>> model = Importer(&external).ImportModel(proto, graph);
  if (!model.ok()) return OneLine(model.status());
  return model;
}

}  // namespace

absl::StatusOr<std::unique_ptr<Model>> ImportModel(onnx::ModelProto& proto,
                                                   const ImportOptions& options) {
  return Import(proto, nullptr, options);
}

absl::StatusOr<std::unique_ptr<Model>> ImportModel(onnx::ModelProto& proto, StreamedGraph& graph,
                                                   const ImportOptions& options) {
  return Import(proto, &graph, options);
}

}  // namespace onnx_opt::ir::io
