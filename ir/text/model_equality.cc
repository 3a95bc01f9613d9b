#include "ir/text/model_equality.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/attributes.h"
#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "ir/attribute.h"
#include "ir/function.h"
#include "ir/status_macros.h"
#include "ir/text/printer.h"

namespace onnx_opt::ir::text {
namespace {

std::string Quoted(const std::string& s) { return absl::StrCat("'", s, "'"); }

std::string PairsText(const StringPairs& pairs) {
  std::vector<std::string> items;
  for (const auto& [k, v] : pairs) items.push_back(absl::StrCat(k, "=", v));
  return absl::StrCat("{", absl::StrJoin(items, ", "), "}");
}

std::string NodeLabel(const Node& n, size_t index) {
  std::string label = absl::StrCat("node #", index, " (", n.QualifiedOpType(), ")");
  if (!n.name().empty()) absl::StrAppend(&label, " '", n.name(), "'");
  return label;
}

class Comparer {
 public:
  explicit Comparer(const EqualityOptions& options) : opt_(options) {}

  absl::Status Models(const Model& a, const Model& b) {
    {
      Segment s(this, "model");
      RETURN_IF_ERROR(Field("ir_version", a.ir_version(), b.ir_version()));
      if (a.opset_imports() != b.opset_imports()) {
        return Differ("opset_import", OpsetsText(a.opset_imports()), OpsetsText(b.opset_imports()));
      }
      RETURN_IF_ERROR(Str("producer_name", a.producer_name(), b.producer_name()));
      RETURN_IF_ERROR(Str("producer_version", a.producer_version(), b.producer_version()));
      RETURN_IF_ERROR(Str("domain", a.domain(), b.domain()));
      if (a.model_version() != b.model_version()) {
        return Differ("model_version", OptText(a.model_version()), OptText(b.model_version()));
      }
      RETURN_IF_ERROR(Str("doc_string", a.doc_string(), b.doc_string()));
      if (a.metadata_props() != b.metadata_props()) {
        return Differ("metadata_props", PairsText(a.metadata_props()),
                      PairsText(b.metadata_props()));
      }
      if (opt_.compare_non_text_fields) {
        if (a.training_info() != b.training_info()) return Differ("training_info", "", "");
        if (a.configuration() != b.configuration()) return Differ("configuration", "", "");
      }
      if (a.functions().size() != b.functions().size()) {
        return Differ("number of functions", absl::StrCat(a.functions().size()),
                      absl::StrCat(b.functions().size()));
      }
    }
    RETURN_IF_ERROR(Graphs(a.graph(), b.graph()));
    for (size_t i = 0; i < a.functions().size(); ++i) {
      RETURN_IF_ERROR(Functions(*a.functions()[i], *b.functions()[i]));
    }
    return absl::OkStatus();
  }

  // Maps the values of `a` to those of `b` first (so that uses of values defined later, or in an
  // enclosing graph, can be checked), then compares.
  absl::Status Graphs(const Graph& a, const Graph& b) {
    RETURN_IF_ERROR(Map(a, b));
    return CompareGraph(a, b);
  }

 private:
  // One step of the path to a difference ("graph 'g'", "node #3 (Add)", ...), pushed while
  // comparing below it.
  class Segment {
   public:
    Segment(Comparer* c, std::string label) : c_(c) { c_->path_.push_back(std::move(label)); }
    ~Segment() { c_->path_.pop_back(); }
    Segment(const Segment&) = delete;
    Segment& operator=(const Segment&) = delete;

   private:
    Comparer* c_;
  };

  static std::string GraphLabel(const Graph& g) { return absl::StrCat("graph '", g.name(), "'"); }

