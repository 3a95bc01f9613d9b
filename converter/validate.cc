#include "converter/validate.h"

#include <map>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"

namespace onnx_opt::converter {
namespace {

std::string NoSpaces(const std::string& s) { return absl::StrReplaceAll(s, {{" ", ""}}); }

// The known outer part of a type as schemas spell it, "optional(seq(" for optional(seq(?)) say; empty
// when not even the kind is known.
std::string KnownTypePrefix(const ir::Type& type) {
  using K = ir::Type::Kind;
  switch (type.kind()) {
    case K::kTensor:
      return "tensor(";
    case K::kSparseTensor:
      return "sparse_tensor(";
    case K::kMap:
      return "map(";
    case K::kSequence:
    case K::kOptional:
      return absl::StrCat(type.kind() == K::kSequence ? "seq(" : "optional(",
                          type.has_inner() ? KnownTypePrefix(type.inner()) : "");
    default:
      return "";
  }
}

// Whether `type` is allowed by the formal parameter's type string (a constraint name or a type).
std::optional<std::string> CheckType(const schema::OpSchema& schema, const schema::FormalParameter& p,
                                     const ir::Type& type) {
  std::vector<std::string> allowed;
  if (const schema::TypeConstraintSpec* tc = schema.FindTypeConstraint(p.type_str)) {
    allowed = tc->allowed;
  } else {
    allowed = {p.type_str};
  }
  const std::string actual = SchemaTypeString(type);
  if (actual.empty()) {
    // Partly known (an optional of a sequence of unknown tensors, say): its kinds must still fit.
    const std::string prefix = KnownTypePrefix(type);
    if (prefix.empty()) return std::nullopt;
    for (const std::string& s : allowed) {
      if (absl::StartsWith(NoSpaces(s), prefix)) return std::nullopt;
    }
    return absl::StrCat("has a type of kind ", prefix, "...), which ", schema.op_type(), "-", schema.since_version(),
                        " does not allow for '", p.name, "' (allowed: ", absl::StrJoin(allowed, ", "), ")");
  }
  const std::string a = NoSpaces(actual);
  for (const std::string& s : allowed) {
    if (NoSpaces(s) == a) return std::nullopt;
  }
  return absl::StrCat("has type ", actual, ", which ", schema.op_type(), "-", schema.since_version(),
                      " does not allow for '", p.name, "' (allowed: ", absl::StrJoin(allowed, ", "), ")");
}

// The element type some operators' outputs get from an attribute (when the value's type is unknown).
std::optional<ir::DataType> ImpliedOutputElemType(const ir::Node& node, size_t i) {
  if (i != 0 || !node.is_onnx_domain()) return std::nullopt;
  const std::string& op = node.op_type();
  auto int_attr = [&](const char* name) -> std::optional<int64_t> {
    const ir::Attribute* a = node.FindAttribute(name);
    if (a == nullptr || a->is_reference() || a->kind() != ir::AttributeKind::kInt) return std::nullopt;
    return a->i;
  };
  if (op == "Cast") {
    if (auto to = int_attr("to")) return static_cast<ir::DataType>(*to);
  } else if (op == "Constant") {
    for (const ir::Attribute& a : node.attributes()) {
      if (a.is_reference()) continue;
      if (a.name() == "value") return a.t->data_type();
      if (a.name() == "sparse_value") return a.sparse_tensor->values.data_type();
      if (a.name() == "value_float" || a.name() == "value_floats") return ir::DataType::kFloat;
      if (a.name() == "value_int" || a.name() == "value_ints") return ir::DataType::kInt64;
      if (a.name() == "value_string" || a.name() == "value_strings") return ir::DataType::kString;
    }
  } else if (op == "ConstantOfShape") {
    const ir::Attribute* a = node.FindAttribute("value");
    if (a == nullptr) return ir::DataType::kFloat;
    if (!a->is_reference()) return a->t->data_type();
  } else if (op == "RandomNormal" || op == "RandomUniform") {
    return static_cast<ir::DataType>(int_attr("dtype").value_or(1));
  } else if (op == "Multinomial") {
    return static_cast<ir::DataType>(int_attr("dtype").value_or(6));
  } else if (op == "EyeLike" || op == "RandomNormalLike" || op == "RandomUniformLike" || op == "Bernoulli") {
    if (auto d = int_attr("dtype")) return static_cast<ir::DataType>(*d);
  } else if (op == "QuantizeLinear" || op == "DequantizeLinear") {
    if (auto d = int_attr("output_dtype"); d.has_value() && *d != 0) return static_cast<ir::DataType>(*d);
  }
  return std::nullopt;
}

}  // namespace

std::string SchemaTypeString(const ir::Type& type) {
  using K = ir::Type::Kind;
  switch (type.kind()) {
    case K::kTensor:
    case K::kSparseTensor: {
      if (type.elem_type() == ir::DataType::kUndefined || !ir::IsKnownDataType(type.elem_type())) return "";
      return absl::StrCat(type.kind() == K::kTensor ? "tensor(" : "sparse_tensor(",
                          ir::DataTypeName(type.elem_type()), ")");
    }
    case K::kSequence:
    case K::kOptional: {
      if (!type.has_inner()) return "";
      std::string inner = SchemaTypeString(type.inner());
      if (inner.empty()) return "";
      return absl::StrCat(type.kind() == K::kSequence ? "seq(" : "optional(", inner, ")");
    }
    case K::kMap: {
      if (!type.has_inner() || type.elem_type() == ir::DataType::kUndefined) return "";
      const ir::Type& v = type.inner();
      std::string value;
      if (v.is_tensor()) {
        if (v.elem_type() == ir::DataType::kUndefined) return "";
        value = ir::DataTypeName(v.elem_type());
      } else {
        value = SchemaTypeString(v);
        if (value.empty()) return "";
      }
      return absl::StrCat("map(", ir::DataTypeName(type.elem_type()), ", ", value, ")");
    }
    default:
      return "";
  }
}

std::optional<std::string> CheckNodeFitsSchema(
    const ir::Node& node, const schema::OpSchema& schema,
    const std::function<const ir::Type&(const ir::Value*)>& type_of) {
  const std::string label = absl::StrCat(schema.op_type(), "-", schema.since_version());
  // Attributes.
  for (const ir::Attribute& a : node.attributes()) {
    const schema::AttributeSpec* spec = schema.FindAttribute(a.name());
    if (spec == nullptr) {
      return absl::StrCat("attribute '", a.name(), "' is not defined by ", label);
    }
    if (static_cast<int>(spec->type) != static_cast<int>(a.kind())) {
      return absl::StrCat("attribute '", a.name(), "' is of kind ", ir::AttributeKindName(a.kind()),
                          " but ", label, " declares ", std::string(schema::AttrTypeName(spec->type)));
    }
  }
  for (const schema::AttributeSpec& spec : schema.attributes()) {
    if (spec.required && node.FindAttribute(spec.name) == nullptr) {
      return absl::StrCat(label, " requires attribute '", spec.name, "'");
    }
  }
  // Arity.
  const int n_in = static_cast<int>(node.num_inputs());
  if (n_in < schema.min_input() || n_in > schema.max_input()) {
    return absl::StrCat(label, " takes ",
                        schema.max_input() == schema::kUnbounded
                            ? absl::StrCat("at least ", schema.min_input())
                            : absl::StrCat(schema.min_input(), " to ", schema.max_input()),
                        " inputs, and the node has ", n_in);
  }
  const int n_out = static_cast<int>(node.num_outputs());
  if (n_out < schema.min_output() || n_out > schema.max_output()) {
    return absl::StrCat(label, " has ",
                        schema.max_output() == schema::kUnbounded
                            ? absl::StrCat("at least ", schema.min_output())
                            : absl::StrCat(schema.min_output(), " to ", schema.max_output()),
                        " outputs, and the node has ", n_out);
  }
  // Inputs and outputs against their formal parameters.
  auto param_for = [](const std::vector<schema::FormalParameter>& params,
                      int i) -> const schema::FormalParameter* {
    if (params.empty()) return nullptr;
    if (i < static_cast<int>(params.size())) return &params[i];
    if (params.back().option == schema::ParamOption::kVariadic) return &params.back();
    return nullptr;
  };
  // Values bound to one type constraint must share one type (a constraint split by a later version,
  // such as Pow-12's exponent type, merges again on a downgrade).
  std::map<std::string, std::pair<std::string, std::string>> bound;  // param -> (type, who)
  std::optional<std::string> conflict;
  auto bind = [&](const schema::FormalParameter& p, const ir::Type& t, const std::string& who) {
    if (conflict.has_value() || schema.FindTypeConstraint(p.type_str) == nullptr) return;
    if (p.option == schema::ParamOption::kVariadic && !p.homogeneous) return;
    const std::string ts = SchemaTypeString(t);
    if (ts.empty()) return;
    auto [it, inserted] = bound.emplace(p.type_str, std::make_pair(ts, who));
    if (!inserted && it->second.first != ts) {
      conflict = absl::StrCat(who, " has type ", ts, " but ", it->second.second, " has type ", it->second.first,
                              "; ", label, " binds both to type constraint ", p.type_str);
    }
  };
  for (int i = 0; i < n_in; ++i) {
    const schema::FormalParameter* p = param_for(schema.inputs(), i);
    if (p == nullptr) continue;
    const ir::Value* v = node.input(i);
    if (v == nullptr) {
      if (p->option == schema::ParamOption::kSingle) {
        return absl::StrCat("input ", i, " ('", p->name, "') of ", label, " is required but omitted");
      }
      continue;
    }
    if (auto problem = CheckType(schema, *p, type_of(v))) {
      return absl::StrCat("input ", i, " ('", v->name(), "') ", *problem);
    }
    bind(*p, type_of(v), absl::StrCat("input ", i, " ('", v->name(), "')"));
  }
  for (int i = 0; i < n_out; ++i) {
    const schema::FormalParameter* p = param_for(schema.outputs(), i);
    if (p == nullptr) continue;
    const ir::Value* v = node.output(i);
    if (v->is_omitted()) {
      if (p->option == schema::ParamOption::kSingle) {
        return absl::StrCat("output ", i, " ('", p->name, "') of ", label, " is required but omitted");
      }
      continue;
    }
    ir::Type t = type_of(v);
    if (SchemaTypeString(t).empty()) {
      if (std::optional<ir::DataType> implied = ImpliedOutputElemType(node, i)) t = ir::Type::Tensor(*implied);
    }
    if (auto problem = CheckType(schema, *p, t)) {
      return absl::StrCat("output ", i, " ('", v->name(), "') ", *problem);
    }
    bind(*p, t, absl::StrCat("output ", i, " ('", v->name(), "')"));
  }
  return conflict;
}

}  // namespace onnx_opt::converter
