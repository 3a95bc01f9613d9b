// relu6(x + 3), spelled Clip(Add(x, 3), 0, 6): the core of hard sigmoid and hard swish as exporters
// write them, shared by fuse-hard-sigmoid and fuse-hard-swish.
#ifndef ONNX_OPT_PASSES_REWRITE_RELU6_PATTERN_H_
#define ONNX_OPT_PASSES_REWRITE_RELU6_PATTERN_H_

#include "passes/rewrite/captures.h"
#include "passes/rewrite/value_pattern.h"

namespace onnx_opt::passes::rewrite {

// The value Clip(Add(x, 3), 0, 6), both links used once, with Clip's bounds read by the rules of
// the match's opset (attributes before 11, constant inputs from 11); x is bound to `x`.
ValuePattern Relu6OfXPlus3(const ValueSlot& x);

}  // namespace onnx_opt::passes::rewrite

#endif  // ONNX_OPT_PASSES_REWRITE_RELU6_PATTERN_H_