  // --- Helpers
  // -------------------------------------------------------------------------------------
  absl::Status Differ(const std::string& what, const std::string& a, const std::string& b) const {
    const std::string path = absl::StrJoin(path_, " > ");
    if (a.empty() && b.empty())
      return absl::InvalidArgumentError(absl::StrCat(path, ": ", what, " differs"));
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": ", what, " is ", a.empty() ? "empty" : a, " in the first model but ",
                     b.empty() ? "empty" : b, " in the second"));
  }
  absl::Status Problem(const std::string& message) const {
    return absl::InvalidArgumentError(absl::StrCat(absl::StrJoin(path_, " > "), ": ", message));
  }
  template <typename T>
  absl::Status Field(const std::string& what, const T& a, const T& b) const {
    if (a == b) return absl::OkStatus();
    return Differ(what, absl::StrCat(a), absl::StrCat(b));
  }
  absl::Status Str(const std::string& what, const std::string& a, const std::string& b) const {
    if (a == b) return absl::OkStatus();
    return Differ(what, absl::StrCat("\"", a, "\""), absl::StrCat("\"", b, "\""));
  }
  absl::Status NonTextStr(const std::string& what, const std::string& a,
                          const std::string& b) const {
    return opt_.compare_non_text_fields ? Str(what, a, b) : absl::OkStatus();
  }
  absl::Status NonTextPairs(const std::string& what, const StringPairs& a,
                            const StringPairs& b) const {
    if (!opt_.compare_non_text_fields || a == b) return absl::OkStatus();
    return Differ(what, PairsText(a), PairsText(b));
  }
  static std::string OpsetsText(const std::vector<OpsetImport>& v) {
    std::vector<std::string> items;
    for (const OpsetImport& i : v) items.push_back(absl::StrCat("\"", i.domain, "\":", i.version));
    return absl::StrCat("[", absl::StrJoin(items, ", "), "]");
  }
  static std::string OptText(const std::optional<int64_t>& v) {
    return v.has_value() ? absl::StrCat(*v) : "absent";
  }
  static std::string DimsText(const std::vector<int64_t>& dims) {
    return absl::StrCat("[", absl::StrJoin(dims, ","), "]");
  }

  bool TypesEqual(const Type& a, const Type& b) const {
    if (opt_.compare_non_text_fields) return a == b;
    if (a.kind() != b.kind() || a.elem_type() != b.elem_type() ||
        a.opaque_domain() != b.opaque_domain() || a.opaque_name() != b.opaque_name() ||
        a.shape().has_value() != b.shape().has_value() || a.has_inner() != b.has_inner()) {
      return false;
    }
    if (a.shape().has_value()) {
      if (a.shape()->rank() != b.shape()->rank()) return false;
      for (size_t i = 0; i < a.shape()->rank(); ++i) {
        const Dim& x = a.shape()->dim(i);
        const Dim& y = b.shape()->dim(i);
        if (x.is_known() != y.is_known() || x.is_symbolic() != y.is_symbolic()) return false;
        if (x.is_known() && x.value() != y.value()) return false;
        if (x.is_symbolic() && x.symbol() != y.symbol()) return false;
      }
    }
    return !a.has_inner() || TypesEqual(a.inner(), b.inner());
  }

  absl::Status Types(const std::string& what, const Type& a, const Type& b) const {
    if (TypesEqual(a, b)) return absl::OkStatus();
    auto name = [](const Type& t) { return t.is_none() ? std::string("unknown") : PrintType(t); };
    std::string ta = name(a), tb = name(b);
    if (ta == tb) {
      ta += " (denotations differ)";
      tb += " (denotations differ)";
    }
    return Differ(what, ta, tb);
  }

  // --- Value correspondence
  // ------------------------------------------------------------------------
  absl::Status Map(const Graph& a, const Graph& b) {
    Segment graph_segment(this, GraphLabel(a));
    if (a.inputs().size() != b.inputs().size()) {
      return Differ("number of inputs", absl::StrCat(a.inputs().size()),
                    absl::StrCat(b.inputs().size()));
    }
    for (size_t i = 0; i < a.inputs().size(); ++i) map_[a.inputs()[i]] = b.inputs()[i];
    RETURN_IF_ERROR(MapInitializers(a.initializers(), b.initializers(), "initializers"));
    RETURN_IF_ERROR(
        MapInitializers(a.sparse_initializers(), b.sparse_initializers(), "sparse initializers"));
    if (a.num_nodes() != b.num_nodes()) {
      return Differ("number of nodes", absl::StrCat(a.num_nodes()), absl::StrCat(b.num_nodes()));
    }
    size_t index = 0;
    for (auto ia = a.nodes().begin(), ib = b.nodes().begin(); ia != a.nodes().end();
         ++ia, ++ib, ++index) {
      RETURN_IF_ERROR(MapNode(**ia, **ib, index));
    }
    return absl::OkStatus();
  }

