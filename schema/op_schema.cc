#include "schema/op_schema.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "schema/domains.h"

namespace onnx_opt::schema {

std::string_view AttrTypeName(AttrType type) {
  switch (type) {
    case AttrType::kFloat:
      return "FLOAT";
    case AttrType::kInt:
      return "INT";
    case AttrType::kString:
      return "STRING";
    case AttrType::kTensor:
      return "TENSOR";
    case AttrType::kGraph:
      return "GRAPH";
    case AttrType::kFloats:
      return "FLOATS";
    case AttrType::kInts:
      return "INTS";
    case AttrType::kStrings:
      return "STRINGS";
    case AttrType::kTensors:
      return "TENSORS";
    case AttrType::kGraphs:
      return "GRAPHS";
    case AttrType::kSparseTensor:
      return "SPARSE_TENSOR";
    case AttrType::kSparseTensors:
      return "SPARSE_TENSORS";
    case AttrType::kTypeProto:
      return "TYPE_PROTO";
    case AttrType::kTypeProtos:
      return "TYPE_PROTOS";
    case AttrType::kUndefined:
      break;
  }
  return "UNDEFINED";
}

OpSchema::OpSchema(std::string_view domain, std::string_view op_type, int since_version)
    : domain_(CanonicalDomain(domain)), op_type_(op_type), since_version_(since_version) {}

const AttributeSpec* OpSchema::FindAttribute(std::string_view name) const {
  auto it = std::lower_bound(attributes_.begin(), attributes_.end(), name,
                             [](const AttributeSpec& a, std::string_view n) { return a.name < n; });
  return it != attributes_.end() && it->name == name ? &*it : nullptr;
}

const TypeConstraintSpec* OpSchema::FindTypeConstraint(std::string_view param) const {
  for (const TypeConstraintSpec& tc : type_constraints_) {
    if (tc.param == param) return &tc;
  }
  return nullptr;
}

std::string OpSchema::DebugName() const {
  return absl::StrCat(domain_, "::", op_type_, "-", since_version_);
}

}  // namespace onnx_opt::schema
