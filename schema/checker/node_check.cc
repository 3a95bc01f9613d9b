#include "schema/checker/node_check.h"

#include <algorithm>
#include <optional>
#include <string_view>

#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "ir/value.h"
#include "schema/checker/type_spec.h"

namespace onnx_opt::schema::checker {
namespace {

// Debian's abseil has its own string_view type; convert at the StrCat boundary.
absl::string_view Sv(std::string_view s) { return absl::string_view(s.data(), s.size()); }

std::string Plural(size_t n, std::string_view word) {
  return absl::StrCat(n, " ", Sv(word), n == 1 ? "" : "s");
}

// The formal parameter that actual position `i` binds to (the last one repeats if variadic).
const FormalParameter* FormalAt(const std::vector<FormalParameter>& formals, size_t i) {
  if (i < formals.size()) return &formals[i];
  if (!formals.empty() && formals.back().option == ParamOption::kVariadic) return &formals.back();
  return nullptr;
}

void CheckArity(const ir::Node& node, const OpSchema& schema, std::vector<std::string>* problems) {
  const size_t n_in = node.num_inputs();
  if (static_cast<int64_t>(n_in) < schema.min_input() ||
      static_cast<int64_t>(n_in) > schema.max_input()) {
    problems->push_back(absl::StrCat("has ", Plural(n_in, "input"), " but ", schema.DebugName(),
                                     " takes ",
                                     ArityRange(schema.min_input(), schema.max_input())));
  }
  const size_t n_out = node.num_outputs();
  if (static_cast<int64_t>(n_out) < schema.min_output() ||
      static_cast<int64_t>(n_out) > schema.max_output()) {
    problems->push_back(absl::StrCat("has ", Plural(n_out, "output"), " but ", schema.DebugName(),
                                     " produces ",
                                     ArityRange(schema.min_output(), schema.max_output())));
  }
  for (size_t i = 0; i < n_in; ++i) {
    const FormalParameter* f = FormalAt(schema.inputs(), i);
    if (f != nullptr && f->option == ParamOption::kSingle && node.input(i) == nullptr) {
      problems->push_back(
          absl::StrCat("input ", i, " ('", f->name, "') is required but omitted (empty name)"));
    }
  }
  for (size_t i = 0; i < n_out; ++i) {
    const FormalParameter* f = FormalAt(schema.outputs(), i);
    if (f != nullptr && f->option == ParamOption::kSingle && node.output(i)->is_omitted()) {
      problems->push_back(
          absl::StrCat("output ", i, " ('", f->name, "') is required but omitted (empty name)"));
    }
  }
}

// Attributes whose names start with "__" are implementation details that ONNX's checker ignores.
bool IsInternalSymbol(std::string_view name) {
  return name.size() >= 2 && name.substr(0, 2) == "__";
}

void CheckAttributes(const ir::Node& node, const OpSchema& schema,
                     std::vector<std::string>* problems) {
  for (const ir::Attribute& a : node.attributes()) {
    if (IsInternalSymbol(a.name())) continue;
    const AttributeSpec* spec = schema.FindAttribute(a.name());
    if (spec == nullptr) {
      std::vector<std::string> known;
      for (const AttributeSpec& s : schema.attributes()) known.push_back(s.name);
      problems->push_back(absl::StrCat(
          "attribute '", a.name(), "' is not defined by ", schema.DebugName(),
          known.empty() ? " (it has no attributes)"
                        : absl::StrCat(" (it has: ", absl::StrJoin(known, ", "), ")")));
      continue;
    }
    const AttrType actual = a.kind();
    if (actual != spec->type) {
      problems->push_back(absl::StrCat("attribute '", a.name(), "' has type ",
                                       Sv(AttrTypeName(actual)), " but the schema requires ",
                                       Sv(AttrTypeName(spec->type))));
    }
  }
  for (const AttributeSpec& spec : schema.attributes()) {
    if (spec.required && node.FindAttribute(spec.name) == nullptr) {
      problems->push_back(absl::StrCat("required attribute '", spec.name, "' (",
                                       Sv(AttrTypeName(spec.type)), ") is missing"));
    }
  }
}

// The value that bound a type constraint; described only when a later value disagrees.
struct Binding {
  std::string_view param;
  const ir::Type* type;
  std::string_view dir;
  size_t index;
  const FormalParameter* formal;
  const ir::Value* value;
};

std::string Actual(std::string_view dir, size_t i, const FormalParameter& f, const ir::Value& v) {
  return absl::StrCat(Sv(dir), " ", i, " '", f.name, "' (value '", v.name(), "')");
}

void CheckTypes(const ir::Node& node, const OpSchema& schema, const NodeCheckOptions& options,
                std::vector<std::string>* problems) {
  absl::InlinedVector<Binding, 4> bound;  // an operator has a few constraints
  std::optional<ir::Type> implied;        // only output 0 has one; bindings point at it
  auto check = [&](std::string_view dir, size_t i, const FormalParameter* f, const ir::Value* v) {
    if (f == nullptr || v == nullptr || v->is_omitted()) return;
    const ir::Type* type = options.type_of ? &options.type_of(v) : &v->type();
    if (options.implied_output_types && dir == "output" && i == 0 && !IsFullyKnown(*type)) {
      if (std::optional<ir::DataType> elem = ImpliedOutputElemType(node)) {
        type = &implied.emplace(ir::Type::Tensor(*elem));
      }
    }
    if (type->is_none()) return;
    const ir::Type& t = *type;
    const bool known_tensor =
        t.kind() == ir::Type::Kind::kTensor && t.elem_type() != ir::DataType::kUndefined;
    if (known_tensor && f->tensor_elem_type == t.elem_type())
      return;  // the concrete type "tensor(X)"
    const TypeConstraintSpec* tc = schema.FindTypeConstraint(f->type_str);
    if (tc == nullptr) {  // a concrete type such as "tensor(int64)"
      const TypeSpec* spec = ParseTypeSpec(f->type_str);
      if (spec != nullptr && !Matches(*spec, t)) {
        problems->push_back(absl::StrCat(Actual(dir, i, *f, *v), " has type ", TypeName(t),
                                         " but the schema requires ", f->type_str));
      }
      return;
    }
    // A tensor of a known element type needs one bit; anything else is matched against the strings.
    bool allowed = known_tensor && tc->AllowsTensorOf(t.elem_type());
    for (size_t k = 0; !allowed && k < tc->allowed.size(); ++k) {
      const TypeSpec* spec = ParseTypeSpec(tc->allowed[k]);
      allowed = spec != nullptr && Matches(*spec, t);
    }
    if (!allowed) {
      problems->push_back(absl::StrCat(
          Actual(dir, i, *f, *v), " has type ", TypeName(t), ", which type constraint ", tc->param,
          " of ", schema.DebugName(), " does not allow (allowed: ",
          absl::StrJoin(tc->allowed, ", ",
                        [](std::string* out, std::string_view t) { out->append(t); }),
          ")"));
      return;
    }
    // A heterogeneous variadic parameter (Loop's V) lets each value have its own type.
    if (f->option == ParamOption::kVariadic && !f->homogeneous) return;
    const Binding here{tc->param, &t, dir, i, f, v};
    auto it = std::find_if(bound.begin(), bound.end(),
                           [&](const Binding& b) { return b.param == tc->param; });
    if (it == bound.end()) {
      bound.push_back(here);
    } else if (!Compatible(*it->type, t)) {
      problems->push_back(absl::StrCat(Actual(dir, i, *f, *v), " has type ", TypeName(t), " but ",
                                       tc->param, " is already bound to ", TypeName(*it->type),
                                       " by ",
                                       Actual(it->dir, it->index, *it->formal, *it->value)));
    } else if (!IsFullyKnown(*it->type) && IsFullyKnown(t)) {
      *it = here;
    }
  };
  for (size_t i = 0; i < node.num_inputs(); ++i) {
    check("input", i, FormalAt(schema.inputs(), i), node.input(i));
  }
  for (size_t i = 0; i < node.num_outputs(); ++i) {
    check("output", i, FormalAt(schema.outputs(), i), node.output(i));
  }
}

}  // namespace

std::optional<ir::DataType> ImpliedOutputElemType(const ir::Node& node) {
  if (!node.is_onnx_domain()) return std::nullopt;
  const std::string& op = node.op_type();
  auto int_attr = [&](const char* name) -> std::optional<int64_t> {
    const ir::Attribute* a = node.FindAttribute(name);
    if (a == nullptr || a->is_reference() || a->kind() != ir::AttributeKind::kInt)
      return std::nullopt;
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
  } else if (op == "EyeLike" || op == "RandomNormalLike" || op == "RandomUniformLike" ||
             op == "Bernoulli") {
    if (auto d = int_attr("dtype")) return static_cast<ir::DataType>(*d);
  } else if (op == "QuantizeLinear" || op == "DequantizeLinear") {
    if (auto d = int_attr("output_dtype"); d.has_value() && *d != 0)
      return static_cast<ir::DataType>(*d);
  }
  return std::nullopt;
}

std::string ArityRange(int min, int max) {
  if (min == max) return absl::StrCat("exactly ", min);
  if (max == kUnbounded) return absl::StrCat("at least ", min);
  return absl::StrCat(min, " to ", max);
}

void CheckNodeAgainstSchema(const ir::Node& node, const OpSchema& schema,
                            const NodeCheckOptions& options, std::vector<std::string>* problems) {
  CheckArity(node, schema, problems);
  CheckAttributes(node, schema, problems);
  if (options.check_types) CheckTypes(node, schema, options, problems);
}

}  // namespace onnx_opt::schema::checker