  absl::Status MapInitializers(const std::vector<Value*>& la, const std::vector<Value*>& lb,
                               const char* what) {
    if (la.size() != lb.size()) {
      return Differ(absl::StrCat("number of ", what), absl::StrCat(la.size()),
                    absl::StrCat(lb.size()));
    }
    absl::flat_hash_map<std::string, Value*> by_name;
    for (Value* v : lb) by_name[v->name()] = v;
    for (Value* v : la) {
      auto it = by_name.find(v->name());
      if (it == by_name.end()) {
        return Problem(absl::StrCat("initializer '", v->name(),
                                    "' of the first model is missing in the second"));
      }
      if (v->is_graph_input() != it->second->is_graph_input()) {
        return Problem(
            absl::StrCat("initializer '", v->name(), "' is a graph input in only one model"));
      }
      if (!v->is_graph_input()) map_[v] = it->second;
    }
    return absl::OkStatus();
  }

  absl::Status MapNode(const Node& na, const Node& nb, size_t index) {
    Segment node_segment(this, NodeLabel(na, index));
    if (na.num_outputs() != nb.num_outputs()) {
      return Differ("number of outputs", absl::StrCat(na.num_outputs()),
                    absl::StrCat(nb.num_outputs()));
    }
    for (size_t i = 0; i < na.num_outputs(); ++i) map_[na.output(i)] = nb.output(i);
    if (na.attributes().size() != nb.attributes().size()) {
      return Differ("number of attributes", absl::StrCat(na.attributes().size()),
                    absl::StrCat(nb.attributes().size()));
    }
    for (size_t k = 0; k < na.attributes().size(); ++k) {
      RETURN_IF_ERROR(MapAttribute(na.attributes()[k], nb.attributes()[k]));
    }
    return absl::OkStatus();
  }

  absl::Status MapAttribute(const Attribute& a, const Attribute& b) {
    if (a.g == nullptr && b.g == nullptr && a.graphs.empty() && b.graphs.empty())
      return absl::OkStatus();
    Segment attr_segment(this, absl::StrCat("attribute '", a.name(), "'"));
    if (a.kind() != b.kind())
      return Differ("type", AttributeKindName(a.kind()), AttributeKindName(b.kind()));
    if ((a.g == nullptr) != (b.g == nullptr)) return Differ("graph", "", "");
    if (a.g != nullptr) RETURN_IF_ERROR(Map(*a.g, *b.g));
    if (a.graphs.size() != b.graphs.size()) {
      return Differ("number of graphs", absl::StrCat(a.graphs.size()),
                    absl::StrCat(b.graphs.size()));
    }
    for (size_t i = 0; i < a.graphs.size(); ++i) {
      if ((a.graphs[i] == nullptr) != (b.graphs[i] == nullptr)) return Differ("graphs", "", "");
      if (a.graphs[i] != nullptr) RETURN_IF_ERROR(Map(*a.graphs[i], *b.graphs[i]));
    }
    return absl::OkStatus();
  }

  // --- Comparison
  // ----------------------------------------------------------------------------------
  absl::Status ValueFields(const std::string& what, const Value& a, const Value& b) {
    if (a.name() != b.name())
      return Differ(absl::StrCat(what, " name"), Quoted(a.name()), Quoted(b.name()));
    std::optional<Segment> value_segment;
    if (!a.name().empty()) value_segment.emplace(this, absl::StrCat("value '", a.name(), "'"));
    RETURN_IF_ERROR(Types("type", a.type(), b.type()));
    RETURN_IF_ERROR(NonTextStr("doc_string", a.doc_string(), b.doc_string()));
    return NonTextPairs("metadata_props", a.metadata_props(), b.metadata_props());
  }

