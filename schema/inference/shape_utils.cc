#include "schema/inference/shape_utils.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "absl/strings/str_cat.h"

namespace onnx_opt::schema::inference {
namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

bool IsOne(const Dim& d) { return d.is_known() && d.value() == 1; }
bool IsZero(const Dim& d) { return d.is_known() && d.value() == 0; }

}  // namespace

Dim DimAdd(const Dim& a, const Dim& b) {
  if (a.is_known() && b.is_known()) {
    if (a.value() < 0 || b.value() < 0 || a.value() > kMax - b.value()) return Dim::Unknown();
    return Dim::Known(a.value() + b.value());
  }
  if (IsZero(b)) return a;
  if (IsZero(a)) return b;
  return Dim::Unknown();
}

Dim DimSub(const Dim& a, const Dim& b) {
  if (a.is_known() && b.is_known()) {
    if (a.value() < b.value()) return Dim::Unknown();
    return Dim::Known(a.value() - b.value());
  }
  if (IsZero(b)) return a;
  if (a.is_symbolic() && b.is_symbolic() && a.symbol() == b.symbol()) return Dim::Known(0);
  return Dim::Unknown();
}

Dim DimMul(const Dim& a, const Dim& b) {
  if (a.is_known() && b.is_known()) {
    if (a.value() < 0 || b.value() < 0) return Dim::Unknown();
    if (a.value() != 0 && b.value() > kMax / a.value()) return Dim::Unknown();
    return Dim::Known(a.value() * b.value());
  }
  if (IsZero(a) || IsZero(b)) return Dim::Known(0);
  if (IsOne(b)) return a;
  if (IsOne(a)) return b;
  return Dim::Unknown();
}

Dim DimFloorDiv(const Dim& a, const Dim& b) {
  if (a.is_known() && b.is_known()) {
    if (a.value() < 0 || b.value() <= 0) return Dim::Unknown();
    return Dim::Known(a.value() / b.value());
  }
  if (IsOne(b)) return a;
  return Dim::Unknown();
}

Dim DimCeilDiv(const Dim& a, const Dim& b) {
  if (a.is_known() && b.is_known()) {
    if (a.value() < 0 || b.value() <= 0) return Dim::Unknown();
    return Dim::Known((a.value() + b.value() - 1) / b.value());
  }
  if (IsOne(b)) return a;
  return Dim::Unknown();
}

Dim DimProduct(const std::vector<Dim>& dims) {
  Dim p = Dim::Known(1);
  for (const Dim& d : dims) p = DimMul(p, d);
  return p;
}

bool DimsSurelyEqual(const Dim& a, const Dim& b) {
  if (a.is_known() && b.is_known()) return a.value() == b.value();
  if (a.is_symbolic() && b.is_symbolic()) return a.symbol() == b.symbol();
  return false;
}

bool DimsConflict(const Dim& a, const Dim& b) {
  return a.is_known() && b.is_known() && a.value() != b.value();
}

Dim MergeDims(const Dim& a, const Dim& b) {
  if (a.is_known()) return a;
  if (b.is_known()) return b;
  if (a.is_symbolic()) return a;
  return b;
}

Dim UnionDims(const Dim& a, const Dim& b) {
  if (DimsSurelyEqual(a, b)) return a;
  return Dim::Unknown();
}

std::optional<Shape> UnionShapes(const std::optional<Shape>& a, const std::optional<Shape>& b) {
  if (!a || !b || a->rank() != b->rank()) return std::nullopt;
  std::vector<Dim> dims;
  for (size_t i = 0; i < a->rank(); ++i) dims.push_back(UnionDims(a->dim(i), b->dim(i)));
  return Shape(std::move(dims));
}

ir::Type UnionTypes(const ir::Type& a, const ir::Type& b) {
  if (a.kind() != b.kind()) return ir::Type();
  switch (a.kind()) {
    case ir::Type::Kind::kTensor:
    case ir::Type::Kind::kSparseTensor: {
      if (a.elem_type() != b.elem_type()) return ir::Type();
      ir::Type t = a;
      t.set_shape(UnionShapes(a.shape(), b.shape()));
      return t;
    }
    case ir::Type::Kind::kSequence:
      if (!a.has_inner() || !b.has_inner()) return a;
      return ir::Type::Sequence(UnionTypes(a.inner(), b.inner()));
    case ir::Type::Kind::kOptional:
      if (!a.has_inner() || !b.has_inner()) return a;
      return ir::Type::Optional(UnionTypes(a.inner(), b.inner()));
    case ir::Type::Kind::kMap:
      if (a.elem_type() != b.elem_type() || !a.has_inner() || !b.has_inner()) return ir::Type();
      return ir::Type::Map(a.elem_type(), UnionTypes(a.inner(), b.inner()));
    default:
      return a == b ? a : ir::Type();
  }
}

SymbolicProduct ProductOf(const std::vector<Dim>& dims) {
  SymbolicProduct p;
  for (const Dim& d : dims) {
    if (d.is_known()) {
      if (d.value() < 0 || (d.value() != 0 && p.coefficient > kMax / d.value())) {
        p.has_unknown = true;
      } else {
        p.coefficient *= d.value();
      }
    } else if (d.is_symbolic()) {
      p.symbols.push_back(d.symbol());
    } else {
      p.has_unknown = true;
    }
  }
  std::sort(p.symbols.begin(), p.symbols.end());
  return p;
}

