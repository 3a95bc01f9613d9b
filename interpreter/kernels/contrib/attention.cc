// Attention (com.microsoft): self-attention with the Q/K/V projections packed in one weight.
//   QKV = input [B, S, in] @ weights [in, h + h + v] (+ bias); split into Q, K (h each) and V (v)
//   (qkv_hidden_sizes, or three equal parts), num_heads heads each; past [2, B, N, P, H] is put in
//   front of K and V and present = [2, B, N, P + S, H]. Scores are scale * Q K^T (scale default
//   1/sqrt(head size)) plus attention_bias, plus mask_filter_value (-10000) where mask_index masks
//   a key; with unidirectional, keys after the query (j > P + i) are out of the softmax, as
//   onnxruntime 1.30 computes it (tools/ort_interop).
// Not supported (errors): do_rotary, past_present_share_buffer, past_sequence_length, mask_index of
// [3B + 2].
#include <string>

#include "interpreter/kernels/common.h"
#include "interpreter/kernels/contrib/attention_core.h"
#include "interpreter/kernels/contrib/contrib.h"
#include "interpreter/kernels/gemm.h"

namespace onnx_opt::interpreter::contrib {
namespace {

using absl::Status;

Status AttentionKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(Tensor x, FloatInput(ctx, 0, "input"));
  ASSIGN_OR_RETURN(Tensor w, FloatInput(ctx, 1, "weights"));
  ASSIGN_OR_RETURN(Tensor bias, OptionalFloatInput(ctx, 2, "bias"));
  if (ctx.GetInt("do_rotary", 0) != 0) return ctx.Error("do_rotary is not supported");
  if (ctx.GetInt("past_present_share_buffer", 0) != 0 || ctx.has_input(6)) {
    return ctx.Error("past_present_share_buffer and past_sequence_length are not supported");
  }
  const int64_t heads = ctx.GetInt("num_heads", 0);
  if (x.rank() != 3)
    return ctx.Error(absl::StrCat("input 'input' must be 3-D, got ", DimsToString(x.dims())));
  const int64_t B = x.dim(0), S = x.dim(1), in = x.dim(2);
  if (w.rank() != 2 || w.dim(0) != in) {
    return ctx.Error(absl::StrCat("input 'weights' must have shape [", in, ", ?], got ",
                                  DimsToString(w.dims())));
  }
  const int64_t total_width = w.dim(1);
  std::vector<int64_t> sizes = ctx.GetInts("qkv_hidden_sizes");
  if (sizes.empty()) sizes = {total_width / 3, total_width / 3, total_width / 3};
  if (sizes.size() != 3 || sizes[0] != sizes[1] || sizes[0] + sizes[1] + sizes[2] != total_width ||
      heads <= 0 || sizes[0] % heads != 0 || sizes[2] % heads != 0) {
    return ctx.Error(absl::StrCat("weights of width ", total_width,
                                  " do not split into Q, K, V of ", heads,
                                  " heads (qkv_hidden_sizes ", DimsToString(sizes), ")"));
  }
  if (bias.is_defined()) RETURN_IF_ERROR(ExpectVector(ctx, bias, "bias", total_width));
  const int64_t H = sizes[0] / heads, Hv = sizes[2] / heads;
  // Projection.
  std::vector<float> qkv(B * S * total_width);
  Gemm<float>(false, false, B * S, total_width, in, 1.0f, x.data<float>(), w.data<float>(), 0.0f,
              qkv.data());
  if (bias.is_defined()) {
    for (size_t i = 0; i < qkv.size(); ++i) qkv[i] += bias.data<float>()[i % total_width];
  }
  std::vector<float> q = ToHeads(qkv.data(), B, S, heads, H, total_width, 0);
  std::vector<float> k = ToHeads(qkv.data(), B, S, heads, H, total_width, sizes[0]);
  std::vector<float> v = ToHeads(qkv.data(), B, S, heads, Hv, total_width, 2 * sizes[0]);
  int64_t past = 0;
  if (ctx.has_input(4)) {
    ASSIGN_OR_RETURN(Tensor p, FloatInput(ctx, 4, "past"));
    if (p.rank() != 5 || p.dim(0) != 2 || p.dim(1) != B || p.dim(2) != heads || p.dim(4) != H ||
        H != Hv) {
      return ctx.Error(absl::StrCat("input 'past' must have shape [2,", B, ",", heads, ",?,", H,
                                    "], got ", DimsToString(p.dims())));
    }
    past = p.dim(3);
    const int64_t half = B * heads * past * H;
    k = ConcatLength(p.data<float>(), past, k.data(), S, B * heads, H);
    v = ConcatLength(p.data<float>() + half, past, v.data(), S, B * heads, Hv);
  }
  const int64_t T = past + S;
  if (ctx.num_outputs() > 1 && ctx.wants_output(1)) {
    if (H != Hv) return ctx.Error("present needs V's head size equal to Q's");
    Tensor present(DataType::kFloat, {2, B, heads, T, H});
    std::copy(k.begin(), k.end(), present.mutable_data<float>());
    std::copy(v.begin(), v.end(), present.mutable_data<float>() + k.size());
    RETURN_IF_ERROR(SetFloatOutput(ctx, 1, std::move(present), ctx.input(0).dtype()));
  }
  ASSIGN_OR_RETURN(KeyMaskFn mask, KeyMask(ctx, 3, "mask_index", B, S, T, past));
  ASSIGN_OR_RETURN(BiasFn attention_bias, AttentionBias(ctx, 5, B, heads, S, T));
  const bool causal = ctx.GetInt("unidirectional", 0) != 0;
  const float filter = ctx.GetFloat("mask_filter_value", -10000.0f);
  AttentionProblem p;
  p.batch = B;
  p.q_heads = p.kv_heads = heads;
  p.q_len = S;
  p.kv_len = T;
  p.head_size = H;
  p.v_head_size = Hv;
  p.q = q.data();
  p.k = k.data();
  p.v = v.data();
  p.scale = ctx.has_attr("scale") ? ctx.GetFloat("scale", 1)
                                  : static_cast<float>(1 / std::sqrt(static_cast<double>(H)));
  p.bias = MaskedScores(std::move(attention_bias), std::move(mask), filter);
  p.allowed = CausalKeys(causal, past);
  return SetFloatOutput(ctx, 0, RunAttention(p), ctx.input(0).dtype());
}

}  // namespace

void RegisterAttentionKernels(KernelRegistry& r) {
  r.Register(kMsDomain, "Attention", 1, AttentionKernel);
}

}  // namespace onnx_opt::interpreter::contrib