  // Does `b` (of the second model) correspond to `a` (of the first)?
  absl::Status SameReference(const std::string& what, const Value* a, const Value* b) const {
    if (a == nullptr && b == nullptr) return absl::OkStatus();
    auto name = [](const Value* v) {
      return v == nullptr ? std::string("nothing") : Quoted(v->name());
    };
    if (a == nullptr || b == nullptr) return Differ(what, name(a), name(b));
    auto it = map_.find(a);
    if (it != map_.end() && it->second == b) return absl::OkStatus();
    if (it == map_.end() && a->name() == b->name())
      return absl::OkStatus();  // defined outside both
    if (a->name() == b->name()) {
      return Differ(what, absl::StrCat(name(a), " (one definition)"),
                    absl::StrCat(name(b), " (another definition of that name)"));
    }
    return Differ(what, name(a), name(b));
  }

  absl::Status CompareGraph(const Graph& a, const Graph& b) {
    Segment graph_segment(this, GraphLabel(a));
    RETURN_IF_ERROR(CompareGraphFields(a, b));
    size_t index = 0;
    for (auto ia = a.nodes().begin(), ib = b.nodes().begin(); ia != a.nodes().end();
         ++ia, ++ib, ++index) {
      RETURN_IF_ERROR(Nodes(**ia, **ib, index));
    }
    return CompareGraphOutputs(a, b);
  }

  // Everything but the nodes and outputs.
  ABSL_ATTRIBUTE_NOINLINE absl::Status CompareGraphFields(const Graph& a, const Graph& b) {
    RETURN_IF_ERROR(Str("name", a.name(), b.name()));
    RETURN_IF_ERROR(NonTextStr("doc_string", a.doc_string(), b.doc_string()));
    RETURN_IF_ERROR(NonTextPairs("metadata_props", a.metadata_props(), b.metadata_props()));
    for (size_t i = 0; i < a.inputs().size(); ++i) {
      const Value& va = *a.inputs()[i];
      const Value& vb = *b.inputs()[i];
      const std::string what = absl::StrCat("input ", i);
      RETURN_IF_ERROR(ValueFields(what, va, vb));
      if ((va.initializer() == nullptr) != (vb.initializer() == nullptr)) {
        return Differ(absl::StrCat(what, " '", va.name(), "' default value"),
                      va.initializer() ? "present" : "absent",
                      vb.initializer() ? "present" : "absent");
      }
      if (va.initializer() != nullptr) {
        Segment s(this, absl::StrCat("input '", va.name(), "'"));
        RETURN_IF_ERROR(Tensors(*va.initializer(), *vb.initializer(), /*compare_name=*/false));
      }
    }
    for (const Value* va : a.initializers()) {
      if (va->is_graph_input()) continue;
      const Value& vb = *map_.at(va);
      RETURN_IF_ERROR(ValueFields("initializer", *va, vb));
      Segment s(this, absl::StrCat("initializer '", va->name(), "'"));
      RETURN_IF_ERROR(Tensors(*va->initializer(), *vb.initializer(), /*compare_name=*/false));
    }
    for (const Value* va : a.sparse_initializers()) {
      if (va->is_graph_input()) continue;
      const Value& vb = *map_.at(va);
      RETURN_IF_ERROR(ValueFields("sparse initializer", *va, vb));
      Segment s(this, absl::StrCat("sparse initializer '", va->name(), "'"));
      RETURN_IF_ERROR(Sparse(*va->sparse_initializer(), *vb.sparse_initializer()));
    }
    RETURN_IF_ERROR(ValueInfo(a, b));
    if (opt_.compare_non_text_fields) {
      const auto& qa = a.quantization_annotation();
      const auto& qb = b.quantization_annotation();
      bool same = qa.size() == qb.size();
      for (size_t i = 0; same && i < qa.size(); ++i) {
        same = qa[i].tensor_name == qb[i].tensor_name &&
               qa[i].quant_parameter_tensor_names == qb[i].quant_parameter_tensor_names;
      }
      if (!same) return Differ("quantization_annotation", "", "");
    }
    return absl::OkStatus();
  }

