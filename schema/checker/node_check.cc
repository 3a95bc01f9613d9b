#include "schema/checker/node_check.h"

#include <string_view>

#include "absl/container/flat_hash_map.h"
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
                                     " takes ", ArityRange(schema.min_input(), schema.max_input())));
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
      problems->push_back(absl::StrCat("input ", i, " ('", f->name,
                                       "') is required but omitted (empty name)"));
    }
  }
  for (size_t i = 0; i < n_out; ++i) {
    const FormalParameter* f = FormalAt(schema.outputs(), i);
    if (f != nullptr && f->option == ParamOption::kSingle && node.output(i)->is_omitted()) {
      problems->push_back(absl::StrCat("output ", i, " ('", f->name,
                                       "') is required but omitted (empty name)"));
    }
  }
}

// Attributes whose names start with "__" are implementation details that ONNX's checker ignores.
bool IsInternalSymbol(std::string_view name) { return name.size() >= 2 && name.substr(0, 2) == "__"; }

void CheckAttributes(const ir::Node& node, const OpSchema& schema, std::vector<std::string>* problems) {
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
    const AttrType actual = static_cast<AttrType>(static_cast<int>(a.kind()));
    if (actual != spec->type) {
      problems->push_back(absl::StrCat("attribute '", a.name(), "' has type ", Sv(AttrTypeName(actual)),
                                       " but the schema requires ", Sv(AttrTypeName(spec->type))));
    }
  }
  for (const AttributeSpec& spec : schema.attributes()) {
    if (spec.required && node.FindAttribute(spec.name) == nullptr) {
      problems->push_back(absl::StrCat("required attribute '", spec.name, "' (",
                                       Sv(AttrTypeName(spec.type)), ") is missing"));
    }
  }
}

struct Binding {
  const ir::Type* type;
  std::string by;  // "input 0 'A' ('x')"
};

std::string Actual(std::string_view dir, size_t i, const FormalParameter& f, const ir::Value& v) {
  return absl::StrCat(Sv(dir), " ", i, " '", f.name, "' (value '", v.name(), "')");
}

void CheckTypes(const ir::Node& node, const OpSchema& schema, std::vector<std::string>* problems) {
  absl::flat_hash_map<std::string, Binding> bound;
  auto check = [&](std::string_view dir, size_t i, const FormalParameter* f, const ir::Value* v) {
    if (f == nullptr || v == nullptr || v->is_omitted() || v->type().is_none()) return;
    const ir::Type& t = v->type();
    const TypeConstraintSpec* tc = schema.FindTypeConstraint(f->type_str);
    if (tc == nullptr) {  // a concrete type such as "tensor(int64)"
      const TypeSpec* spec = ParseTypeSpec(f->type_str);
      if (spec != nullptr && !Matches(*spec, t)) {
        problems->push_back(absl::StrCat(Actual(dir, i, *f, *v), " has type ", TypeName(t),
                                         " but the schema requires ", f->type_str));
      }
      return;
    }
    bool allowed = false;
    for (const std::string& a : tc->allowed) {
      const TypeSpec* spec = ParseTypeSpec(a);
      if (spec != nullptr && Matches(*spec, t)) {
        allowed = true;
        break;
      }
    }
    if (!allowed) {
      problems->push_back(absl::StrCat(Actual(dir, i, *f, *v), " has type ", TypeName(t),
                                       ", which type constraint ", tc->param, " of ",
                                       schema.DebugName(), " does not allow (allowed: ",
                                       absl::StrJoin(tc->allowed, ", "), ")"));
      return;
    }
    // A heterogeneous variadic parameter (Loop's V) lets each value have its own type.
    if (f->option == ParamOption::kVariadic && !f->homogeneous) return;
    auto it = bound.find(tc->param);
    if (it == bound.end()) {
      bound.emplace(tc->param, Binding{&t, Actual(dir, i, *f, *v)});
    } else if (!Compatible(*it->second.type, t)) {
      problems->push_back(absl::StrCat(Actual(dir, i, *f, *v), " has type ", TypeName(t), " but ",
                                       tc->param, " is already bound to ",
                                       TypeName(*it->second.type), " by ", it->second.by));
    } else if (!IsFullyKnown(*it->second.type) && IsFullyKnown(t)) {
      it->second = Binding{&t, Actual(dir, i, *f, *v)};
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

std::string ArityRange(int min, int max) {
  if (min == max) return absl::StrCat("exactly ", min);
  if (max == kUnbounded) return absl::StrCat("at least ", min);
  return absl::StrCat(min, " to ", max);
}

void CheckNodeAgainstSchema(const ir::Node& node, const OpSchema& schema, bool check_types,
                            std::vector<std::string>* problems) {
  CheckArity(node, schema, problems);
  CheckAttributes(node, schema, problems);
  if (check_types) CheckTypes(node, schema, problems);
}

}  // namespace onnx_opt::schema::checker
