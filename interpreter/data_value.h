// Conversions between the IR's test-data values (ir::io::DataValue: TensorProto, SequenceProto,
// MapProto, OptionalProto contents) and the interpreter's RuntimeValue.
#ifndef ONNX_OPT_INTERPRETER_DATA_VALUE_H_
#define ONNX_OPT_INTERPRETER_DATA_VALUE_H_

#include "absl/status/statusor.h"
#include "interpreter/value.h"
#include "ir/io/data_value.h"

namespace onnx_opt::interpreter {

absl::StatusOr<RuntimeValue> FromDataValue(const ir::io::DataValue& v);
absl::StatusOr<ir::io::DataValue> ToDataValue(const RuntimeValue& v);
// As above, for a value of the declared `type` (a graph output's): the evaluator represents an
// optional holding a value by the value itself, so a value of an optional type is wrapped here into
// an optional holding it (OptionalProto with the element kind of the held value).
absl::StatusOr<ir::io::DataValue> ToDataValue(const RuntimeValue& v, const ir::Type& type);

}  // namespace onnx_opt::interpreter

#endif  // ONNX_OPT_INTERPRETER_DATA_VALUE_H_
