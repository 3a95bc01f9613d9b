#include "schema/defs/dsl.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

namespace onnx_opt::schema::defs {

void TableError(const OpSchema& schema, std::string_view what) {
  std::fprintf(stderr, "schema table error in %s: %.*s\n", schema.DebugName().c_str(),
               static_cast<int>(what.size()), what.data());
  std::abort();
}

void AppendTypes(std::vector<std::string_view>& out, TypeList types) {
  out.insert(out.end(), types.begin(), types.end());
}

void AppendTypes(std::vector<std::string_view>& out, std::string_view type) { out.push_back(type); }

namespace {

// X of "tensor(X)"; kUndefined for any other type string.
ir::DataType TensorElemType(std::string_view type) {
  constexpr std::string_view kTensor = "tensor(";
  if (type.size() <= kTensor.size() + 1 || type.substr(0, kTensor.size()) != kTensor ||
      type.back() != ')') {
    return ir::DataType::kUndefined;
  }
  return ir::ParseDataTypeName(type.substr(kTensor.size(), type.size() - kTensor.size() - 1))
      .value_or(ir::DataType::kUndefined);
}

}  // namespace

OpBuilder& OpBuilder::Input(std::string_view name, std::string_view type, ParamFlags flags,
                            int min_arity) {
  return AddParam(schema_.inputs_, schema_.min_input_, schema_.max_input_, name, type, flags,
                  min_arity);
}

OpBuilder& OpBuilder::Output(std::string_view name, std::string_view type, ParamFlags flags,
                             int min_arity) {
  return AddParam(schema_.outputs_, schema_.min_output_, schema_.max_output_, name, type, flags,
                  min_arity);
}

OpBuilder& OpBuilder::AddParam(std::vector<FormalParameter>& params, int& min, int& max,
                               std::string_view name, std::string_view type, ParamFlags flags,
                               int min_arity) {
  // Every tool run builds every table, so the message is only spelled out on a mistake.
  auto where = [&] { return "parameter '" + std::string(name) + "'"; };
  if ((flags & kOptional) && (flags & kVariadic)) {
    TableError(schema_, where() + " is both optional and variadic");
  }
  if ((flags & kDiff) && (flags & kNonDiff)) {
    TableError(schema_, where() + " is both differentiable and not");
  }
  if ((flags & kHeterogeneous) && !(flags & kVariadic)) {
    TableError(schema_, where() + " is heterogeneous but not variadic");
  }
  if (min_arity != 1 && !(flags & kVariadic)) {
    TableError(schema_, where() + " has a minimum arity but is not variadic");
  }
  if (!params.empty() && params.back().option == ParamOption::kVariadic) {
    TableError(schema_, where() + " follows a variadic parameter");
  }
  if (name.empty() || type.empty()) TableError(schema_, where() + " needs a name and a type");

  FormalParameter p;
  p.name = std::string(name);
  p.type_str = std::string(type);
  p.tensor_elem_type = TensorElemType(type);
  p.option = (flags & kVariadic)   ? ParamOption::kVariadic
             : (flags & kOptional) ? ParamOption::kOptional
                                   : ParamOption::kSingle;
  p.homogeneous = !(flags & kHeterogeneous);
  p.min_arity = min_arity;
  p.differentiability = (flags & kDiff)      ? Differentiability::kDifferentiable
                        : (flags & kNonDiff) ? Differentiability::kNonDifferentiable
                                             : Differentiability::kUnknown;
  // Arity as ONNX's OpSchema::Finalize computes it: a single parameter is required and makes every
  // parameter before it positionally required too (GRU-1's outputs: optional Y, single Y_h give
  // min 2); an optional one raises the maximum only; a variadic one, always last, adds its minimum
  // arity and lifts the maximum.
  switch (p.option) {
    case ParamOption::kSingle:
      ++max;
      min = max;
      break;
    case ParamOption::kOptional:
      ++max;
      break;
    case ParamOption::kVariadic:
      min = max + p.min_arity;
      max = kUnbounded;
      break;
  }
  params.push_back(std::move(p));
  return *this;
}

OpBuilder& OpBuilder::Attr(std::string_view name, AttrType type) {
  return AddAttr(AttributeSpec{std::string(name), type, /*required=*/false, {}});
}

OpBuilder& OpBuilder::Attr(std::string_view name, AttrType type, RequiredTag) {
  return AddAttr(AttributeSpec{std::string(name), type, /*required=*/true, {}});
}

OpBuilder& OpBuilder::Attr(std::string_view name, AttrType type, AttrDefault default_value) {
  AttrValue& v = default_value.value;
  // Integers are accepted where floats are expected so that `.Attr("alpha", kFloat, 1)` works.
  if (type == kFloat && std::holds_alternative<int64_t>(v)) {
    v = static_cast<float>(std::get<int64_t>(v));
  }
  if (type == kFloats && std::holds_alternative<std::vector<int64_t>>(v)) {
    const auto& ints = std::get<std::vector<int64_t>>(v);
    v = std::vector<float>(ints.begin(), ints.end());
  }
  const bool matches = (type == kInt && std::holds_alternative<int64_t>(v)) ||
                       (type == kFloat && std::holds_alternative<float>(v)) ||
                       (type == kString && std::holds_alternative<std::string>(v)) ||
                       (type == kInts && std::holds_alternative<std::vector<int64_t>>(v)) ||
                       (type == kFloats && std::holds_alternative<std::vector<float>>(v)) ||
                       (type == kStrings && std::holds_alternative<std::vector<std::string>>(v));
  if (!matches) {
    TableError(schema_, "default of attribute '" + std::string(name) + "' does not fit type " +
                            std::string(AttrTypeName(type)));
  }
  return AddAttr(AttributeSpec{std::string(name), type, /*required=*/false, std::move(v)});
}

OpBuilder& OpBuilder::AddAttr(AttributeSpec attr) {
  if (attr.type == kUndefined) TableError(schema_, "attribute '" + attr.name + "' has no type");
  // Kept sorted by name, as ONNX does, so lookups can bisect.
  auto& attrs = schema_.attributes_;
  auto it =
      std::lower_bound(attrs.begin(), attrs.end(), attr.name,
                       [](const AttributeSpec& a, const std::string& n) { return a.name < n; });
  if (it != attrs.end() && it->name == attr.name) {
    TableError(schema_, "attribute '" + attr.name + "' is declared twice");
  }
  attrs.insert(it, std::move(attr));
  return *this;
}

OpBuilder& OpBuilder::TypeConstraint(std::string_view param, TypeList allowed) {
  if (schema_.FindTypeConstraint(param) != nullptr) {
    TableError(schema_, "type constraint '" + std::string(param) + "' is declared twice");
  }
  if (allowed.empty()) {
    TableError(schema_, "type constraint '" + std::string(param) + "' allows no type");
  }
  // The types are the tables' string literals, viewed, not copied (copying them was the largest
  // cost of building the registry, which every tool run does).
  TypeConstraintSpec tc;
  tc.param = std::string(param);
  tc.allowed.reserve(allowed.size());
  for (std::string_view t : allowed) {
    if (std::find(tc.allowed.begin(), tc.allowed.end(), t) != tc.allowed.end()) {
      TableError(schema_, "type constraint '" + tc.param + "' lists " + std::string(t) + " twice");
    }
    tc.allowed.push_back(t);
    const ir::DataType elem = TensorElemType(t);
    if (elem != ir::DataType::kUndefined && static_cast<uint32_t>(elem) < 64) {
      tc.tensor_elem_types |= uint64_t{1} << static_cast<uint32_t>(elem);
    }
  }
  schema_.type_constraints_.push_back(std::move(tc));
  return *this;
}

OpBuilder& OpBuilder::Deprecated() {
  schema_.deprecated_ = true;
  return *this;
}

OpBuilder& OpBuilder::HasFunctionBody() {
  schema_.has_function_body_ = true;
  return *this;
}

}  // namespace onnx_opt::schema::defs
