// Reading compile-time constants: initializers a caller cannot override, and Constant nodes.
#ifndef ONNX_OPT_PASSES_CONSTANT_H_
#define ONNX_OPT_PASSES_CONSTANT_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "ir/tensor.h"
#include "ir/value.h"

namespace onnx_opt::passes {

// The tensor `v` always holds, or null: a constant initializer (not a graph input), or the output of
// a Constant node whose value is a dense tensor (`value` attribute, or the value_* scalar/list forms).
// The pointer lives as long as the initializer or node.
const ir::Tensor* GetConstantTensor(const ir::Value* v);

// Element values converted to double (ir::TensorToDoubles), for float, double, float16, bfloat16 and
// integer tensors; nullopt for other types, bool included.
std::optional<std::vector<double>> ConstantAsDoubles(const ir::Tensor& t);

// Integer values of an int32/int64 tensor.
std::optional<std::vector<int64_t>> ConstantAsInts(const ir::Tensor& t);

// A float32 or float64 tensor of `dims` holding `values` (converted to `type`).
ir::Tensor MakeFloatTensor(ir::DataType type, std::vector<int64_t> dims, const std::vector<double>& values);

}  // namespace onnx_opt::passes

#endif  // ONNX_OPT_PASSES_CONSTANT_H_