  ABSL_ATTRIBUTE_NOINLINE absl::Status CompareGraphOutputs(const Graph& a, const Graph& b) {
    if (a.outputs().size() != b.outputs().size()) {
      return Differ("number of outputs", absl::StrCat(a.outputs().size()),
                    absl::StrCat(b.outputs().size()));
    }
    for (size_t i = 0; i < a.outputs().size(); ++i) {
      RETURN_IF_ERROR(SameReference(absl::StrCat("output ", i), a.outputs()[i], b.outputs()[i]));
      Segment s(this, absl::StrCat("output '", a.outputs()[i]->name(), "'"));
      const std::optional<OutputInfo>& ia = a.output_info(i);
      const std::optional<OutputInfo>& ib = b.output_info(i);
      RETURN_IF_ERROR(Types("type", ia ? ia->type : a.outputs()[i]->type(),
                            ib ? ib->type : b.outputs()[i]->type()));
      static const std::string kEmpty;
      static const StringPairs kNoPairs;
      RETURN_IF_ERROR(
          NonTextStr("doc_string", ia ? ia->doc_string : kEmpty, ib ? ib->doc_string : kEmpty));
      RETURN_IF_ERROR(NonTextPairs("metadata_props", ia ? ia->metadata_props : kNoPairs,
                                   ib ? ib->metadata_props : kNoPairs));
    }
    return absl::OkStatus();
  }

  // value_info: entries naming values of the graph (membership and order, when asked) and entries
  // naming nothing in the graph (always).
  absl::Status ValueInfo(const Graph& a, const Graph& b) {
    auto listed = [](const Graph& g) {
      std::vector<std::pair<uint64_t, std::string>> out;
      auto consider = [&](const Value* v) {
        if (v->in_value_info()) out.emplace_back(v->value_info_order(), v->name());
      };
      for (const Value* v : g.inputs()) consider(v);
      for (const Value* v : g.initializers()) {
        if (!v->is_graph_input()) consider(v);
      }
      for (const Value* v : g.sparse_initializers()) {
        if (!v->is_graph_input()) consider(v);
      }
      for (const Node* n : g.nodes()) {
        for (size_t i = 0; i < n->num_outputs(); ++i) consider(n->output(i));
      }
      std::sort(out.begin(), out.end());
      std::vector<std::string> names;
      for (auto& [order, name] : out) names.push_back(std::move(name));
      return names;
    };
    if (opt_.compare_value_info) {
      const std::vector<std::string> la = listed(a), lb = listed(b);
      if (la != lb) {
        return Differ("value_info", absl::StrCat("[", absl::StrJoin(la, ", "), "]"),
                      absl::StrCat("[", absl::StrJoin(lb, ", "), "]"));
      }
    }
    const auto& da = a.dangling_value_info();
    const auto& db = b.dangling_value_info();
    auto names = [](const std::vector<DanglingValueInfo>& d) {
      std::vector<std::string> out;
      for (const auto& e : d) out.push_back(e.name);
      return absl::StrCat("[", absl::StrJoin(out, ", "), "]");
    };
    const char* what = "value_info entries for names not defined in the graph";
    if (da.size() != db.size()) return Differ(what, names(da), names(db));
    for (size_t i = 0; i < da.size(); ++i) {
      if (da[i].name != db[i].name) return Differ(what, names(da), names(db));
      Segment s(this, absl::StrCat("value_info '", da[i].name, "'"));
      RETURN_IF_ERROR(Types("type", da[i].type, db[i].type));
      RETURN_IF_ERROR(NonTextStr("doc_string", da[i].doc_string, db[i].doc_string));
      RETURN_IF_ERROR(NonTextPairs("metadata_props", da[i].metadata_props, db[i].metadata_props));
    }
    return absl::OkStatus();
  }

