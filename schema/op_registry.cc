#include "schema/op_registry.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "absl/base/call_once.h"
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
    {kOnnxDomain, 28},   {kMlDomain, 5},        {kPreviewTrainingDomain, 1},
    {kPreviewDomain, 1}, {kMicrosoftDomain, 1},
};

// Debian's abseil has its own string_view type; convert at the StrCat boundary.
absl::string_view Sv(std::string_view s) { return absl::string_view(s.data(), s.size()); }

// Lets the maps below be searched with a std::string_view.
struct StringHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
};
struct StringEq {
  using is_transparent = void;
  bool operator()(std::string_view a, std::string_view b) const { return a == b; }
};
template <typename V>
using StringViewMap = absl::flat_hash_map<std::string_view, V, StringHash, StringEq>;

// All versions of one operator. Its table function runs on the operator's first lookup: a tool run
// meets a few dozen operators of the ~230, and building all of them was most of a small model's
// check.
struct OpEntry {
  std::string_view domain;
  defs::OpDefinition definition;
  absl::once_flag built;
  // Set once by Build, oldest first.
  std::vector<OpSchema> schemas;
  std::vector<int> versions;
};

// The index of the tables: views of their string literals, no schema built.
struct Registry {
  std::vector<std::unique_ptr<OpEntry>> entries;
  // domain -> op_type -> entry.
  StringViewMap<StringViewMap<OpEntry*>> ops;
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

void Build(OpEntry& entry) {
  defs::SchemaSink sink(entry.domain, entry.schemas);
  entry.definition.define(sink);
  std::stable_sort(
      entry.schemas.begin(), entry.schemas.end(),
      [](const OpSchema& a, const OpSchema& b) { return a.since_version() < b.since_version(); });
  for (size_t i = 0; i < entry.schemas.size(); ++i) {
    const OpSchema& s = entry.schemas[i];
    if (s.op_type() != entry.definition.op_type) {
      defs::TableError(s,
                       absl::StrCat("declared by the table row of ", Sv(entry.definition.op_type)));
    }
    if (i > 0 && entry.schemas[i - 1].since_version() == s.since_version())
      defs::TableError(s, "defined twice");
    Validate(s);
    entry.versions.push_back(s.since_version());
  }
}

const Registry* BuildRegistry() {
  auto* r = new Registry;
  for (const defs::DomainOpDefinition& d : defs::AllOpDefinitions()) {
    auto entry = std::make_unique<OpEntry>();
    entry->domain = d.domain;
    entry->definition = d.op;
    auto [it, inserted] = r->ops[d.domain].emplace(d.op.op_type, entry.get());
    if (!inserted) {
      std::fprintf(stderr, "schema table error: %.*s is listed twice in domain %.*s\n",
                   static_cast<int>(d.op.op_type.size()), d.op.op_type.data(),
                   static_cast<int>(d.domain.size()), d.domain.data());
      std::abort();
    }
    r->entries.push_back(std::move(entry));
  }
  return r;
}

// Built on first use, never destroyed (schemas are handed out as raw pointers).
const Registry& GetRegistry() {
  static const Registry* const registry = BuildRegistry();
  return *registry;
}

const OpEntry& Built(OpEntry& entry) {
  absl::call_once(entry.built, Build, std::ref(entry));
  return entry;
}

const OpEntry* FindOp(std::string_view domain, std::string_view op_type) {
  const Registry& r = GetRegistry();
  auto d = r.ops.find(CanonicalDomain(domain));
  if (d == r.ops.end()) return nullptr;
  auto op = d->second.find(op_type);
  return op == d->second.end() ? nullptr : &Built(*op->second);
}

}  // namespace

absl::Span<const OpSchema* const> AllSchemas() {
  static const std::vector<const OpSchema*>* const all = [] {
    auto* schemas = new std::vector<const OpSchema*>;
    for (const std::unique_ptr<OpEntry>& entry : GetRegistry().entries) {
      for (const OpSchema& s : Built(*entry).schemas) schemas->push_back(&s);
    }
    std::sort(schemas->begin(), schemas->end(), [](const OpSchema* a, const OpSchema* b) {
      auto key = [](const OpSchema* s) {
        return std::tuple<const std::string&, const std::string&, int>(s->domain(), s->op_type(),
                                                                       s->since_version());
      };
      return key(a) < key(b);
    });
    return schemas;
  }();
  return *all;
}

const OpSchema* Find(std::string_view domain, std::string_view op_type, int since_version) {
  const OpEntry* op = FindOp(domain, op_type);
  if (op == nullptr) return nullptr;
  auto it = std::lower_bound(op->versions.begin(), op->versions.end(), since_version);
  if (it == op->versions.end() || *it != since_version) return nullptr;
  return &op->schemas[it - op->versions.begin()];
}

absl::StatusOr<const OpSchema*> FindInForce(std::string_view domain, std::string_view op_type,
                                            int64_t opset) {
  domain = CanonicalDomain(domain);
  absl::StatusOr<int> max_opset = MaxOpset(domain);
  if (!max_opset.ok()) {
    return absl::NotFoundError(absl::StrCat("operator ", Sv(op_type),
                                            " is not defined: unknown domain '", Sv(domain), "'"));
  }
  // An open domain's newer opsets are read as its newest known one (com.microsoft has only opset
  // 1).
  if (IsOpenDomain(domain) && opset > *max_opset) opset = *max_opset;
  if (opset < 1 || opset > *max_opset) {
    return absl::InvalidArgumentError(absl::StrCat("opset ", opset, " of domain ", Sv(domain),
                                                   " is not one we know (1 to ", *max_opset, ")"));
  }
  // Built only on the error paths: this lookup runs once per node in every check.
  const auto not_defined = [&] {
    return absl::StrCat("operator ", Sv(op_type), " is not defined in domain ", Sv(domain),
                        " at opset ", opset);
  };
  const OpEntry* op = FindOp(domain, op_type);
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
  const OpSchema* schema = &op->schemas[index];
  if (schema->deprecated()) {
    std::string why = absl::StrCat(" (removed at opset ", schema->since_version());
    for (size_t later = index + 1; later < op->schemas.size(); ++later) {
      if (!op->schemas[later].deprecated()) {
        absl::StrAppend(&why, ", defined again at opset ", op->versions[later]);
        break;
      }
    }
    return absl::NotFoundError(absl::StrCat(not_defined(), why, ")"));
  }
  return schema;
}

absl::Span<const int> Versions(std::string_view domain, std::string_view op_type) {
  const OpEntry* op = FindOp(domain, op_type);
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
