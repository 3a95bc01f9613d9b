#include "interpreter/kernels/contrib/contrib.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "interpreter/kernels/common.h"
#include "ir/numeric/narrow_float.h"

namespace onnx_opt::interpreter {

void RegisterContribKernels(KernelRegistry& r) {
  contrib::RegisterActivationKernels(r);
  contrib::RegisterLayerNormKernels(r);
  contrib::RegisterFusedMatMulKernels(r);
  contrib::RegisterEmbedLayerNormKernels(r);
  contrib::RegisterRotaryEmbeddingKernels(r);
  contrib::RegisterMatMulNBitsKernels(r);
  contrib::RegisterGatherBlockQuantizedKernels(r);
  contrib::RegisterAttentionKernels(r);
  contrib::RegisterMultiHeadAttentionKernels(r);
  contrib::RegisterGroupQueryAttentionKernels(r);
}

namespace contrib {

absl::StatusOr<Tensor> FloatInput(const KernelContext& ctx, size_t i, std::string_view name) {
  if (!ctx.has_input(i))
    return ctx.Error(absl::StrCat("input '", std::string(name), "' is missing"));
  if (!ctx.value(i).is_tensor())
    return ctx.Error(absl::StrCat("input '", std::string(name), "' must be a tensor"));
  const Tensor& t = ctx.input(i);
  if (t.dtype() == DataType::kFloat) return t;
  if (t.dtype() == DataType::kDouble) return CastTensor(t, DataType::kFloat);
  if (t.dtype() == DataType::kFloat16 || t.dtype() == DataType::kBfloat16) return WidenToFloat(t);
  return ctx.Error(absl::StrCat("input '", std::string(name),
                                "' must be float, float16, bfloat16 or double, got ",
                                t.ShapeString()));
}

absl::StatusOr<Tensor> OptionalFloatInput(const KernelContext& ctx, size_t i,
                                          std::string_view name) {
  if (!ctx.has_input(i)) return Tensor();
  return FloatInput(ctx, i, name);
}

absl::StatusOr<Tensor> FromFloat(Tensor f, DataType type) {
  if (type == DataType::kFloat) return f;
  return CastTensor(f, type);
}

absl::Status SetFloatOutput(KernelContext& ctx, size_t i, Tensor f, DataType type) {
  if (!ctx.wants_output(i)) return absl::OkStatus();
  ASSIGN_OR_RETURN(Tensor t, FromFloat(std::move(f), type));
  ctx.set_output(i, std::move(t));
  return absl::OkStatus();
}

absl::Status ExpectVector(const KernelContext& ctx, const Tensor& t, std::string_view name,
                          int64_t n) {
  if (t.rank() != 1 || t.dim(0) != n) {
    return ctx.Error(absl::StrCat("input '", std::string(name), "' must have shape [", n, "], got ",
                                  DimsToString(t.dims())));
  }
  return absl::OkStatus();
}

}  // namespace contrib
}  // namespace onnx_opt::interpreter
