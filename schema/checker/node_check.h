// A node against its operator's schema: input and output arity (optional, variadic, minimum arity),
// omitted inputs and outputs, attribute names, types and required-ness, and type constraints bound
// consistently across the node's typed inputs and outputs.
#ifndef ONNX_OPT_SCHEMA_CHECKER_NODE_CHECK_H_
#define ONNX_OPT_SCHEMA_CHECKER_NODE_CHECK_H_

#include <string>
#include <vector>

#include "ir/node.h"
#include "schema/op_schema.h"

namespace onnx_opt::schema::checker {

// Appends one message per problem (without the node's location, which the caller adds).
void CheckNodeAgainstSchema(const ir::Node& node, const OpSchema& schema, bool check_types,
                            std::vector<std::string>* problems);

// "exactly 2", "1 to 3", "at least 1": how messages state an arity range.
std::string ArityRange(int min, int max);

}  // namespace onnx_opt::schema::checker

#endif  // ONNX_OPT_SCHEMA_CHECKER_NODE_CHECK_H_
