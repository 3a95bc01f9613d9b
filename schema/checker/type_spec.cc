#include "schema/checker/type_spec.h"

#include <optional>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"

namespace onnx_opt::schema::checker {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

// If `s` is "<prefix>(<body>)", the body.
std::optional<std::string_view> Wrapped(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size() + 2 || s.substr(0, prefix.size()) != prefix ||
      s[prefix.size()] != '(' || s.back() != ')') {
    return std::nullopt;
  }
  return Trim(s.substr(prefix.size() + 1, s.size() - prefix.size() - 2));
}

std::unique_ptr<TypeSpec> Parse(std::string_view s) {
  s = Trim(s);
  auto spec = std::make_unique<TypeSpec>();
  auto elem_of = [&](std::string_view body, TypeSpec::Kind kind) -> std::unique_ptr<TypeSpec> {
    std::optional<ir::DataType> t = ir::ParseDataTypeName(body);
    if (!t.has_value() || *t == ir::DataType::kUndefined) return nullptr;
    spec->kind = kind;
    spec->elem = *t;
    return std::move(spec);
  };
  if (auto body = Wrapped(s, "tensor")) return elem_of(*body, TypeSpec::Kind::kTensor);
  if (auto body = Wrapped(s, "sparse_tensor")) return elem_of(*body, TypeSpec::Kind::kSparseTensor);
  for (auto [prefix, kind] : {std::pair{"seq", TypeSpec::Kind::kSequence},
                              std::pair{"sequence", TypeSpec::Kind::kSequence},
                              std::pair{"optional", TypeSpec::Kind::kOptional}}) {
    if (auto body = Wrapped(s, prefix)) {
      spec->kind = kind;
      spec->inner = Parse(*body);
      return spec->inner ? std::move(spec) : nullptr;
    }
  }
  if (auto body = Wrapped(s, "map")) {
    const size_t comma = body->find(',');
    if (comma == std::string_view::npos) return nullptr;
    std::optional<ir::DataType> key = ir::ParseDataTypeName(Trim(body->substr(0, comma)));
    if (!key.has_value()) return nullptr;
    spec->kind = TypeSpec::Kind::kMap;
    spec->elem = *key;
    spec->inner = Parse(body->substr(comma + 1));
    return spec->inner ? std::move(spec) : nullptr;
  }
  return elem_of(s, TypeSpec::Kind::kTensor);  // "float": a tensor of float
}

bool ElemMatches(ir::DataType known_or_undefined, ir::DataType expected) {
  return known_or_undefined == ir::DataType::kUndefined || known_or_undefined == expected;
}

bool ElemCompatible(ir::DataType a, ir::DataType b) {
  return a == ir::DataType::kUndefined || b == ir::DataType::kUndefined || a == b;
}

}  // namespace

const TypeSpec* ParseTypeSpec(std::string_view text) {
  static absl::Mutex mu(absl::kConstInit);
  // Never destroyed: the specs are handed out as raw pointers.
  static auto* cache = new absl::flat_hash_map<std::string, std::unique_ptr<TypeSpec>>();
  // Looked up by view (every node check asks, most often for the same few types); copied on insert.
  const absl::string_view key(text.data(), text.size());
  absl::MutexLock lock(&mu);
  auto it = cache->find(key);
  if (it == cache->end()) it = cache->emplace(std::string(text), Parse(text)).first;
  return it->second.get();
}

bool Matches(const TypeSpec& spec, const ir::Type& t) {
  using K = ir::Type::Kind;
  switch (t.kind()) {
    case K::kNone:
      return true;
    case K::kTensor:
      return spec.kind == TypeSpec::Kind::kTensor && ElemMatches(t.elem_type(), spec.elem);
    case K::kSparseTensor:
      return spec.kind == TypeSpec::Kind::kSparseTensor && ElemMatches(t.elem_type(), spec.elem);
    case K::kSequence:
      return spec.kind == TypeSpec::Kind::kSequence &&
             (!t.has_inner() || Matches(*spec.inner, t.inner()));
    case K::kOptional:
      return spec.kind == TypeSpec::Kind::kOptional &&
             (!t.has_inner() || Matches(*spec.inner, t.inner()));
    case K::kMap:
      return spec.kind == TypeSpec::Kind::kMap && ElemMatches(t.elem_type(), spec.elem) &&
             (!t.has_inner() || Matches(*spec.inner, t.inner()));
    case K::kOpaque:
      return false;  // no schema names an opaque type
  }
  return false;
}

bool Compatible(const ir::Type& a, const ir::Type& b) {
  using K = ir::Type::Kind;
  if (a.is_none() || b.is_none()) return true;
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case K::kTensor:
    case K::kSparseTensor:
      return ElemCompatible(a.elem_type(), b.elem_type());
    case K::kSequence:
    case K::kOptional:
      return !a.has_inner() || !b.has_inner() || Compatible(a.inner(), b.inner());
    case K::kMap:
      return ElemCompatible(a.elem_type(), b.elem_type()) &&
             (!a.has_inner() || !b.has_inner() || Compatible(a.inner(), b.inner()));
    case K::kOpaque:
      return a.opaque_domain() == b.opaque_domain() && a.opaque_name() == b.opaque_name();
    case K::kNone:
      return true;
  }
  return true;
}

bool IsFullyKnown(const ir::Type& t) {
  using K = ir::Type::Kind;
  switch (t.kind()) {
    case K::kNone:
      return false;
    case K::kTensor:
    case K::kSparseTensor:
      return t.elem_type() != ir::DataType::kUndefined;
    case K::kSequence:
    case K::kOptional:
      return t.has_inner() && IsFullyKnown(t.inner());
    case K::kMap:
      return t.elem_type() != ir::DataType::kUndefined && t.has_inner() && IsFullyKnown(t.inner());
    case K::kOpaque:
      return true;
  }
  return false;
}

std::string TypeName(const ir::Type& t) {
  using K = ir::Type::Kind;
  auto elem = [](ir::DataType d) {
    return d == ir::DataType::kUndefined ? std::string("?") : ir::DataTypeName(d);
  };
  auto inner = [&]() { return t.has_inner() ? TypeName(t.inner()) : std::string("?"); };
  switch (t.kind()) {
    case K::kNone:
      return "?";
    case K::kTensor:
      return absl::StrCat("tensor(", elem(t.elem_type()), ")");
    case K::kSparseTensor:
      return absl::StrCat("sparse_tensor(", elem(t.elem_type()), ")");
    case K::kSequence:
      return absl::StrCat("seq(", inner(), ")");
    case K::kOptional:
      return absl::StrCat("optional(", inner(), ")");
    case K::kMap:
      return absl::StrCat("map(", elem(t.elem_type()), ",", inner(), ")");
    case K::kOpaque:
      return absl::StrCat("opaque(", t.opaque_domain(), ",", t.opaque_name(), ")");
  }
  return "?";
}

}  // namespace onnx_opt::schema::checker
