#ifndef ONNX_OPT_SCHEMA_OP_SCHEMA_H_
#define ONNX_OPT_SCHEMA_OP_SCHEMA_H_

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "ir/attribute_kind.h"
#include "ir/data_type.h"

namespace onnx_opt::schema {

namespace defs {
class OpBuilder;  // The only writer of OpSchema (schema/defs/dsl.h).
}  // namespace defs

// max_input()/max_output() of an operator whose last parameter is variadic.
inline constexpr int kUnbounded = std::numeric_limits<int>::max();

enum class ParamOption { kSingle, kOptional, kVariadic };

enum class Differentiability { kUnknown, kDifferentiable, kNonDifferentiable };

// One formal input or output of an operator.
struct FormalParameter {
  std::string name;
  // A type constraint parameter ("T") or a concrete type ("tensor(int64)", "seq(tensor(float))").
  std::string type_str;
  // X when type_str is the concrete type "tensor(X)"; kUndefined otherwise.
  ir::DataType tensor_elem_type = ir::DataType::kUndefined;
  ParamOption option = ParamOption::kSingle;
  // For variadic parameters: whether all values must have the same type.
  bool homogeneous = true;
  // For variadic parameters: the minimum number of values.
  int min_arity = 1;
  Differentiability differentiability = Differentiability::kUnknown;
};

// An attribute's type: the IR's own enum (numbered as AttributeProto.AttributeType), so a node's
// attribute and its schema entry compare directly.
using AttrType = ir::AttributeKind;

// "FLOAT", "INTS", ... as in AttributeProto; "UNDEFINED" for anything else.
std::string_view AttrTypeName(AttrType type);

// An attribute default. ONNX only gives defaults to scalar and list attributes of int, float and
// string; FLOAT defaults are float32 as in AttributeProto.
using AttrValue = std::variant<std::monostate, int64_t, float, std::string, std::vector<int64_t>,
                               std::vector<float>, std::vector<std::string>>;

struct AttributeSpec {
  std::string name;
  AttrType type = AttrType::kUndefined;
  bool required = false;
  AttrValue default_value;  // std::monostate when there is no default.

  bool has_default() const { return !std::holds_alternative<std::monostate>(default_value); }
};

struct TypeConstraintSpec {
  std::string param;  // "T"
  // "tensor(float)", "seq(tensor(int64))", ... in ONNX's order; views of the string literals in the
  // tables of schema/defs/, which are the only place schemas are built.
  std::vector<std::string_view> allowed;
  // Bit d is set when "tensor(<element type d>)" is in `allowed`: the checker tests a tensor value
  // (nearly every value it meets) with one bit instead of parsing the strings.
  uint64_t tensor_elem_types = 0;

  bool AllowsTensorOf(ir::DataType elem) const {
    const auto d = static_cast<uint32_t>(elem);
    return d < 64 && (tensor_elem_types >> d & 1) != 0;
  }
};

// What one version of one operator is: the facts ONNX's OpSchema declares, without documentation,
// inference or function bodies. Schemas are built by the tables in schema/defs/ and handed out as
// `const OpSchema*` by the registry (schema/op_registry.h), so they never change after start-up.
class OpSchema {
 public:
  OpSchema(std::string_view domain, std::string_view op_type, int since_version);

  // Canonical domain: "ai.onnx" (never ""), "ai.onnx.ml", ...
  const std::string& domain() const { return domain_; }
  const std::string& op_type() const { return op_type_; }
  int since_version() const { return since_version_; }
  // A deprecated schema marks the operator as removed from this version on.
  bool deprecated() const { return deprecated_; }
  // The operator is defined by a function body (it can be expanded into other operators).
  bool has_function_body() const { return has_function_body_; }

  const std::vector<FormalParameter>& inputs() const { return inputs_; }
  const std::vector<FormalParameter>& outputs() const { return outputs_; }
  // Arity bounds derived from the formal parameters the way ONNX does; max is kUnbounded when the
  // last parameter is variadic.
  int min_input() const { return min_input_; }
  int max_input() const { return max_input_; }
  int min_output() const { return min_output_; }
  int max_output() const { return max_output_; }

  // Sorted by name.
  const std::vector<AttributeSpec>& attributes() const { return attributes_; }
  const AttributeSpec* FindAttribute(std::string_view name) const;

  // In declaration order.
  const std::vector<TypeConstraintSpec>& type_constraints() const { return type_constraints_; }
  const TypeConstraintSpec* FindTypeConstraint(std::string_view param) const;

  // "ai.onnx::Abs-13", for messages.
  std::string DebugName() const;

 private:
  friend class defs::OpBuilder;

  std::string domain_;
  std::string op_type_;
  int since_version_;
  bool deprecated_ = false;
  bool has_function_body_ = false;
  std::vector<FormalParameter> inputs_;
  std::vector<FormalParameter> outputs_;
  int min_input_ = 0;
  int max_input_ = 0;
  int min_output_ = 0;
  int max_output_ = 0;
  std::vector<AttributeSpec> attributes_;
  std::vector<TypeConstraintSpec> type_constraints_;
};

}  // namespace onnx_opt::schema

#endif  // ONNX_OPT_SCHEMA_OP_SCHEMA_H_