Dim DivideProducts(const SymbolicProduct& total, const SymbolicProduct& part) {
  if (total.has_unknown || part.has_unknown || part.coefficient == 0) return Dim::Unknown();
  if (total.coefficient % part.coefficient != 0) return Dim::Unknown();
  // Remove part's symbols from total's (both sorted multisets).
  std::vector<std::string> rest;
  size_t j = 0;
  for (const std::string& s : total.symbols) {
    if (j < part.symbols.size() && part.symbols[j] == s) {
      ++j;
    } else {
      rest.push_back(s);
    }
  }
  if (j != part.symbols.size()) return Dim::Unknown();  // part has a symbol total lacks
  int64_t c = total.coefficient / part.coefficient;
  if (rest.empty()) return Dim::Known(c);
  if (rest.size() == 1 && c == 1) return Dim::Symbolic(rest[0]);
  return Dim::Unknown();
}

absl::StatusOr<Shape> BroadcastShapes(const Shape& a, const Shape& b) {
  size_t rank = std::max(a.rank(), b.rank());
  std::vector<Dim> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    // Aligned from the right.
    Dim da = i + a.rank() >= rank ? a.dim(i + a.rank() - rank) : Dim::Known(1);
    Dim db = i + b.rank() >= rank ? b.dim(i + b.rank() - rank) : Dim::Known(1);
    if (da.is_known() && db.is_known()) {
      if (da.value() == db.value() || db.value() == 1) {
        out[i] = da;
      } else if (da.value() == 1) {
        out[i] = db;
      } else {
        return absl::InvalidArgumentError(absl::StrCat("shapes ", ir::ShapeToString(a), " and ",
                                                       ir::ShapeToString(b),
                                                       " cannot be broadcast"));
      }
    } else if (IsOne(da)) {
      out[i] = db;
    } else if (IsOne(db)) {
      out[i] = da;
    } else if (da.is_known()) {
      out[i] = da;  // the other must be 1 or equal
    } else if (db.is_known()) {
      out[i] = db;
    } else if (DimsSurelyEqual(da, db)) {
      out[i] = da;
    } else {
      out[i] = Dim::Unknown();
    }
  }
  return Shape(std::move(out));
}

std::optional<int64_t> NormalizeAxis(int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank) return std::nullopt;
  return axis < 0 ? axis + rank : axis;
}

bool IsEmptyType(const ir::Type& t) { return t.is_none(); }

ir::Type StripShapes(const ir::Type& t) {
  switch (t.kind()) {
    case ir::Type::Kind::kTensor:
      return ir::Type::Tensor(t.elem_type());
    case ir::Type::Kind::kSparseTensor:
      return ir::Type::SparseTensor(t.elem_type());
    case ir::Type::Kind::kSequence:
      return t.has_inner() ? ir::Type::Sequence(StripShapes(t.inner())) : t;
    case ir::Type::Kind::kOptional:
      return t.has_inner() ? ir::Type::Optional(StripShapes(t.inner())) : t;
    case ir::Type::Kind::kMap:
      return t.has_inner() ? ir::Type::Map(t.elem_type(), StripShapes(t.inner())) : t;
    default:
      return t;
  }
}

ir::Type MergeTypes(const ir::Type& declared, const ir::Type& inferred, std::string* conflict) {
  if (IsEmptyType(declared)) return inferred;
  if (IsEmptyType(inferred)) return declared;
  auto fail = [&](std::string why) {
    if (conflict != nullptr && conflict->empty()) {
      *conflict = absl::StrCat("declared ", declared.ToString(), " but inferred ",
                               inferred.ToString(), " (", why, ")");
    }
    return declared;
  };
  if (declared.kind() != inferred.kind()) return fail("different kinds");
  switch (declared.kind()) {
    case ir::Type::Kind::kTensor:
    case ir::Type::Kind::kSparseTensor: {
      ir::Type out = declared;
      if (declared.elem_type() == ir::DataType::kUndefined) {
        out.set_elem_type(inferred.elem_type());
      } else if (inferred.elem_type() != ir::DataType::kUndefined &&
                 inferred.elem_type() != declared.elem_type()) {
        return fail("element types differ");
      }
      if (!declared.shape()) {
        out.set_shape(inferred.shape());
        return out;
      }
      if (!inferred.shape()) return out;
      const Shape& ds = *declared.shape();
      const Shape& is = *inferred.shape();
      if (ds.rank() != is.rank()) return fail("ranks differ");
      std::vector<Dim> dims;
      for (size_t i = 0; i < ds.rank(); ++i) {
        if (DimsConflict(ds.dim(i), is.dim(i))) {
          return fail(absl::StrCat("dimension ", i, " differs"));
        }
        Dim d = MergeDims(ds.dim(i), is.dim(i));
        if (!ds.dim(i).denotation().empty()) d.set_denotation(ds.dim(i).denotation());
        dims.push_back(std::move(d));
      }
      out.set_shape(Shape(std::move(dims)));
      return out;
    }
    case ir::Type::Kind::kSequence:
    case ir::Type::Kind::kOptional: {
      if (!declared.has_inner()) return inferred;
      if (!inferred.has_inner()) return declared;
      std::string inner_conflict;
      ir::Type inner = MergeTypes(declared.inner(), inferred.inner(), &inner_conflict);
      if (!inner_conflict.empty()) return fail(inner_conflict);
      ir::Type out = declared.kind() == ir::Type::Kind::kSequence ? ir::Type::Sequence(inner)
                                                                  : ir::Type::Optional(inner);
      out.set_denotation(declared.denotation());
      return out;
    }
    case ir::Type::Kind::kMap: {
      if (declared.elem_type() != inferred.elem_type()) return fail("map key types differ");
      if (!declared.has_inner()) return inferred;
      if (!inferred.has_inner()) return declared;
      std::string inner_conflict;
      ir::Type inner = MergeTypes(declared.inner(), inferred.inner(), &inner_conflict);
      if (!inner_conflict.empty()) return fail(inner_conflict);
      ir::Type out = ir::Type::Map(declared.elem_type(), inner);
      out.set_denotation(declared.denotation());
      return out;
    }
    default:
      return declared;
  }
}

