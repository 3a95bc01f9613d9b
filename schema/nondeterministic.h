// Operators whose outputs may differ between two runs on the same inputs: no pass may fold, merge
// or cache them, and no run may reuse their results.
#ifndef ONNX_OPT_SCHEMA_NONDETERMINISTIC_H_
#define ONNX_OPT_SCHEMA_NONDETERMINISTIC_H_

#include "ir/node.h"

namespace onnx_opt::schema {

// The random generators of the default domain (RandomNormal/Uniform and their -Like forms,
// Bernoulli, Multinomial), and Dropout, which is deterministic only when not training and whose
// training_mode may be a runtime input.
bool IsNondeterministic(const ir::Node& node);

}  // namespace onnx_opt::schema

#endif  // ONNX_OPT_SCHEMA_NONDETERMINISTIC_H_
