#include "ir/text/printer.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <utility>
#include <vector>

#include "absl/base/attributes.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "ir/data_type.h"
#include "ir/numeric/narrow_float.h"
#include "ir/text/lexer.h"

namespace onnx_opt::ir::text {
namespace {

bool IsIdentifier(std::string_view s) {
  if (s.empty()) return false;
  auto id_start = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; };
  if (!id_start(s[0])) return false;
  return std::all_of(s.begin() + 1, s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

bool IsQualifiedIdentifier(std::string_view s) {
  size_t start = 0;
  while (true) {
    const size_t dot = s.find('.', start);
    if (!IsIdentifier(s.substr(
            start, dot == std::string_view::npos ? std::string_view::npos : dot - start))) {
      return false;
    }
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

template <typename F>
std::string FormatFloating(F f) {
  if (std::isnan(f)) return "nan";
  if (std::isinf(f)) return f < 0 ? "-inf" : "inf";
  char buf[64];
  auto [ptr, ec] = std::to_chars(buf, buf + sizeof(buf), f);
  std::string s(buf, ptr);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

template <typename T>
T Load(const char* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

// The tensor's data elements as text ("1.0", "-3", "\"s\""), as many as its data holds (at most
// what its dims call for). Empty with ok=false when the element type cannot be printed.
std::vector<std::string> FormatElements(const Tensor& t, bool& ok) {
  ok = true;
  std::vector<std::string> out;
  const DataType dt = t.data_type();
  const std::optional<uint64_t> n = t.num_elements();
  if (dt == DataType::kString) {
    for (const std::string& s : t.strings()) out.push_back(QuoteString(s));
    return out;
  }
  const int bits = ElementBitWidth(dt);
  if (bits == 0) {
    ok = false;
    return out;
  }
  const char* data = t.raw_data();
  const size_t size = t.raw_size();
  // Complex numbers are printed as their real and imaginary parts.
  const bool complex = IsComplex(dt);
  const int part_bits = complex ? bits / 2 : bits;
  uint64_t count = static_cast<uint64_t>(size) * 8 / part_bits;
  if (n.has_value()) count = std::min<uint64_t>(count, *n * (complex ? 2 : 1));
  out.reserve(count);
  for (uint64_t i = 0; i < count; ++i) {
    if (part_bits < 8) {
      const uint64_t bit = i * part_bits;
      const uint32_t code =
          (static_cast<uint8_t>(data[bit / 8]) >> (bit % 8)) & ((1u << part_bits) - 1);
      if (IsNarrowFloat(dt)) {
        out.push_back(FormatFloating(NarrowFloatToFloat(dt, code)));
      } else if (IsSignedInteger(dt)) {
        const int32_t v = (code & (1u << (part_bits - 1)))
                              ? static_cast<int32_t>(code) - (1 << part_bits)
                              : static_cast<int32_t>(code);
        out.push_back(absl::StrCat(v));
      } else {
        out.push_back(absl::StrCat(code));
      }
      continue;
    }
    const char* p = data + i * (part_bits / 8);
    switch (dt) {
      case DataType::kFloat:
      case DataType::kComplex64:
        out.push_back(FormatFloating(Load<float>(p)));
        break;
      case DataType::kDouble:
      case DataType::kComplex128:
        out.push_back(FormatFloating(Load<double>(p)));
        break;
      case DataType::kInt8:
        out.push_back(absl::StrCat(Load<int8_t>(p)));
        break;
      case DataType::kUint8:
      case DataType::kBool:
        out.push_back(absl::StrCat(Load<uint8_t>(p)));
        break;
      case DataType::kInt16:
        out.push_back(absl::StrCat(Load<int16_t>(p)));
        break;
      case DataType::kUint16:
        out.push_back(absl::StrCat(Load<uint16_t>(p)));
        break;
      case DataType::kInt32:
        out.push_back(absl::StrCat(Load<int32_t>(p)));
        break;
      case DataType::kUint32:
        out.push_back(absl::StrCat(Load<uint32_t>(p)));
        break;
      case DataType::kInt64:
        out.push_back(absl::StrCat(Load<int64_t>(p)));
        break;
      case DataType::kUint64:
        out.push_back(absl::StrCat(Load<uint64_t>(p)));
        break;
      case DataType::kFloat16:
      case DataType::kBfloat16:
        out.push_back(FormatFloating(NarrowFloatToFloat(dt, Load<uint16_t>(p))));
        break;
      default:
        if (IsNarrowFloat(dt)) {
          out.push_back(FormatFloating(NarrowFloatToFloat(dt, static_cast<uint8_t>(*p))));
        } else {
          ok = false;
          return {};
        }
    }
  }
  return out;
}

bool HasData(const Tensor& t) {
  if (t.storage() == Tensor::Storage::kExternal) return true;
  if (t.data_type() == DataType::kString) return !t.strings().empty() || t.num_elements() == 0u;
  return t.raw_size() > 0 || t.num_elements() == 0u;
}

Type TensorTypeOf(const Tensor& t) {
  return Type::Tensor(t.data_type(), Shape::FromSizes(t.dims()));
}

std::string StringPairsText(const StringPairs& pairs) {
  std::vector<std::string> items;
  for (const auto& [k, v] : pairs)
    items.push_back(absl::StrCat(QuoteString(k), ": ", QuoteString(v)));
  return absl::StrCat("[", absl::StrJoin(items, ", "), "]");
}

std::string OpsetsText(const std::vector<OpsetImport>& imports) {
  std::vector<std::string> items;
  for (const OpsetImport& i : imports)
    items.push_back(absl::StrCat(QuoteString(i.domain), " : ", i.version));
  return absl::StrCat("[", absl::StrJoin(items, ", "), "]");
}

std::string DimText(const Dim& d) {
  if (d.is_known()) return absl::StrCat(d.value());
  if (d.is_symbolic()) return IsIdentifier(d.symbol()) ? d.symbol() : QuoteString(d.symbol());
  return "?";
}

std::string ShapeSuffix(const std::optional<Shape>& shape) {
  if (!shape.has_value()) return "[]";
  if (shape->rank() == 0) return "";
  std::vector<std::string> dims;
  for (const Dim& d : shape->dims()) dims.push_back(DimText(d));
  return absl::StrCat("[", absl::StrJoin(dims, ","), "]");
}

std::string OpaqueArg(const std::string& s) {
  return IsQualifiedIdentifier(s) ? s : QuoteString(s);
}

std::string TypeText(const Type& type) {
  switch (type.kind()) {
    case Type::Kind::kNone:
      return "";
    case Type::Kind::kTensor:
      return DataTypeName(type.elem_type()) + ShapeSuffix(type.shape());
    case Type::Kind::kSparseTensor:
      return absl::StrCat("sparse_tensor(", DataTypeName(type.elem_type()),
                          ShapeSuffix(type.shape()), ")");
    case Type::Kind::kSequence:
      return absl::StrCat("seq(", type.has_inner() ? TypeText(type.inner()) : "", ")");
    case Type::Kind::kOptional:
      return absl::StrCat("optional(", type.has_inner() ? TypeText(type.inner()) : "", ")");
    case Type::Kind::kMap:
      return absl::StrCat("map(", DataTypeName(type.elem_type()), ", ",
                          type.has_inner() ? TypeText(type.inner()) : "", ")");
    case Type::Kind::kOpaque:
      if (type.opaque_domain().empty()) {
        return type.opaque_name().empty()
                   ? "opaque()"
                   : absl::StrCat("opaque(", OpaqueArg(type.opaque_name()), ")");
      }
      return absl::StrCat("opaque(", OpaqueArg(type.opaque_domain()), ", ",
                          OpaqueArg(type.opaque_name()), ")");
  }
  return "";
}

// "type name" or just "name" when the type is not known.
std::string TypedName(const Type& type, const std::string& name) {
  if (type.is_none()) return PrintName(name);
  return absl::StrCat(TypeText(type), " ", PrintName(name));
}

enum class TensorContext { kAttribute, kInitializer };

// A tensor constant. In an initializer the name is given and '=' precedes the data.
std::string TensorText(const Tensor& t, TensorContext context, const std::string& name) {
  std::string s = DataTypeName(t.data_type());
  if (!t.dims().empty()) absl::StrAppend(&s, "[", absl::StrJoin(t.dims(), ","), "]");
  if (!name.empty()) absl::StrAppend(&s, " ", PrintName(name));
  const bool external = t.storage() == Tensor::Storage::kExternal;
  if (context == TensorContext::kInitializer || external) s += " =";
  if (external) {
    absl::StrAppend(&s, " ", StringPairsText(t.external_data()));
    return s;
  }
  if (!HasData(t)) return s;
  bool ok = true;
  std::vector<std::string> elements = FormatElements(t, ok);
  if (!ok) return s;
  absl::StrAppend(&s, " {", absl::StrJoin(elements, ", "), "}");
  return s;
}

std::string SparseText(const SparseTensor& sp, const std::string& name) {
  std::string s = absl::StrCat("sparse_tensor(", DataTypeName(sp.values.data_type()),
                               ShapeSuffix(Shape::FromSizes(sp.dims)), ")");
  if (!name.empty()) absl::StrAppend(&s, " ", PrintName(name), " =");
  absl::StrAppend(&s, " {", TensorText(sp.values, TensorContext::kAttribute, sp.values.name()),
                  ", ", TensorText(sp.indices, TensorContext::kAttribute, sp.indices.name()), "}");
  return s;
}

// "name = " or "name: kind = " (the kind is written when the value alone would not tell it).
std::string AttributePrefix(const Attribute& a) {
  bool annotate = false;
  switch (a.kind()) {
    case AttributeKind::kFloats:
      annotate = a.floats.empty();
      break;
    case AttributeKind::kInts:
      annotate = a.ints.empty();
      break;
    case AttributeKind::kStrings:
      annotate = a.strings.empty();
      break;
    case AttributeKind::kTensors:
      annotate = a.tensors.empty() || std::any_of(a.tensors.begin(), a.tensors.end(),
                                                  [](const Tensor& t) { return !HasData(t); });
      break;
    case AttributeKind::kGraphs:
      annotate = a.graphs.empty();
      break;
    case AttributeKind::kSparseTensors:
      annotate = a.sparse_tensors.empty();
      break;
    case AttributeKind::kTypeProtos:
      annotate = a.type_protos.empty();
      break;
    case AttributeKind::kTensor:
      annotate = !HasData(a.t);
      break;
    default:
      break;
  }
  if (annotate) return absl::StrCat(PrintName(a.name()), ": ", AttributeKindName(a.kind()), " = ");
  return absl::StrCat(PrintName(a.name()), " = ");
}

template <typename Items, typename Fn>
std::string ListText(const Items& items, Fn&& fn) {
  std::vector<std::string> parts;
  for (const auto& item : items) parts.push_back(fn(item));
  return absl::StrCat("[", absl::StrJoin(parts, ", "), "]");
}

// An attribute that holds no graph.
ABSL_ATTRIBUTE_NOINLINE std::string FlatAttributeText(const Attribute& a) {
  if (a.is_reference()) {
    if (a.kind() == AttributeKind::kUndefined)
      return absl::StrCat(PrintName(a.name()), " = @", PrintName(a.ref_attr_name()));
    return absl::StrCat(PrintName(a.name()), ": ", AttributeKindName(a.kind()), " = @",
                        PrintName(a.ref_attr_name()));
  }
  std::string s = AttributePrefix(a);
  switch (a.kind()) {
    case AttributeKind::kFloat:
      s += FormatFloating(a.f);
      break;
    case AttributeKind::kInt:
      absl::StrAppend(&s, a.i);
      break;
    case AttributeKind::kString:
      s += QuoteString(a.s);
      break;
    case AttributeKind::kFloats:
      s += ListText(a.floats, [](float f) { return FormatFloating(f); });
      break;
    case AttributeKind::kInts:
      s += ListText(a.ints, [](int64_t i) { return absl::StrCat(i); });
      break;
    case AttributeKind::kStrings:
      s += ListText(a.strings, [](const std::string& x) { return QuoteString(x); });
      break;
    case AttributeKind::kTensor:
      s += TensorText(a.t, TensorContext::kAttribute, a.t->name());
      break;
    case AttributeKind::kTensors:
      s += ListText(a.tensors, [](const Tensor& t) {
        return TensorText(t, TensorContext::kAttribute, t.name());
      });
      break;
    case AttributeKind::kSparseTensor:
      s += SparseText(a.sparse_tensor, "");
      break;
    case AttributeKind::kSparseTensors:
      s += ListText(a.sparse_tensors, [](const SparseTensor& t) { return SparseText(t, ""); });
      break;
    case AttributeKind::kTypeProto:
      s += TypeText(a.tp);
      break;
    case AttributeKind::kTypeProtos:
      s += ListText(a.type_protos, [](const Type& t) { return TypeText(t); });
      break;
    default:
      // An attribute without a kind cannot be written; make the text fail loudly on parsing.
      s += "?";
      break;
  }
  return s;
}

bool HoldsGraphs(const Attribute& a) {
  return !a.is_reference() &&
         (a.kind() == AttributeKind::kGraph || a.kind() == AttributeKind::kGraphs);
}

bool HasSubgraphs(const Node& n) {
  return std::any_of(n.attributes().begin(), n.attributes().end(), HoldsGraphs);
}

const Type& OutputType(const Graph& g, size_t i) {
  const std::optional<OutputInfo>& info = g.output_info(i);
  return info.has_value() ? info->type : g.outputs()[i]->type();
}

std::string OutputsText(const Graph& g) {
  std::vector<std::string> outputs;
  for (size_t i = 0; i < g.outputs().size(); ++i) {
    outputs.push_back(TypedName(OutputType(g, i), g.outputs()[i]->name()));
  }
  return absl::StrJoin(outputs, ", ");
}

// Whether the graph's output list already states `v`'s type.
bool TypeShownByOutputs(const Graph& g, const Value* v) {
  for (size_t i = 0; i < g.outputs().size(); ++i) {
    if (g.outputs()[i] == v && OutputType(g, i) == v->type()) return true;
  }
  return false;
}

// "name (inputs) => (outputs)"
ABSL_ATTRIBUTE_NOINLINE std::string GraphSignature(const Graph& g) {
  std::vector<std::string> inputs;
  for (const Value* v : g.inputs()) {
    const Tensor* init = v->initializer();
    if (init != nullptr && v->type() == TensorTypeOf(*init)) {
      inputs.push_back(TensorText(*init, TensorContext::kInitializer, v->name()));
    } else {
      inputs.push_back(TypedName(v->type(), v->name()));
    }
  }
  return absl::StrCat(PrintName(g.name()), " (", absl::StrJoin(inputs, ", "), ") => (",
                      OutputsText(g), ")");
}

// The <...> block (initializers and value_info, when there are any) and the opening brace.
ABSL_ATTRIBUTE_NOINLINE std::string BlockText(const Graph& g, int indent, bool function_body) {
  std::vector<std::string> entries;
  if (!function_body) {
    for (const Value* v : g.initializers()) {
      const Tensor& t = *v->initializer();
      if (v->is_graph_input() && v->type() == TensorTypeOf(t)) continue;  // printed with the input
      entries.push_back(TensorText(t, TensorContext::kInitializer, v->name()));
    }
    for (const Value* v : g.sparse_initializers()) {
      entries.push_back(SparseText(*v->sparse_initializer(), v->name()));
    }
  }
  // value_info, in its order (entries for values of other scopes included).
  std::vector<std::pair<uint64_t, std::string>> listed;
  auto consider = [&](const Value* v) {
    if (v->in_value_info())
      listed.emplace_back(v->value_info_order(), TypedName(v->type(), v->name()));
  };
  for (const Value* v : g.inputs()) consider(v);
  for (const Value* v : g.initializers()) {
    if (!v->is_graph_input()) consider(v);
  }
  for (const Value* v : g.sparse_initializers()) {
    if (!v->is_graph_input()) consider(v);
  }
  for (const Node* n : g.nodes()) {
    for (size_t i = 0; i < n->num_outputs(); ++i) {
      if (!n->output(i)->name().empty()) consider(n->output(i));
    }
  }
  for (const DanglingValueInfo& d : g.dangling_value_info()) {
    listed.emplace_back(d.order, TypedName(d.type, d.name));
  }
  std::stable_sort(listed.begin(), listed.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& [order, text] : listed) entries.push_back(std::move(text));
  // Other values whose type is known and would otherwise not be printed.
  if (!function_body) {
    for (const Value* v : g.initializers()) {
      if (!v->is_graph_input() && !v->in_value_info() &&
          v->type() != TensorTypeOf(*v->initializer())) {
        entries.push_back(TypedName(v->type(), v->name()));
      }
    }
  }
  for (const Node* n : g.nodes()) {
    for (size_t i = 0; i < n->num_outputs(); ++i) {
      const Value* v = n->output(i);
      if (!v->name().empty() && !v->type().is_none() && !v->in_value_info() &&
          !TypeShownByOutputs(g, v)) {
        entries.push_back(TypedName(v->type(), v->name()));
      }
    }
  }
  if (entries.empty()) return " {\n";
  const std::string pad(indent, ' ');
  std::string s = absl::StrCat("\n", pad, "<\n");
  for (size_t i = 0; i < entries.size(); ++i) {
    absl::StrAppend(&s, pad, "  ", entries[i], i + 1 < entries.size() ? ",\n" : "\n");
  }
  absl::StrAppend(&s, pad, "> {");
  return s + "\n";
}

// "[label] outputs = domain.Op:overload" and, for a node without subgraphs, the rest of the node;
// for a node with subgraphs, "(inputs) <" (the attributes follow, one per line).
ABSL_ATTRIBUTE_NOINLINE std::string NodeText(const Node& n) {
  std::string s;
  if (!n.name().empty()) absl::StrAppend(&s, "[", PrintName(n.name()), "] ");
  std::vector<std::string> outputs;
  for (size_t i = 0; i < n.num_outputs(); ++i) outputs.push_back(PrintName(n.output(i)->name()));
  s += absl::StrJoin(outputs, ", ");
  s += outputs.empty() ? "= " : " = ";
  if (!n.domain().empty()) absl::StrAppend(&s, n.domain(), ".");
  s += n.op_type();
  if (!n.overload().empty()) absl::StrAppend(&s, ":", n.overload());
  std::vector<std::string> inputs;
  for (const Value* v : n.inputs()) inputs.push_back(v == nullptr ? "\"\"" : PrintName(v->name()));
  const std::string input_list = absl::StrCat("(", absl::StrJoin(inputs, ", "), ")");
  if (n.attributes().empty()) return s + input_list;
  if (HasSubgraphs(n)) return absl::StrCat(s, input_list, " <\n");
  std::vector<std::string> attrs;
  for (const Attribute& a : n.attributes()) attrs.push_back(FlatAttributeText(a));
  return absl::StrCat(s, "<", absl::StrJoin(attrs, ", "), ">", input_list);
}

// Writes text into `out`. The functions on the recursive path (graph -> node -> attribute -> graph)
// keep their frames small, so that deeply nested models print; the text of each piece comes from
// the helpers above.
class Printer {
 public:
  std::string out;

  void EmitModel(const ir::Model& m) {
    std::vector<std::string> header;
    if (m.ir_version() != 0) header.push_back(absl::StrCat("ir_version: ", m.ir_version()));
    if (!m.opset_imports().empty())
      header.push_back("opset_import: " + OpsetsText(m.opset_imports()));
    if (!m.producer_name().empty())
      header.push_back("producer_name: " + QuoteString(m.producer_name()));
    if (!m.producer_version().empty()) {
      header.push_back("producer_version: " + QuoteString(m.producer_version()));
    }
    if (!m.domain().empty()) header.push_back("domain: " + QuoteString(m.domain()));
    if (m.model_version().has_value())
      header.push_back(absl::StrCat("model_version: ", *m.model_version()));
    if (!m.doc_string().empty()) header.push_back("doc_string: " + QuoteString(m.doc_string()));
    if (!m.metadata_props().empty())
      header.push_back("metadata_props: " + StringPairsText(m.metadata_props()));
    Header(header);
    EmitGraph(m.graph(), 0);
    out += "\n";
    for (const auto& f : m.functions()) {
      out += "\n";
      EmitFunction(*f);
      out += "\n";
    }
  }

  void Header(const std::vector<std::string>& items) {
    if (items.empty()) return;
    out += "<\n";
    for (size_t i = 0; i < items.size(); ++i) {
      absl::StrAppend(&out, "  ", items[i], i + 1 < items.size() ? ",\n" : "\n");
    }
    out += ">\n";
  }

  void EmitFunction(const ir::Function& f) {
    std::vector<std::string> header;
    header.push_back("domain: " + QuoteString(f.domain()));
    if (!f.overload().empty()) header.push_back("overload: " + QuoteString(f.overload()));
    header.push_back("opset_import: " + OpsetsText(f.opset_imports()));
    if (!f.doc_string().empty()) header.push_back("doc_string: " + QuoteString(f.doc_string()));
    if (!f.metadata_props().empty())
      header.push_back("metadata_props: " + StringPairsText(f.metadata_props()));
    Header(header);
    out += PrintName(f.name());
    std::vector<std::string> attrs;
    for (const std::string& a : f.attribute_names()) attrs.push_back(PrintName(a));
    for (const Attribute& a : f.attribute_defaults()) {
      Printer sub;
      sub.EmitAttribute(a, 0);
      attrs.push_back(std::move(sub.out));
    }
    if (!attrs.empty()) absl::StrAppend(&out, " <", absl::StrJoin(attrs, ", "), ">");
    const ir::Graph& body = f.body();
    std::vector<std::string> inputs;
    for (const Value* v : body.inputs()) inputs.push_back(TypedName(v->type(), v->name()));
    absl::StrAppend(&out, " (", absl::StrJoin(inputs, ", "), ") => (", OutputsText(body), ")");
    out += BlockText(body, 0, /*function_body=*/true);
    EmitNodes(body, 0);
  }

  // A graph starting at the current position; continuation lines are indented by `indent`.
  void EmitGraph(const ir::Graph& g, int indent) {
    out += GraphSignature(g);
    out += BlockText(g, indent, /*function_body=*/false);
    EmitNodes(g, indent);
  }

  void EmitNodes(const ir::Graph& g, int indent) {
    for (const ir::Node* n : g.nodes()) {
      out.append(indent + 2, ' ');
      EmitNode(*n, indent + 2);
      out += '\n';
    }
    out.append(indent, ' ');
    out += '}';
  }

  void EmitNode(const ir::Node& n, int indent) {
    out += NodeText(n);
    if (!HasSubgraphs(n)) return;
    const std::vector<Attribute>& attrs = n.attributes();
    for (size_t i = 0; i < attrs.size(); ++i) {
      out.append(indent + 2, ' ');
      EmitAttribute(attrs[i], indent + 2);
      out += i + 1 < attrs.size() ? ",\n" : "\n";
    }
    out.append(indent, ' ');
    out += '>';
  }

  void EmitAttribute(const Attribute& a, int indent) {
    if (!HoldsGraphs(a)) {
      out += FlatAttributeText(a);
      return;
    }
    out += AttributePrefix(a);
    if (a.kind() == AttributeKind::kGraph) {
      if (a.g != nullptr) EmitGraph(*a.g, indent);
      return;
    }
    if (a.graphs.empty()) {
      out += "[]";
      return;
    }
    out += "[\n";
    for (size_t i = 0; i < a.graphs.size(); ++i) {
      out.append(indent + 2, ' ');
      if (a.graphs[i] != nullptr) EmitGraph(*a.graphs[i], indent + 2);
      out += i + 1 < a.graphs.size() ? ",\n" : "\n";
    }
    out.append(indent, ' ');
    out += ']';
  }
};

}  // namespace

std::string QuoteString(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    const unsigned char u = static_cast<unsigned char>(c);
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (u < 0x20 || u == 0x7F) {
          absl::StrAppend(&out, absl::StrFormat("\\x%02x", u));
        } else {
          out.push_back(c);
        }
    }
  }
  out += "\"";
  return out;
}

std::string PrintName(std::string_view name) {
  if (IsIdentifier(name) && !internal::IsTypeKeyword(name) && !internal::IsFloatWord(name)) {
    return std::string(name);
  }
  return QuoteString(name);
}

std::string PrintModel(const Model& model) {
  Printer p;
  p.EmitModel(model);
  return std::move(p.out);
}

std::string PrintGraph(const Graph& graph) {
  Printer p;
  p.EmitGraph(graph, 0);
  p.out += "\n";
  return std::move(p.out);
}

std::string PrintFunction(const Function& function) {
  Printer p;
  p.EmitFunction(function);
  p.out += "\n";
  return std::move(p.out);
}

std::string PrintNode(const Node& node) {
  Printer p;
  p.EmitNode(node, 0);
  return std::move(p.out);
}

std::string PrintAttribute(const Attribute& attribute) {
  Printer p;
  p.EmitAttribute(attribute, 0);
  return std::move(p.out);
}

std::string PrintType(const Type& type) { return TypeText(type); }

std::string PrintTensor(const Tensor& tensor) {
  return TensorText(tensor, TensorContext::kAttribute, tensor.name());
}

}  // namespace onnx_opt::ir::text
