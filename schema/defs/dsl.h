#ifndef ONNX_OPT_SCHEMA_DEFS_DSL_H_
#define ONNX_OPT_SCHEMA_DEFS_DSL_H_

// The small language the operator tables in schema/defs/*.cc are written in:
//
//   s.Op("Conv", 22)
//       .Input("X", "T", kDiff)
//       .Input("B", "T", kOptional | kDiff)
//       .Output("Y", "T", kDiff)
//       .Attr("auto_pad", kString, "NOTSET")
//       .Attr("kernel_shape", kInts)
//       .TypeConstraint("T", kFloatTensorsIr4);
//
// Mistakes in a table (a default of the wrong type, a duplicate attribute, an input after a
// variadic one) are programming errors: they abort at start-up with a message naming the schema.

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/types/span.h"
#include "schema/op_schema.h"

namespace onnx_opt::schema::defs {

// Attribute types by their short names (kInt, kFloats, ...).
using enum ir::AttributeKind;

// How a formal input or output is declared; combine with `|`. No flag means a single value whose
// differentiability is not stated.
enum ParamFlags : uint32_t {
  kSingle = 0,
  kOptional = 1u << 0,
  kVariadic = 1u << 1,
  kHeterogeneous = 1u << 2,  // variadic values may differ in type
  kDiff = 1u << 3,           // differentiable
  kNonDiff = 1u << 4,        // not differentiable
};
constexpr ParamFlags operator|(ParamFlags a, ParamFlags b) {
  return static_cast<ParamFlags>(static_cast<uint32_t>(a) | static_cast<uint32_t>(b));
}

// Marks an attribute as required: `.Attr("to", kInt, kRequired)`.
struct RequiredTag {};
inline constexpr RequiredTag kRequired;

// An attribute default as written in a table: 0, 1.0f, "NOTSET", {0, 2, 3}, {"Tanh", "Tanh"}.
// OpBuilder::Attr checks it against the attribute's type.
struct AttrDefault {
  AttrDefault(int v) : value(int64_t{v}) {}
  AttrDefault(int64_t v) : value(v) {}
  AttrDefault(float v) : value(v) {}
  AttrDefault(const char* v) : value(std::string(v)) {}
  AttrDefault(std::initializer_list<int64_t> v) : value(std::vector<int64_t>(v)) {}
  AttrDefault(std::initializer_list<std::string_view> v)
      : value(std::vector<std::string>(v.begin(), v.end())) {}
  AttrDefault(std::vector<float> v) : value(std::move(v)) {}

  AttrValue value;
};

// A list of allowed types, e.g. a named list from type_lists.h or an inline
// {"tensor(float)", "tensor(double)"}.
using TypeList = absl::Span<const std::string_view>;

// Concatenates type lists and single types: Join(kFloatTensors, "tensor(int8)").
void AppendTypes(std::vector<std::string_view>& out, TypeList types);
void AppendTypes(std::vector<std::string_view>& out, std::string_view type);
template <typename... Parts>
std::vector<std::string_view> Join(const Parts&... parts) {
  std::vector<std::string_view> out;
  (AppendTypes(out, parts), ...);
  return out;
}

// Fills one OpSchema; returned by SchemaSink::Op and only used within one statement.
class OpBuilder {
 public:
  explicit OpBuilder(OpSchema& schema) : schema_(schema) {}

  OpBuilder& Input(std::string_view name, std::string_view type, ParamFlags flags = kSingle,
                   int min_arity = 1);
  OpBuilder& Output(std::string_view name, std::string_view type, ParamFlags flags = kSingle,
                    int min_arity = 1);

  // Optional attribute without a default.
  OpBuilder& Attr(std::string_view name, AttrType type);
  OpBuilder& Attr(std::string_view name, AttrType type, RequiredTag);
  OpBuilder& Attr(std::string_view name, AttrType type, AttrDefault default_value);

  OpBuilder& TypeConstraint(std::string_view param, TypeList allowed);

  OpBuilder& Deprecated();
  OpBuilder& HasFunctionBody();

 private:
  OpBuilder& AddParam(std::vector<FormalParameter>& params, int& min, int& max,
                      std::string_view name, std::string_view type, ParamFlags flags,
                      int min_arity);
  OpBuilder& AddAttr(AttributeSpec attr);

  OpSchema& schema_;
};

// Collects the schemas of one domain: `s.Op("Abs", 13)...;`.
class SchemaSink {
 public:
  SchemaSink(std::string_view domain, std::vector<OpSchema>& out) : domain_(domain), out_(out) {}

  OpBuilder Op(std::string_view op_type, int since_version) {
    return OpBuilder(out_.emplace_back(domain_, op_type, since_version));
  }

 private:
  std::string_view domain_;
  std::vector<OpSchema>& out_;
};

// One operator of a family table: `{"Abs", DefineAbs}`, the function declaring all of its versions.
// A new operator is a Define function and a row in its family's table; the registry runs the
// function only when the operator is first looked up, so a run pays for the operators it meets.
struct OpDefinition {
  std::string_view op_type;
  void (*define)(SchemaSink& s);
};

// Aborts with a message naming the schema; for mistakes in the tables only.
[[noreturn]] void TableError(const OpSchema& schema, std::string_view what);

}  // namespace onnx_opt::schema::defs

#endif  // ONNX_OPT_SCHEMA_DEFS_DSL_H_
