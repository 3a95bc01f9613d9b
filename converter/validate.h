// Checks a node against the schema it must satisfy after a conversion step: every attribute known
// to the schema and of its kind, required attributes present, input/output counts in range, no
// omitted required input, and every value whose type is known allowed by its type constraint.
// The last check is what makes a downgrade fail clearly when a node uses a type the older operator
// version lacks.
#ifndef ONNX_OPT_CONVERTER_VALIDATE_H_
#define ONNX_OPT_CONVERTER_VALIDATE_H_

#include <functional>
#include <optional>
#include <string>

#include "ir/node.h"
#include "ir/type.h"
#include "schema/op_schema.h"

namespace onnx_opt::converter {

// The first problem, or nullopt when the node fits the schema.
// `type_of` gives the best known type of a value (declared or inferred).
std::optional<std::string> CheckNodeFitsSchema(
    const ir::Node& node, const schema::OpSchema& schema,
    const std::function<const ir::Type&(const ir::Value*)>& type_of);

// "tensor(float)", "seq(tensor(int64))", "map(string, float)", ... as schemas spell types; empty
// when some part of the type is unknown.
std::string SchemaTypeString(const ir::Type& type);

}  // namespace onnx_opt::converter

#endif  // ONNX_OPT_CONVERTER_VALIDATE_H_
