#include "schema/op_registry.h"

#include <algorithm>
#include <functional>
#include <string>
#include <tuple>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "schema/defs/defs.h"
#include "schema/defs/dsl.h"
#include "schema/domains.h"

namespace onnx_opt::schema {
namespace {

// The newest opset of each domain. Bump it when a new opset is added, even one that adds no
// operator of its own; the table test checks it against the reference.
struct DomainOpsets {
  std::string_view domain;
  int max_opset;
};
constexpr DomainOpsets kDomainOpsets[] = {
    {kOnnxDomain, 28},
    {kMlDomain, 5},
    {kPreviewTrainingDomain, 1},
    {kPreviewDomain, 1},
};

// Debian's abseil has its own string_view type; convert at the StrCat boundary.
absl::string_view Sv(std::string_view s) { return absl::string_view(s.data(), s.size()); }

// Lets the maps below be searched with a std::string_view without building a std::string.
struct StringHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
};
struct StringEq {
  using is_transparent = void;
  bool operator()(std::string_view a, std::string_view b) const { return a == b; }
};
template <typename V>
using StringMap = absl::flat_hash_map<std::string, V, StringHash, StringEq>;

// All versions of one operator, oldest first.
struct OpVersions {
  std::vector<int> versions;
  std::vector<const OpSchema*> schemas;
};

struct Registry {
  std::vector<OpSchema> schemas;
  // domain -> op_type -> versions.
  StringMap<StringMap<OpVersions>> ops;
};

// Catches table mistakes that a single OpBuilder call cannot see.
void Validate(const OpSchema& schema) {
  for (const auto* params : {&schema.inputs(), &schema.outputs()}) {
    for (const FormalParameter& p : *params) {
      // A parameter names a type constraint ("T") or spells a type ("tensor(int64)").
      if (p.type_str.find('(') == std::string::npos &&
          schema.FindTypeConstraint(p.type_str) == nullptr) {
        defs::TableError(schema, absl::StrCat("parameter '", p.name, "' has type '", p.type_str,
                                              "', which is neither a type nor a constraint"));
      }
    }
  }
  bool known_domain = false;
  for (const DomainOpsets& d : kDomainOpsets) {
    if (d.domain == schema.domain()) {
      known_domain = true;
      if (schema.since_version() < 1 || schema.since_version() > d.max_opset) {
        defs::TableError(schema, absl::StrCat("since_version is outside opsets 1..", d.max_opset,
                                              " of its domain"));
      }
    }
  }
  if (!known_domain) defs::TableError(schema, "domain is missing from kDomainOpsets");
}

const Registry* BuildRegistry() {
  auto* r = new Registry;
  std::vector<OpSchema> built;
  defs::AddAllSchemas(built);
  auto key = [](const OpSchema& s) {
    return std::tuple<const std::string&, const std::string&, int>(s.domain(), s.op_type(),
                                                                    s.since_version());
  };
  // Sorted through pointers, then moved once each: sorting the schemas themselves moved each
  // one a dozen times.
  std::vector<OpSchema*> order;
  order.reserve(built.size());
  for (OpSchema& s : built) order.push_back(&s);
  std::sort(order.begin(), order.end(), [&](const OpSchema* a, const OpSchema* b) { return key(*a) < key(*b); });
  r->schemas.reserve(built.size());
  for (OpSchema* s : order) r->schemas.push_back(std::move(*s));
  for (size_t i = 0; i < r->schemas.size(); ++i) {
    const OpSchema& s = r->schemas[i];
    if (i > 0 && key(r->schemas[i - 1]) == key(s)) defs::TableError(s, "defined twice");
    Validate(s);
    OpVersions& v = r->ops[s.domain()][s.op_type()];
    v.versions.push_back(s.since_version());
    v.schemas.push_back(&s);
  }
  return r;
}

// Built on first use, never destroyed (schemas are handed out as raw pointers).
const Registry& GetRegistry() {
  static const Registry* const registry = BuildRegistry();
  return *registry;
}

const OpVersions* FindOp(std::string_view domain, std::string_view op_type) {
  const Registry& r = GetRegistry();
  auto d = r.ops.find(CanonicalDomain(domain));
  if (d == r.ops.end()) return nullptr;
  auto op = d->second.find(op_type);
  return op == d->second.end() ? nullptr : &op->second;
}

}  // namespace

absl::Span<const OpSchema> AllSchemas() { return GetRegistry().schemas; }

const OpSchema* Find(std::string_view domain, std::string_view op_type, int since_version) {
  const OpVersions* op = FindOp(domain, op_type);
  if (op == nullptr) return nullptr;
  auto it = std::lower_bound(op->versions.begin(), op->versions.end(), since_version);
  if (it == op->versions.end() || *it != since_version) return nullptr;
  return op->schemas[it - op->versions.begin()];
}

absl::StatusOr<const OpSchema*> FindInForce(std::string_view domain, std::string_view op_type,
                                            int64_t opset) {
  domain = CanonicalDomain(domain);
  absl::StatusOr<int> max_opset = MaxOpset(domain);
  if (!max_opset.ok()) {
    return absl::NotFoundError(absl::StrCat("operator ", Sv(op_type),
                                            " is not defined: unknown domain '", Sv(domain), "'"));
  }
  if (opset < 1 || opset > *max_opset) {
    return absl::InvalidArgumentError(absl::StrCat("opset ", opset, " of domain ", Sv(domain),
                                                   " is not one we know (1 to ", *max_opset,
                                                   ")"));
  }
  // Built only on the error paths: this lookup runs once per node in every check.
  const auto not_defined = [&] {
    return absl::StrCat("operator ", Sv(op_type), " is not defined in domain ", Sv(domain), " at opset ", opset);
  };
  const OpVersions* op = FindOp(domain, op_type);
  if (op == nullptr) {
    return absl::NotFoundError(
        absl::StrCat("operator ", Sv(op_type), " is not defined in domain ", Sv(domain)));
  }
  // First version above opset; the one before it is in force.
  auto it = std::upper_bound(op->versions.begin(), op->versions.end(), opset);
  if (it == op->versions.begin()) {
    return absl::NotFoundError(
        absl::StrCat(not_defined(), " (introduced at opset ", op->versions.front(), ")"));
  }
  const size_t index = (it - op->versions.begin()) - 1;
  const OpSchema* schema = op->schemas[index];
  if (schema->deprecated()) {
    std::string why = absl::StrCat(" (removed at opset ", schema->since_version());
    for (size_t later = index + 1; later < op->schemas.size(); ++later) {
      if (!op->schemas[later]->deprecated()) {
        absl::StrAppend(&why, ", defined again at opset ", op->versions[later]);
        break;
      }
    }
    return absl::NotFoundError(absl::StrCat(not_defined(), why, ")"));
  }
  return schema;
}

absl::Span<const int> Versions(std::string_view domain, std::string_view op_type) {
  const OpVersions* op = FindOp(domain, op_type);
  if (op == nullptr) return {};
  return op->versions;
}

absl::StatusOr<int> MaxOpset(std::string_view domain) {
  domain = CanonicalDomain(domain);
  for (const DomainOpsets& d : kDomainOpsets) {
    if (d.domain == domain) return d.max_opset;
  }
  return absl::NotFoundError(absl::StrCat("no operator schemas for domain '", Sv(domain), "'"));
}

}  // namespace onnx_opt::schema