  absl::Status Nodes(const Node& a, const Node& b, size_t index) {
    Segment node_segment(this, NodeLabel(a, index));
    RETURN_IF_ERROR(NodeFields(a, b));
    for (size_t k = 0; k < a.attributes().size(); ++k) {
      RETURN_IF_ERROR(Attributes(a.attributes()[k], b.attributes()[k]));
    }
    return absl::OkStatus();
  }

  ABSL_ATTRIBUTE_NOINLINE absl::Status NodeFields(const Node& a, const Node& b) {
    RETURN_IF_ERROR(Str("name", a.name(), b.name()));
    RETURN_IF_ERROR(Str("domain", a.domain(), b.domain()));
    RETURN_IF_ERROR(Str("op_type", a.op_type(), b.op_type()));
    RETURN_IF_ERROR(Str("overload", a.overload(), b.overload()));
    if (a.num_inputs() != b.num_inputs()) {
      return Differ("number of inputs", absl::StrCat(a.num_inputs()), absl::StrCat(b.num_inputs()));
    }
    for (size_t i = 0; i < a.num_inputs(); ++i) {
      RETURN_IF_ERROR(SameReference(absl::StrCat("input ", i), a.input(i), b.input(i)));
    }
    for (size_t i = 0; i < a.num_outputs(); ++i) {
      RETURN_IF_ERROR(ValueFields(absl::StrCat("output ", i), *a.output(i), *b.output(i)));
    }
    RETURN_IF_ERROR(NonTextStr("doc_string", a.doc_string(), b.doc_string()));
    RETURN_IF_ERROR(NonTextPairs("metadata_props", a.metadata_props(), b.metadata_props()));
    if (opt_.compare_non_text_fields && a.device_configurations() != b.device_configurations()) {
      return Differ("device configurations", "", "");
    }
    return absl::OkStatus();
  }

