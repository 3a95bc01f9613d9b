// Reading compile-time constants: initializers a caller cannot override, and Constant nodes. Passes
// and the version converter both read constants this way.
#ifndef ONNX_OPT_IR_CONSTANT_VALUE_H_
#define ONNX_OPT_IR_CONSTANT_VALUE_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "ir/tensor.h"
#include "ir/value.h"

namespace onnx_opt::ir {

// The tensor `v` always holds, or null: a constant initializer (not a graph input), or the output
// of a Constant node whose value is a dense tensor (`value` attribute, or the value_* scalar/list
// forms). The pointer lives as long as the initializer or node.
const Tensor* GetConstantTensor(const Value* v);

// Element values converted to double (TensorToDoubles), for float, double, float16, bfloat16 and
// integer tensors; nullopt for other types, bool included.
std::optional<std::vector<double>> ConstantAsDoubles(const Tensor& t);

// Integer values of an int32/int64 tensor.
std::optional<std::vector<int64_t>> ConstantAsInts(const Tensor& t);

// A float32 or float64 tensor of `dims` holding `values` (converted to `type`).
Tensor MakeFloatTensor(DataType type, std::vector<int64_t> dims, const std::vector<double>& values);

}  // namespace onnx_opt::ir

#endif  // ONNX_OPT_IR_CONSTANT_VALUE_H_
