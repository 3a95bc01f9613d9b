// MatMul(A, DequantizeLinear(x, scale[, zero point])) for a constant 2-D weight x of 8-bit integers
// (or 4-bit ones: a byte each as the interpreter holds them, or packed, read in place from the
// model file) and a few rows of A (decode steps): the skinny GEMM dequantizes B in registers a few
// rows at a time, so the float weight (4x the bytes of int8, 8x int4) is never written to memory or
// read back, and the product costs one pass over the quantized bytes. Scales per tensor, per output
// column (axis 1) or in blocks along the reduction axis (axis 0, block_size). The result has the
// bits of the two nodes run apart with the float skinny GEMM. Anything else (more rows, other
// layouts or types) is declined, and the evaluator runs both nodes.
#include <cstdint>
#include <vector>

#include "interpreter/kernel.h"
#include "interpreter/kernels/common.h"
#include "interpreter/kernels/gemm.h"

namespace onnx_opt::interpreter {
namespace {

bool IsNarrowInteger(DataType t) {
  return t == DataType::kInt8 || t == DataType::kUint8 || t == DataType::kInt4 ||
         t == DataType::kUint4;
}

// A scale (and zero point) for the whole tensor, widened to a row of N.
struct ExpandedScales {
  std::vector<float> scales;
  std::vector<uint8_t> zero_points;
};

}  // namespace

absl::StatusOr<bool> ComputeQuantizedMatMul(KernelContext& matmul_ctx,
                                            const KernelContext& dequantize_ctx,
                                            const PackedFourBitWeight* packed) {
  if (!matmul_ctx.has_input(0) || (packed == nullptr && !dequantize_ctx.has_input(0)) ||
      !dequantize_ctx.has_input(1))
    return false;
  const Tensor& a = matmul_ctx.input(0);
  const Tensor& scale = dequantize_ctx.input(1);
  const Tensor* zero = dequantize_ctx.has_input(2) ? &dequantize_ctx.input(2) : nullptr;
  // The weight: its type, shape and bytes, a byte per element or packed.
  DataType x_type;
  int64_t K, N;
  const uint8_t* x_data;
  if (packed != nullptr) {
    if (packed->cols % 2 != 0) return false;
    x_type = packed->dtype;
    K = packed->rows;
    N = packed->cols;
    x_data = packed->data;
  } else {
    const Tensor& x = dequantize_ctx.input(0);
    if (x.rank() != 2) return false;
    x_type = x.dtype();
    K = x.dim(0);
    N = x.dim(1);
    x_data = x.data<uint8_t>();
  }
  const int64_t out_type = dequantize_ctx.GetInt("output_dtype", 0);
  if (a.dtype() != DataType::kFloat || a.rank() < 1 || !IsNarrowInteger(x_type) ||
      scale.dtype() != DataType::kFloat ||
      (out_type != 0 && out_type != static_cast<int64_t>(DataType::kFloat)) ||
      (zero != nullptr && (zero->dtype() != x_type || zero->dims() != scale.dims()))) {
    return false;
  }
  if (a.dim(a.rank() - 1) != K || K == 0 || N == 0) return false;
  const int64_t M = a.size() / K;
  if (M < 1 || M > kSkinnyMaxRows) return false;

  QuantizedMatrix b{x_data,
                    x_type == DataType::kInt8 || x_type == DataType::kInt4,
                    packed != nullptr ? N / 2 : N,
                    N,
                    K,
                    scale.data<float>(),
                    zero != nullptr ? zero->data<uint8_t>() : nullptr,
                    packed != nullptr ? 4 : 8};
  ExpandedScales per_tensor;
  const int64_t block = dequantize_ctx.GetInt("block_size", 0);
  const int64_t axis_attr = dequantize_ctx.GetInt("axis", 1);
  const int64_t axis = axis_attr < 0 ? axis_attr + 2 : axis_attr;
  if (scale.size() == 1 && scale.rank() <= 1) {
    // One scale for all: widened to a row of N, one block of K rows.
    per_tensor.scales.assign(N, scale.data<float>()[0]);
    b.scales = per_tensor.scales.data();
    if (zero != nullptr) {
      per_tensor.zero_points.assign(N, zero->data<uint8_t>()[0]);
      b.zero_points = per_tensor.zero_points.data();
    }
  } else if (scale.rank() == 1 && block == 0 && axis == 1 && scale.dim(0) == N) {
    // One scale per output column: already a row of N.
  } else if (scale.rank() == 2 && block > 0 && axis == 0 && scale.dim(0) == (K - 1) / block + 1 &&
             scale.dim(1) == N) {
    b.block_rows = block;  // blocks along the reduction axis
  } else {
    return false;  // other layouts (or invalid ones, which DequantizeLinear reports)
  }

  std::vector<int64_t> dims(a.dims().begin(), a.dims().end() - 1);
  dims.push_back(N);
  Tensor y = Tensor::Uninitialized(DataType::kFloat, dims);
  SkinnyQuantizedGemm(M, N, K, a.data<float>(), b, y.mutable_data<float>());
  matmul_ctx.set_output(0, std::move(y));
  return true;
}

}  // namespace onnx_opt::interpreter