  static bool FloatsEqual(const std::vector<float>& a, const std::vector<float>& b) {
    return a.size() == b.size() &&
           (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
  }

  absl::Status Attributes(const Attribute& a, const Attribute& b) {
    RETURN_IF_ERROR(Str("attribute name", a.name(), b.name()));
    Segment attr_segment(this, absl::StrCat("attribute '", a.name(), "'"));
    RETURN_IF_ERROR(Str("reference", a.ref_attr_name(), b.ref_attr_name()));
    RETURN_IF_ERROR(NonTextStr("doc_string", a.doc_string(), b.doc_string()));
    if (a.kind() != b.kind())
      return Differ("type", AttributeKindName(a.kind()), AttributeKindName(b.kind()));
    if (a.is_reference()) return absl::OkStatus();
    if (a.kind() == AttributeKind::kGraph) return CompareGraph(*a.g, *b.g);
    if (a.kind() == AttributeKind::kGraphs) {
      for (size_t i = 0; i < a.graphs.size(); ++i) {
        if (a.graphs[i] != nullptr) RETURN_IF_ERROR(CompareGraph(*a.graphs[i], *b.graphs[i]));
      }
      return absl::OkStatus();
    }
    return AttributeValues(a, b);
  }

  // Attribute payloads other than graphs.
  ABSL_ATTRIBUTE_NOINLINE absl::Status AttributeValues(const Attribute& a, const Attribute& b) {
    switch (a.kind()) {
      case AttributeKind::kFloat:
        if (std::bit_cast<uint32_t>(a.f) != std::bit_cast<uint32_t>(b.f)) {
          return Differ("value", absl::StrCat(a.f), absl::StrCat(b.f));
        }
        break;
      case AttributeKind::kInt:
        return Field("value", a.i, b.i);
      case AttributeKind::kString:
        return Str("value", a.s, b.s);
      case AttributeKind::kFloats:
        if (!FloatsEqual(a.floats, b.floats)) {
          return Differ("value", absl::StrCat("[", absl::StrJoin(a.floats, ", "), "]"),
                        absl::StrCat("[", absl::StrJoin(b.floats, ", "), "]"));
        }
        break;
      case AttributeKind::kInts:
        if (a.ints != b.ints) {
          return Differ("value", absl::StrCat("[", absl::StrJoin(a.ints, ", "), "]"),
                        absl::StrCat("[", absl::StrJoin(b.ints, ", "), "]"));
        }
        break;
      case AttributeKind::kStrings:
        if (a.strings != b.strings) {
          return Differ("value", absl::StrCat("[\"", absl::StrJoin(a.strings, "\", \""), "\"]"),
                        absl::StrCat("[\"", absl::StrJoin(b.strings, "\", \""), "\"]"));
        }
        break;
      case AttributeKind::kTensor:
        return Tensors(a.t, b.t);
      case AttributeKind::kTensors:
        if (a.tensors.size() != b.tensors.size()) {
          return Differ("number of tensors", absl::StrCat(a.tensors.size()),
                        absl::StrCat(b.tensors.size()));
        }
        for (size_t i = 0; i < a.tensors.size(); ++i) {
          Segment s(this, absl::StrCat("tensor ", i));
          RETURN_IF_ERROR(Tensors(a.tensors[i], b.tensors[i]));
        }
        break;
      case AttributeKind::kSparseTensor:
        return Sparse(a.sparse_tensor, b.sparse_tensor);
      case AttributeKind::kSparseTensors:
        if (a.sparse_tensors.size() != b.sparse_tensors.size()) {
          return Differ("number of sparse tensors", absl::StrCat(a.sparse_tensors.size()),
                        absl::StrCat(b.sparse_tensors.size()));
        }
        for (size_t i = 0; i < a.sparse_tensors.size(); ++i) {
          Segment s(this, absl::StrCat("sparse tensor ", i));
          RETURN_IF_ERROR(Sparse(a.sparse_tensors[i], b.sparse_tensors[i]));
        }
        break;
      case AttributeKind::kTypeProto:
        return Types("value", a.tp, b.tp);
      case AttributeKind::kTypeProtos:
        if (a.type_protos.size() != b.type_protos.size()) {
          return Differ("number of types", absl::StrCat(a.type_protos.size()),
                        absl::StrCat(b.type_protos.size()));
        }
        for (size_t i = 0; i < a.type_protos.size(); ++i) {
          RETURN_IF_ERROR(Types(absl::StrCat("type ", i), a.type_protos[i], b.type_protos[i]));
        }
        break;
      default:
        break;
    }
    return absl::OkStatus();
  }

  // `compare_name`: false for initializers, which are named by their value.
  absl::Status Tensors(const Tensor& a, const Tensor& b, bool compare_name = true) const {
    if (compare_name) RETURN_IF_ERROR(Str("tensor name", a.name(), b.name()));
    if (a.data_type() != b.data_type()) {
      return Differ("element type", DataTypeName(a.data_type()), DataTypeName(b.data_type()));
    }
    if (a.dims() != b.dims()) return Differ("dims", DimsText(a.dims()), DimsText(b.dims()));
    const bool ext_a = a.storage() == Tensor::Storage::kExternal;
    const bool ext_b = b.storage() == Tensor::Storage::kExternal;
    if (ext_a != ext_b)
      return Differ("data location", ext_a ? "external" : "inline", ext_b ? "external" : "inline");
    if (ext_a && a.external_data() != b.external_data()) {
      return Differ("external data", PairsText(a.external_data()), PairsText(b.external_data()));
    }
    if (opt_.compare_tensor_storage && a.storage() != b.storage()) {
      return Differ("storage", absl::StrCat(static_cast<int>(a.storage())),
                    absl::StrCat(static_cast<int>(b.storage())));
    }
    // External tensors are equal by reference unless both have their bytes at hand.
    const bool compare_bytes = !ext_a || (a.raw_size() > 0 && b.raw_size() > 0);
    if (compare_bytes && a.raw_view() != b.raw_view()) {
      if (a.raw_size() != b.raw_size()) {
        return Differ("data size", absl::StrCat(a.raw_size(), " bytes"),
                      absl::StrCat(b.raw_size(), " bytes"));
      }
      size_t i = 0;
      while (a.raw_data()[i] == b.raw_data()[i]) ++i;
      return Differ(absl::StrCat("data (first difference at byte ", i, ")"),
                    absl::StrCat(static_cast<int>(static_cast<uint8_t>(a.raw_data()[i]))),
                    absl::StrCat(static_cast<int>(static_cast<uint8_t>(b.raw_data()[i]))));
    }
    if (a.strings() != b.strings()) {
      size_t i = 0;
      while (i < a.strings().size() && i < b.strings().size() && a.strings()[i] == b.strings()[i])
        ++i;
      return Differ(absl::StrCat("string data (first difference at element ", i, ")"),
                    i < a.strings().size() ? absl::StrCat("\"", a.strings()[i], "\"") : "missing",
                    i < b.strings().size() ? absl::StrCat("\"", b.strings()[i], "\"") : "missing");
    }
    RETURN_IF_ERROR(NonTextStr("doc_string", a.doc_string(), b.doc_string()));
    RETURN_IF_ERROR(NonTextPairs("metadata_props", a.metadata_props(), b.metadata_props()));
    if (opt_.compare_non_text_fields && a.segment() != b.segment())
      return Differ("segment", "", "");
    return absl::OkStatus();
  }

  absl::Status Sparse(const SparseTensor& a, const SparseTensor& b) {
    if (a.dims != b.dims) return Differ("dims", DimsText(a.dims), DimsText(b.dims));
    {
      Segment s(this, "values");
      RETURN_IF_ERROR(Tensors(a.values, b.values));
    }
    Segment s(this, "indices");
    return Tensors(a.indices, b.indices);
  }

  absl::Status Functions(const Function& a, const Function& b) {
    Segment fn_segment(this, absl::StrCat("function '", a.QualifiedName(), "'"));
    RETURN_IF_ERROR(Str("domain", a.domain(), b.domain()));
    RETURN_IF_ERROR(Str("name", a.name(), b.name()));
    RETURN_IF_ERROR(Str("overload", a.overload(), b.overload()));
    RETURN_IF_ERROR(Str("doc_string", a.doc_string(), b.doc_string()));
    if (a.opset_imports() != b.opset_imports()) {
      return Differ("opset_import", OpsetsText(a.opset_imports()), OpsetsText(b.opset_imports()));
    }
    if (a.metadata_props() != b.metadata_props()) {
      return Differ("metadata_props", PairsText(a.metadata_props()), PairsText(b.metadata_props()));
    }
    if (a.attribute_names() != b.attribute_names()) {
      return Differ("attributes without defaults", absl::StrJoin(a.attribute_names(), ", "),
                    absl::StrJoin(b.attribute_names(), ", "));
    }
    if (a.attribute_defaults().size() != b.attribute_defaults().size()) {
      return Differ("number of attributes with defaults",
                    absl::StrCat(a.attribute_defaults().size()),
                    absl::StrCat(b.attribute_defaults().size()));
    }
    for (size_t i = 0; i < a.attribute_defaults().size(); ++i) {
      RETURN_IF_ERROR(MapAttribute(a.attribute_defaults()[i], b.attribute_defaults()[i]));
      RETURN_IF_ERROR(Attributes(a.attribute_defaults()[i], b.attribute_defaults()[i]));
    }
    return Graphs(a.body(), b.body());
  }

  EqualityOptions opt_;
  absl::flat_hash_map<const Value*, const Value*> map_;
  std::vector<std::string> path_;
};

}  // namespace

EqualityOptions TextRoundTripOptions() {
  EqualityOptions o;
  o.compare_non_text_fields = false;
  o.compare_value_info = false;
  return o;
}

absl::Status StructurallyEqual(const Model& a, const Model& b) {
  return StructurallyEqual(a, b, EqualityOptions());
}

absl::Status StructurallyEqual(const Model& a, const Model& b, const EqualityOptions& options) {
  return Comparer(options).Models(a, b);
}

absl::Status StructurallyEqualGraphs(const Graph& a, const Graph& b,
                                     const EqualityOptions& options) {
  return Comparer(options).Graphs(a, b);
}

}  // namespace onnx_opt::ir::text
