// Matrix product with numpy.matmul semantics (1-D operands, broadcast batch dims), shared by
// MatMul, MatMulInteger and QLinearMatMul.
#ifndef ONNX_OPT_INTERPRETER_KERNELS_BATCHED_MATMUL_H_
#define ONNX_OPT_INTERPRETER_KERNELS_BATCHED_MATMUL_H_

#include "absl/status/statusor.h"
#include "interpreter/tensor.h"

namespace onnx_opt::interpreter {

// a @ b for same-typed float/double/int32/int64 tensors. With `exact_int8`, a and b are float
// tensors of 8-bit values minus zero points and the result is the exact int32 product
// (ExactInt8Gemm).
absl::StatusOr<Tensor> BatchedMatMul(const Tensor& a0, const Tensor& b0, bool exact_int8 = false);

}  // namespace onnx_opt::interpreter

#endif  // ONNX_OPT_INTERPRETER_KERNELS_BATCHED_MATMUL_H_
