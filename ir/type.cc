#include "ir/type.h"

#include <limits>

#include "absl/strings/str_cat.h"

namespace onnx_opt::ir {

Dim Dim::Symbolic(std::string symbol) {
  Dim d;
  d.kind_ = Kind::kSymbolic;
  d.text_->symbol = std::move(symbol);
  return d;
}

void Dim::set_denotation(std::string d) { text_.SetField(&Text::denotation, std::move(d)); }

bool Dim::operator==(const Dim& other) const {
  return kind_ == other.kind_ && (kind_ != Kind::kKnown || value_ == other.value_) &&
         text_->symbol == other.text_->symbol && text_->denotation == other.text_->denotation;
}

Shape Shape::FromSizes(const std::vector<int64_t>& sizes) {
  std::vector<Dim> dims;
  dims.reserve(sizes.size());
  for (int64_t s : sizes) dims.push_back(Dim::Known(s));
  return Shape(std::move(dims));
}

bool Shape::is_static() const {
  for (const Dim& d : dims_) {
    if (!d.is_known()) return false;
  }
  return true;
}

std::optional<int64_t> Shape::num_elements() const {
  int64_t n = 1;
  for (const Dim& d : dims_) {
    if (!d.is_known() || d.value() < 0) return std::nullopt;
    if (d.value() != 0 && n > std::numeric_limits<int64_t>::max() / d.value()) return std::nullopt;
    n *= d.value();
  }
  return n;
}

Type Type::Tensor(DataType elem, std::optional<Shape> shape) {
  Type t;
  t.kind_ = Kind::kTensor;
  t.elem_type_ = elem;
  t.shape_ = std::move(shape);
  return t;
}

Type Type::SparseTensor(DataType elem, std::optional<Shape> shape) {
  Type t = Tensor(elem, std::move(shape));
  t.kind_ = Kind::kSparseTensor;
  return t;
}

Type Type::Sequence(Type elem) {
  Type t;
  t.kind_ = Kind::kSequence;
  t.inner_ = std::make_shared<const Type>(std::move(elem));
  return t;
}

Type Type::Map(DataType key, Type value) {
  Type t;
  t.kind_ = Kind::kMap;
  t.elem_type_ = key;
  t.inner_ = std::make_shared<const Type>(std::move(value));
  return t;
}

Type Type::Optional(Type elem) {
  Type t;
  t.kind_ = Kind::kOptional;
  t.inner_ = std::make_shared<const Type>(std::move(elem));
  return t;
}

Type Type::Opaque(std::string domain, std::string name) {
  Type t;
  t.kind_ = Kind::kOpaque;
  t.names_->opaque_domain = std::move(domain);
  t.names_->opaque_name = std::move(name);
  return t;
}

void Type::set_denotation(std::string d) { names_.SetField(&Names::denotation, std::move(d)); }

bool Type::operator==(const Type& other) const {
  const Names& a = names_;
  const Names& b = other.names_;
  if (kind_ != other.kind_ || elem_type_ != other.elem_type_ || shape_ != other.shape_ ||
      a.opaque_domain != b.opaque_domain || a.opaque_name != b.opaque_name ||
      a.denotation != b.denotation) {
    return false;
  }
  if ((inner_ == nullptr) != (other.inner_ == nullptr)) return false;
  return inner_ == nullptr || *inner_ == *other.inner_;
}

std::string ShapeToString(const Shape& shape) {
  std::string out = "[";
  for (size_t i = 0; i < shape.rank(); ++i) {
    if (i > 0) out += ",";
    const Dim& d = shape.dim(i);
    if (d.is_known()) {
      absl::StrAppend(&out, d.value());
    } else if (d.is_symbolic()) {
      out += d.symbol();
    } else {
      out += "?";
    }
  }
  return out + "]";
}

std::string Type::ToString() const {
  switch (kind_) {
    case Kind::kNone:
      return "unknown";
    case Kind::kTensor:
    case Kind::kSparseTensor: {
      std::string out = absl::StrCat(kind_ == Kind::kTensor ? "tensor(" : "sparse_tensor(",
                                     DataTypeName(elem_type_), ")");
      if (shape_.has_value()) out += ShapeToString(*shape_);
      return out;
    }
    case Kind::kSequence:
      return absl::StrCat("seq(", inner_ ? inner_->ToString() : "unknown", ")");
    case Kind::kMap:
      return absl::StrCat("map(", DataTypeName(elem_type_), ",",
                          inner_ ? inner_->ToString() : "unknown", ")");
    case Kind::kOptional:
      return absl::StrCat("optional(", inner_ ? inner_->ToString() : "unknown", ")");
    case Kind::kOpaque:
      return absl::StrCat("opaque(", names_->opaque_domain, ",", names_->opaque_name, ")");
  }
  return "unknown";
}

}  // namespace onnx_opt::ir
