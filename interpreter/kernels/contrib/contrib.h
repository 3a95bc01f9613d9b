// Kernels of onnxruntime's contrib operators (domain com.microsoft), written from onnxruntime's
// published operator documentation (docs/ContribOperators.md). One family per file; this header has
// their registration functions and the few helpers they share. Float16/bfloat16 (and double) inputs
// are computed in float and the results narrowed back to the input's type.
#ifndef ONNX_OPT_INTERPRETER_KERNELS_CONTRIB_CONTRIB_H_
#define ONNX_OPT_INTERPRETER_KERNELS_CONTRIB_CONTRIB_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "interpreter/kernel.h"
#include "interpreter/tensor.h"

namespace onnx_opt::interpreter::contrib {

inline constexpr std::string_view kMsDomain = "com.microsoft";

// Family registration functions.
void RegisterActivationKernels(KernelRegistry& r);            // activations.cc
void RegisterLayerNormKernels(KernelRegistry& r);             // layer_norm.cc
void RegisterFusedMatMulKernels(KernelRegistry& r);           // fused_matmul.cc
void RegisterEmbedLayerNormKernels(KernelRegistry& r);        // embed_layer_norm.cc
void RegisterRotaryEmbeddingKernels(KernelRegistry& r);       // rotary_embedding.cc
void RegisterMatMulNBitsKernels(KernelRegistry& r);           // matmul_nbits.cc
void RegisterGatherBlockQuantizedKernels(KernelRegistry& r);  // gather_block_quantized.cc
void RegisterAttentionKernels(KernelRegistry& r);             // attention.cc
void RegisterMultiHeadAttentionKernels(KernelRegistry& r);    // multi_head_attention.cc
void RegisterGroupQueryAttentionKernels(KernelRegistry& r);   // group_query_attention.cc

// Input i as a float tensor (float16, bfloat16 and double converted), or an error naming the input
// by `name` when it is absent or not of a floating-point type.
absl::StatusOr<Tensor> FloatInput(const KernelContext& ctx, size_t i, std::string_view name);
// The same for an optional input: an undefined tensor when absent.
absl::StatusOr<Tensor> OptionalFloatInput(const KernelContext& ctx, size_t i,
                                          std::string_view name);

// A float result as `type` (the type of the input it was computed from).
absl::StatusOr<Tensor> FromFloat(Tensor f, DataType type);
// Sets output i (when wanted) to the float result `f` converted to `type`.
absl::Status SetFloatOutput(KernelContext& ctx, size_t i, Tensor f, DataType type);

// Checks that `t` is a 1-D tensor of n elements; the error names `name`.
absl::Status ExpectVector(const KernelContext& ctx, const Tensor& t, std::string_view name,
                          int64_t n);

}  // namespace onnx_opt::interpreter::contrib

#endif  // ONNX_OPT_INTERPRETER_KERNELS_CONTRIB_CONTRIB_H_
