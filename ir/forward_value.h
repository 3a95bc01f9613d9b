// Replacing a node's output by another value while keeping graph interfaces intact.
#ifndef ONNX_OPT_IR_FORWARD_VALUE_H_
#define ONNX_OPT_IR_FORWARD_VALUE_H_

#include "ir/value.h"

namespace onnx_opt::ir {

// Makes every use of `from` (an output of a node that is about to go) use `to` instead. Graph
// outputs keep their names: when `from` is a graph output, `to` must be a node output of the same
// graph that is not itself a graph output, and it takes over `from`'s name (and `from` gets a fresh
// one). Returns false, changing nothing, when that is impossible.
bool ForwardValue(Value* from, Value* to);

}  // namespace onnx_opt::ir

#endif  // ONNX_OPT_IR_FORWARD_VALUE_H_
