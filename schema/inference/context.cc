#include "schema/inference/context.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "ir/numeric/tensor_to_doubles.h"
#include "schema/inference/engine.h"
#include "schema/inference/shape_utils.h"

namespace onnx_opt::schema::inference {
namespace {

const ir::Type& NoType() {
  static const ir::Type* t = new ir::Type();
  return *t;
}

// The formal parameter that actual position i binds to (the last one when it is variadic).
const FormalParameter* FormalAt(const std::vector<FormalParameter>& formals, size_t i) {
  if (i < formals.size()) return &formals[i];
  if (!formals.empty() && formals.back().option == ParamOption::kVariadic) return &formals.back();
  return nullptr;
}

}  // namespace

bool ShapeValue::all_known() const {
  for (const ir::Dim& d : elems) {
    if (!d.is_known()) return false;
  }
  return true;
}

std::optional<std::vector<int64_t>> ShapeValue::known() const {
  if (!all_known()) return std::nullopt;
  std::vector<int64_t> out;
  for (const ir::Dim& d : elems) out.push_back(d.value());
  return out;
}

InferenceContext::InferenceContext(Engine& engine, Scope& scope, ir::Node& node,
                                   const OpSchema& schema, int64_t opset)
    : engine_(engine), scope_(scope), node_(node), schema_(schema), opset_(opset) {
  outputs_.resize(node.num_outputs());
  values_.resize(node.num_outputs());
  constants_.resize(node.num_outputs(), nullptr);
}

void InferenceContext::InitFromSchema() {
  for (size_t i = 0; i < outputs_.size(); ++i) {
    outputs_[i] = ir::Type();
    const FormalParameter* formal = FormalAt(schema_.outputs(), i);
    if (formal == nullptr) continue;
    if (auto t = ParseTypeString(formal->type_str)) {
      outputs_[i] = *t;
      continue;
    }
    // A type parameter: bound by an input of the same parameter whose type is known...
    bool bound = false;
    for (size_t j = 0; j < num_inputs() && !bound; ++j) {
      const FormalParameter* in = FormalAt(schema_.inputs(), j);
      if (in == nullptr || in->type_str != formal->type_str || !has_input(j)) continue;
      const ir::Type& t = input_type(j);
      if (t.is_none()) continue;
      if ((t.kind() == ir::Type::Kind::kTensor || t.kind() == ir::Type::Kind::kSparseTensor) &&
          t.elem_type() == ir::DataType::kUndefined) {
        continue;
      }
      outputs_[i] = StripShapes(t);
      bound = true;
    }
    if (bound) continue;
    // ... or by a constraint that allows a single type.
    const TypeConstraintSpec* tc = schema_.FindTypeConstraint(formal->type_str);
    if (tc != nullptr && tc->allowed.size() == 1) {
      if (auto t = ParseTypeString(tc->allowed[0])) outputs_[i] = *t;
    }
  }
}

const ir::Type& InferenceContext::input_type(size_t i) const {
  if (!has_input(i)) return NoType();
  return engine_.GetType(scope_, node_.input(i));
}

ir::DataType InferenceContext::input_elem_type(size_t i) const {
  const ir::Type& t = input_type(i);
  if (t.kind() != ir::Type::Kind::kTensor && t.kind() != ir::Type::Kind::kSparseTensor) {
    return ir::DataType::kUndefined;
  }
  return t.elem_type();
}

const ir::Shape* InferenceContext::input_shape(size_t i) const {
  const ir::Type& t = input_type(i);
  if (t.kind() != ir::Type::Kind::kTensor && t.kind() != ir::Type::Kind::kSparseTensor) {
    return nullptr;
  }
  return t.shape() ? &*t.shape() : nullptr;
}

std::optional<int64_t> InferenceContext::input_rank(size_t i) const {
  const ir::Shape* s = input_shape(i);
  if (s == nullptr) return std::nullopt;
  return static_cast<int64_t>(s->rank());
}

const ir::Tensor* InferenceContext::input_constant(size_t i) const {
  if (!has_input(i)) return nullptr;
  return engine_.GetConstant(scope_, node_.input(i));
}

std::optional<std::vector<int64_t>> InferenceContext::input_ints(size_t i) const {
  if (const ir::Tensor* t = input_constant(i)) {
    if (auto v = TensorToInts(*t)) return v;
  }
  if (auto sv = input_shape_value(i)) return sv->known();
  return std::nullopt;
}

std::optional<std::vector<double>> InferenceContext::input_doubles(size_t i) const {
  if (const ir::Tensor* t = input_constant(i)) {
    if (auto v = ir::TensorToDoubles(*t)) return v;
  }
  if (auto sv = input_shape_value(i)) {
    if (auto k = sv->known()) return std::vector<double>(k->begin(), k->end());
  }
  return std::nullopt;
}

std::optional<ShapeValue> InferenceContext::input_shape_value(size_t i) const {
  if (!has_input(i)) return std::nullopt;
  return engine_.GetShapeValue(scope_, node_.input(i));
}

const ir::Attribute* InferenceContext::attr(std::string_view name) const {
  return engine_.Resolve(scope_, node_.FindAttribute(name));
}

int64_t InferenceContext::GetInt(std::string_view name, int64_t fallback) const {
  if (const ir::Attribute* a = attr(name)) {
    if (a->kind() == ir::AttributeKind::kInt) return a->i;
  }
  if (const AttributeSpec* spec = schema_.FindAttribute(name)) {
    if (auto* v = std::get_if<int64_t>(&spec->default_value)) return *v;
  }
  return fallback;
}

float InferenceContext::GetFloat(std::string_view name, float fallback) const {
  if (const ir::Attribute* a = attr(name)) {
    if (a->kind() == ir::AttributeKind::kFloat) return a->f;
  }
  if (const AttributeSpec* spec = schema_.FindAttribute(name)) {
    if (auto* v = std::get_if<float>(&spec->default_value)) return *v;
  }
  return fallback;
}

std::string InferenceContext::GetString(std::string_view name, std::string fallback) const {
  if (const ir::Attribute* a = attr(name)) {
    if (a->kind() == ir::AttributeKind::kString) return a->s;
  }
  if (const AttributeSpec* spec = schema_.FindAttribute(name)) {
    if (auto* v = std::get_if<std::string>(&spec->default_value)) return *v;
  }
  return fallback;
}

std::vector<int64_t> InferenceContext::GetInts(std::string_view name,
                                               std::vector<int64_t> fallback) const {
  if (auto v = FindInts(name)) return *v;
  return fallback;
}

std::optional<std::vector<int64_t>> InferenceContext::FindInts(std::string_view name) const {
  if (const ir::Attribute* a = attr(name)) {
    if (a->kind() == ir::AttributeKind::kInts) return a->ints;
  }
  if (const AttributeSpec* spec = schema_.FindAttribute(name)) {
    if (auto* v = std::get_if<std::vector<int64_t>>(&spec->default_value)) return *v;
  }
  return std::nullopt;
}

std::vector<float> InferenceContext::GetFloats(std::string_view name,
                                               std::vector<float> fallback) const {
  if (const ir::Attribute* a = attr(name)) {
    if (a->kind() == ir::AttributeKind::kFloats) return a->floats;
  }
  if (const AttributeSpec* spec = schema_.FindAttribute(name)) {
    if (auto* v = std::get_if<std::vector<float>>(&spec->default_value)) return *v;
  }
  return fallback;
}

bool InferenceContext::has_output(size_t i) const {
  return i < node_.num_outputs() && node_.output(i) != nullptr && !node_.output(i)->is_omitted();
}

void InferenceContext::SetOutputType(size_t i, ir::Type type) {
  if (i < outputs_.size()) outputs_[i] = std::move(type);
}

void InferenceContext::SetOutputElemType(size_t i, ir::DataType elem) {
  if (i >= outputs_.size()) return;
  ir::Type& t = outputs_[i];
  if (t.kind() != ir::Type::Kind::kTensor && t.kind() != ir::Type::Kind::kSparseTensor) {
    t = ir::Type::Tensor(elem);
  } else {
    t.set_elem_type(elem);
  }
}

void InferenceContext::SetOutputShape(size_t i, std::optional<ir::Shape> shape) {
  if (i >= outputs_.size()) return;
  ir::Type& t = outputs_[i];
  if (t.kind() != ir::Type::Kind::kTensor && t.kind() != ir::Type::Kind::kSparseTensor) {
    t = ir::Type::Tensor(ir::DataType::kUndefined);
  }
  t.set_shape(std::move(shape));
}

void InferenceContext::SetOutputRank(size_t i, size_t rank) {
  SetOutputShape(i, ir::Shape(std::vector<ir::Dim>(rank)));
}

void InferenceContext::SetOutputShapeValue(size_t i, ShapeValue value) {
  if (i < values_.size()) values_[i] = std::move(value);
}

void InferenceContext::SetOutputConstant(size_t i, const ir::Tensor* tensor) {
  if (i < constants_.size()) constants_[i] = tensor;
}

const ir::Tensor* InferenceContext::OwnTensor(ir::Tensor t) { return engine_.Own(std::move(t)); }

void InferenceContext::PropagateElemType(size_t in, size_t out) {
  ir::DataType e = input_elem_type(in);
  if (e != ir::DataType::kUndefined) SetOutputElemType(out, e);
}

void InferenceContext::PropagateShape(size_t in, size_t out) {
  if (const ir::Shape* s = input_shape(in)) SetOutputShape(out, *s);
}

void InferenceContext::PropagateType(size_t in, size_t out) {
  const ir::Type& t = input_type(in);
  if (!t.is_none()) SetOutputType(out, t);
}

absl::StatusOr<std::vector<ir::Type>> InferenceContext::InferSubgraph(
    std::string_view name, const std::vector<ir::Type>& input_types, bool trial) {
  const ir::Attribute* a = attr(name);
  if (a == nullptr || a->kind() != ir::AttributeKind::kGraph || a->g == nullptr) {
    return Error(absl::StrCat("has no graph attribute '", std::string(name), "'"));
  }
  return engine_.InferSubgraph(scope_, *a->g, input_types, trial);
}

absl::Status InferenceContext::Error(absl::string_view message) const {
  return absl::InvalidArgumentError(absl::StrCat(DescribeNode(node_), ": ", message));
}

std::string DescribeNode(const ir::Node& node) {
  const ir::Graph* g = node.graph();
  if (g == nullptr || g->name().empty()) return node.Describe();
  return absl::StrCat(node.Describe(), " in graph '", g->name(), "'");
}

}  // namespace onnx_opt::schema::inference