namespace {

// Whether the tensor's raw bytes hold exactly `n` elements of `size` bytes.
std::optional<size_t> RawCount(const ir::Tensor& t, size_t size) {
  auto n = t.num_elements();
  if (!n || t.raw_size() != *n * size) return std::nullopt;
  if (*n != 0 && t.raw_data() == nullptr) return std::nullopt;
  return static_cast<size_t>(*n);
}

template <typename T>
std::optional<std::vector<int64_t>> ReadInts(const ir::Tensor& t) {
  auto n = RawCount(t, sizeof(T));
  if (!n) return std::nullopt;
  std::vector<int64_t> out(*n);
  for (size_t i = 0; i < *n; ++i) out[i] = static_cast<int64_t>(t.at<T>(i));
  return out;
}

}  // namespace

std::optional<std::vector<int64_t>> TensorToInts(const ir::Tensor& t) {
  switch (t.data_type()) {
    case ir::DataType::kInt64:
      return ReadInts<int64_t>(t);
    case ir::DataType::kInt32:
      return ReadInts<int32_t>(t);
    case ir::DataType::kInt16:
      return ReadInts<int16_t>(t);
    case ir::DataType::kInt8:
      return ReadInts<int8_t>(t);
    case ir::DataType::kUint8:
    case ir::DataType::kBool:
      return ReadInts<uint8_t>(t);
    case ir::DataType::kUint16:
      return ReadInts<uint16_t>(t);
    case ir::DataType::kUint32:
      return ReadInts<uint32_t>(t);
    case ir::DataType::kUint64: {
      auto n = RawCount(t, 8);
      if (!n) return std::nullopt;
      std::vector<int64_t> out(*n);
      for (size_t i = 0; i < *n; ++i) {
        uint64_t v = t.at<uint64_t>(i);
        if (v > static_cast<uint64_t>(kMax)) return std::nullopt;
        out[i] = static_cast<int64_t>(v);
      }
      return out;
    }
    default:
      return std::nullopt;
  }
}

namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

// "name(args)" -> args, if s has that form.
std::optional<std::string_view> Unwrap(std::string_view s, std::string_view name) {
  if (s.size() < name.size() + 2 || s.substr(0, name.size()) != name || s[name.size()] != '(' ||
      s.back() != ')') {
    return std::nullopt;
  }
  return Trim(s.substr(name.size() + 1, s.size() - name.size() - 2));
}

}  // namespace

std::optional<ir::Type> ParseTypeString(std::string_view s) {
  s = Trim(s);
  if (auto inner = Unwrap(s, "tensor")) {
    auto dt = ir::ParseDataTypeName(*inner);
    if (!dt) return std::nullopt;
    return ir::Type::Tensor(*dt);
  }
  if (auto inner = Unwrap(s, "sparse_tensor")) {
    auto dt = ir::ParseDataTypeName(*inner);
    if (!dt) return std::nullopt;
    return ir::Type::SparseTensor(*dt);
  }
  if (auto inner = Unwrap(s, "seq")) {
    auto elem = ParseTypeString(*inner);
    if (!elem) return std::nullopt;
    return ir::Type::Sequence(*elem);
  }
  if (auto inner = Unwrap(s, "optional")) {
    auto elem = ParseTypeString(*inner);
    if (!elem) return std::nullopt;
    return ir::Type::Optional(*elem);
  }
  if (auto inner = Unwrap(s, "map")) {
    size_t comma = inner->find(',');
    if (comma == std::string_view::npos) return std::nullopt;
    auto key = ir::ParseDataTypeName(Trim(inner->substr(0, comma)));
    auto value = ParseTypeString(inner->substr(comma + 1));
    if (!key || !value) return std::nullopt;
    return ir::Type::Map(*key, *value);
  }
  return std::nullopt;
}

}  // namespace onnx_opt::schema::inference
