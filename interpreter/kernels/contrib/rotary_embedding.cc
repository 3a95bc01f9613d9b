// RotaryEmbedding (com.microsoft): input [B, S, hidden] or [B, N, S, H]; position_ids [B, S] (one
// position per token) or [1] (the first token's position, the others following it); cos/sin caches
// [max_position, rotary_dim / 2]. Rotates the first rotary_embedding_dim (default: all) elements of
// every head. Without num_heads a 3-D input's head size is twice the caches' width.
// `scale` is accepted and not applied (onnxruntime's CPU kernel does not read it either).
#include <string>

#include "interpreter/kernels/common.h"
#include "interpreter/kernels/contrib/contrib.h"
#include "interpreter/kernels/contrib/rotary.h"

namespace onnx_opt::interpreter::contrib {
namespace {

using absl::Status;

Status RotaryEmbeddingKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(Tensor x, FloatInput(ctx, 0, "input"));
  ASSIGN_OR_RETURN(std::vector<int64_t> pos, ctx.IntsInput(1));
  ASSIGN_OR_RETURN(Tensor cos, FloatInput(ctx, 2, "cos_cache"));
  ASSIGN_OR_RETURN(Tensor sin, FloatInput(ctx, 3, "sin_cache"));
  if (ctx.GetInt("is_packed_batching", 0) != 0)
    return ctx.Error("is_packed_batching is not supported");
  if (cos.rank() != 2 || sin.dims() != cos.dims()) {
    return ctx.Error(
        absl::StrCat("inputs 'cos_cache' and 'sin_cache' must be 2-D of one shape, got ",
                     DimsToString(cos.dims()), " and ", DimsToString(sin.dims())));
  }
  const bool four_d = x.rank() == 4;
  if (x.rank() != 3 && !four_d)
    return ctx.Error(
        absl::StrCat("input 'input' must be 3-D or 4-D, got ", DimsToString(x.dims())));
  const int64_t batch = x.dim(0), seq = four_d ? x.dim(2) : x.dim(1);
  int64_t heads = ctx.GetInt("num_heads", 0), head_size = 0;
  const int64_t rot_attr = ctx.GetInt("rotary_embedding_dim", 0);
  if (four_d) {
    heads = x.dim(1);
    head_size = x.dim(3);
  } else if (heads > 0) {
    if (x.dim(2) % heads != 0) return ctx.Error("the hidden size is not a multiple of num_heads");
    head_size = x.dim(2) / heads;
  } else {
    if (rot_attr > 0) return ctx.Error("rotary_embedding_dim needs num_heads for a 3-D input");
    head_size = 2 * cos.dim(1);
    if (head_size == 0 || x.dim(2) % head_size != 0)
      return ctx.Error("the hidden size is not a multiple of the head size");
    heads = x.dim(2) / head_size;
  }
  const int64_t rot = rot_attr > 0 ? rot_attr : head_size;
  if (rot % 2 != 0 || rot > head_size || rot / 2 > cos.dim(1)) {
    return ctx.Error(absl::StrCat("rotary dim ", rot, " does not fit head size ", head_size,
                                  " and caches of width ", cos.dim(1)));
  }
  const bool one_start = static_cast<int64_t>(pos.size()) == 1 &&
                         !(batch == 1 && seq == 1 && ctx.input(1).rank() == 2);
  if (!one_start && static_cast<int64_t>(pos.size()) != batch * seq) {
    return ctx.Error(absl::StrCat("input 'position_ids' must have shape [", batch, ",", seq,
                                  "] or [1], got ", DimsToString(ctx.input(1).dims())));
  }
  const bool interleaved = ctx.GetInt("interleaved", 0) != 0;
  Tensor y = x.Clone();
  float* py = y.mutable_data<float>();
  const int64_t width = cos.dim(1);
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t s = 0; s < seq; ++s) {
      const int64_t p = one_start ? pos[0] + s : pos[b * seq + s];
      if (p < 0 || p >= cos.dim(0)) {
        return ctx.Error(
            absl::StrCat("position ", p, " is outside the caches' ", cos.dim(0), " rows"));
      }
      for (int64_t n = 0; n < heads; ++n) {
        const int64_t offset = four_d ? ((b * heads + n) * seq + s) * head_size
                                      : (b * seq + s) * heads * head_size + n * head_size;
        RotateHead(py + offset, rot, cos.data<float>() + p * width, sin.data<float>() + p * width,
                   interleaved);
      }
    }
  }
  return SetFloatOutput(ctx, 0, std::move(y), ctx.input(0).dtype());
}

}  // namespace

void RegisterRotaryEmbeddingKernels(KernelRegistry& r) {
  r.Register(kMsDomain, "RotaryEmbedding", 1, RotaryEmbeddingKernel);
}

}  // namespace onnx_opt::interpreter::contrib
