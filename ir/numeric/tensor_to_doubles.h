// The elements of a numeric ir::Tensor as doubles, for code that reads constants whatever their
// type.
#ifndef ONNX_OPT_IR_NUMERIC_TENSOR_TO_DOUBLES_H_
#define ONNX_OPT_IR_NUMERIC_TENSOR_TO_DOUBLES_H_

#include <optional>
#include <vector>

#include "ir/tensor.h"

namespace onnx_opt::ir {

// Every element converted to double, for float, double, float16, bfloat16, bool and the 8- to
// 64-bit integer types (uint64 values above 2^53 round, as any conversion to double does). nullopt
// for other types (strings, complex, float8, float4, 2- and 4-bit integers), for tensors whose data
// is not raw bytes of exactly the element count, and for tensors of unknown element count.
std::optional<std::vector<double>> TensorToDoubles(const Tensor& t);

}  // namespace onnx_opt::ir

#endif  // ONNX_OPT_IR_NUMERIC_TENSOR_TO_DOUBLES_H_
