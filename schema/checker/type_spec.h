// Types as operator schemas spell them ("tensor(float)", "seq(tensor(int64))", "map(int64, float)",
// "optional(seq(tensor(bool)))"), matched against the IR's value types. Unknown parts of a value's
// type (an untyped value, a tensor without element type, a sequence of unknown elements) match
// anything: the checker does not guess.
#ifndef ONNX_OPT_SCHEMA_CHECKER_TYPE_SPEC_H_
#define ONNX_OPT_SCHEMA_CHECKER_TYPE_SPEC_H_

#include <memory>
#include <string>
#include <string_view>

#include "ir/data_type.h"
#include "ir/type.h"

namespace onnx_opt::schema::checker {

struct TypeSpec {
  enum class Kind { kTensor, kSparseTensor, kSequence, kMap, kOptional };
  Kind kind = Kind::kTensor;
  ir::DataType elem = ir::DataType::kUndefined;  // tensor / sparse tensor element; map key
  std::unique_ptr<TypeSpec> inner;               // sequence / optional element; map value
};

// The parsed form of a schema type string, cached for the life of the process (thread-safe).
// Null when the string is not a type ONNX schemas use. A bare element type ("float", as map values
// are written) is a tensor of that type.
const TypeSpec* ParseTypeSpec(std::string_view text);

// Whether a value of type `t` may be of the type `spec` (unknown parts of `t` match anything).
bool Matches(const TypeSpec& spec, const ir::Type& t);

// Whether two value types can be the same type: equal wherever both are known. Shapes are ignored.
bool Compatible(const ir::Type& a, const ir::Type& b);

// True when nothing in `t` is unknown (shapes aside).
bool IsFullyKnown(const ir::Type& t);

// "tensor(float)", "seq(tensor(int64))", "map(int64,tensor(float))", with "?" for unknown parts and
// without shapes: how messages name a value's type.
std::string TypeName(const ir::Type& t);

}  // namespace onnx_opt::schema::checker

#endif  // ONNX_OPT_SCHEMA_CHECKER_TYPE_SPEC_H_
