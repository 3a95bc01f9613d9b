// A node against its operator's schema: input and output arity (optional, variadic, minimum arity),
// omitted inputs and outputs, attribute names, types and required-ness, and type constraints bound
// consistently across the node's typed inputs and outputs. The one implementation: the model
// checker runs it on every node, the version converter on every node an adapter touched (with the
// types it inferred, so that a downgrade to a version lacking a type fails clearly).
#ifndef ONNX_OPT_SCHEMA_CHECKER_NODE_CHECK_H_
#define ONNX_OPT_SCHEMA_CHECKER_NODE_CHECK_H_

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "ir/node.h"
#include "ir/type.h"
#include "ir/value.h"
#include "schema/op_schema.h"

namespace onnx_opt::schema::checker {

struct NodeCheckOptions {
  // Check typed inputs and outputs against the schema's type constraints.
  bool check_types = true;
  // The type to check for a value; unset: the value's own type. The reference must outlive the
  // call.
  std::function<const ir::Type&(const ir::Value*)> type_of;
  // When output 0's type is not fully known, check the element type an attribute of the node
  // implies instead (Cast's `to`, Constant's value, RandomNormal's `dtype`, ...).
  bool implied_output_types = false;
};

// Appends one message per problem (without the node's location, which the caller adds).
void CheckNodeAgainstSchema(const ir::Node& node, const OpSchema& schema,
                            const NodeCheckOptions& options, std::vector<std::string>* problems);

// The element type an ai.onnx node's output 0 gets from an attribute (Cast's `to`, Constant's
// value, RandomNormal's `dtype`, QuantizeLinear's `output_dtype`, ...), when it has one.
std::optional<ir::DataType> ImpliedOutputElemType(const ir::Node& node);

// "exactly 2", "1 to 3", "at least 1": how messages state an arity range.
std::string ArityRange(int min, int max);

}  // namespace onnx_opt::schema::checker

#endif  // ONNX_OPT_SCHEMA_CHECKER_NODE_CHECK_H_
