#ifndef ONNX_OPT_SCHEMA_OP_REGISTRY_H_
#define ONNX_OPT_SCHEMA_OP_REGISTRY_H_

// Lookup of operator schemas by (domain, op_type, version). An operator's schemas are built from
// its table in schema/defs/ on its first lookup (thread-safe) and never change afterwards; returned
// pointers live forever.
//
// Domains may be given as "" or "ai.onnx" for the default domain; schemas always report "ai.onnx".

#include <cstdint>
#include <string_view>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "schema/op_schema.h"

namespace onnx_opt::schema {

// Every schema, sorted by (domain, op_type, since_version). Builds every operator: for tests and
// listings, not for lookups.
absl::Span<const OpSchema* const> AllSchemas();

// The schema declared with exactly this since_version, or nullptr.
const OpSchema* Find(std::string_view domain, std::string_view op_type, int since_version);

// The schema in force at `opset` of `domain`: the one with the largest since_version <= opset.
//
// A deprecated schema marks the operator's removal: from its since_version on, the operator is not
// defined (ONNX's checker rejects nodes whose in-force schema is deprecated), until a later
// non-deprecated version defines it again (GroupNormalization: 18 deprecated, 21 defined again).
// Errors:
//   InvalidArgument  opset outside 1..MaxOpset(domain)
//                    (an open domain's opsets above its newest are read as its newest: domains.h)
//   NotFound         unknown domain or operator, "operator Foo is not defined in domain ai.onnx at
//                    opset 5 (introduced at opset 7)", "... (removed at opset 10)"
absl::StatusOr<const OpSchema*> FindInForce(std::string_view domain, std::string_view op_type,
                                            int64_t opset);

// The since_versions of an operator, ascending (deprecated ones included); empty if unknown.
absl::Span<const int> Versions(std::string_view domain, std::string_view op_type);

// The newest opset of a domain we have schemas for (ai.onnx: 28). NotFound for other domains.
absl::StatusOr<int> MaxOpset(std::string_view domain);

}  // namespace onnx_opt::schema

#endif  // ONNX_OPT_SCHEMA_OP_REGISTRY_H_
