// If, Loop and Scan against their subgraphs (Operators.md): the body's inputs and outputs must fit
// the node's, in number and, where both sides declare them, in type.
//   If    each branch produces one output per node output and takes no inputs.
//   Loop  body inputs (iteration number, condition, N loop-carried values) for a node with inputs
//         (M, cond, N initial values); body outputs (condition, N carried, K scan outputs) for a
//         node with N + K outputs.
//   Scan  N state values and M = num_scan_inputs scan inputs in (after sequence_lens in Scan-8),
//         N states and K scan outputs out; the body takes N + M inputs and produces N + K outputs;
//         the per-input and per-output attribute lists have M and K entries.
// IR <= 3 lets a subgraph list its initializers as inputs after the ones the operator passes
// (IR.md, "Names Within a Graph"), so trailing inputs that have an initializer may be left over.
#ifndef ONNX_OPT_SCHEMA_CHECKER_CONTROL_FLOW_CHECK_H_
#define ONNX_OPT_SCHEMA_CHECKER_CONTROL_FLOW_CHECK_H_

#include <string>
#include <vector>

#include "ir/node.h"
#include "schema/op_schema.h"

namespace onnx_opt::schema::checker {

// Appends one message per problem (without the node's location). Nodes other than ai.onnx If, Loop
// and Scan are left alone, as are subgraph attributes that are missing or of the wrong kind (the
// schema check reports those). `check_types`: also compare the types both sides declare.
void CheckControlFlowNode(const ir::Node& node, const OpSchema& schema, bool check_types,
                          std::vector<std::string>* problems);

}  // namespace onnx_opt::schema::checker

#endif  // ONNX_OPT_SCHEMA_CHECKER_CONTROL_FLOW_CHECK_H_
