// GroupQueryAttention (com.microsoft): attention with num_heads query heads sharing kv_num_heads
// key and value heads, and a KV cache in [B, kv_num_heads, length, H].
//   query [B, S, N * H] with key and value [B, S, kvN * H], or packed [B, S, (N + 2 kvN) * H].
//   seqlens_k[b] + 1 is batch entry b's total length T_b; total_sequence_length the batch's
//   largest. A first prompt (no past, or an empty one, or total_sequence_length == S) starts at
//   position 0, padded on the right beyond T_b; otherwise entry b's new tokens follow P_b = T_b - S
//   cached ones. present_key/value have length max(past length, total_sequence_length): the first
//   P_b rows of the past, then the S new rows (after rotary), zeros after. Query i (position P_b +
//   i) sees keys j < T_b with j <= P_b + i (causal, the default), and with local_window_size W >= 0
//   only the last W of those, j > P_b + i - W (as onnxruntime 1.30's CPU kernel counts it: W keys
//   including the query's own; with softcap a padding query's window ends at T_b - 1); other keys
//   take no part in its softmax. do_rotary rotates Q and the
//   new K with cos_cache/sin_cache at position_ids, else at P_b + i (rotary_interleaved);
//   q_norm_weight/k_norm_weight apply an RMS norm per head first (qk_norm_epsilon); softcap,
//   attention_bias, head_sink and smooth_softmax (a sink of 0) act on the scores; qk_output 1/2
//   gives the scores before/after the softmax.
// Not supported (errors): quantized caches (k_scale, v_scale, integer or float8 caches) and
// sliding_window_cache.
#include <algorithm>
#include <string>

#include "interpreter/kernels/common.h"
#include "interpreter/kernels/contrib/attention_core.h"
#include "interpreter/kernels/contrib/contrib.h"
#include "interpreter/kernels/contrib/rotary.h"

namespace onnx_opt::interpreter::contrib {
namespace {

using absl::Status;

// RMS-normalizes every head vector of t ([.., H] rows) with weight w.
void HeadRmsNorm(std::vector<float>& t, int64_t H, const float* w, double eps) {
  for (size_t r = 0; r < t.size() / H; ++r) {
    float* x = t.data() + r * H;
    double sq = 0;
    for (int64_t d = 0; d < H; ++d) sq += static_cast<double>(x[d]) * x[d];
    const float inv = static_cast<float>(1 / std::sqrt(sq / H + eps));
    for (int64_t d = 0; d < H; ++d) x[d] = x[d] * inv * w[d];
  }
}

Status GroupQueryAttentionKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(Tensor query, FloatInput(ctx, 0, "query"));
  const int64_t N = ctx.GetInt("num_heads", 0), kvN = ctx.GetInt("kv_num_heads", 0);
  if (N <= 0 || kvN <= 0 || N % kvN != 0) {
    return ctx.Error(absl::StrCat("num_heads (", N,
                                  ") must be a positive multiple of kv_num_heads (", kvN, ")"));
  }
  if (ctx.has_input(12) || ctx.has_input(13))
    return ctx.Error("quantized KV caches (k_scale, v_scale) are not supported");
  if (ctx.GetInt("sliding_window_cache", 0) != 0)
    return ctx.Error("sliding_window_cache is not supported");
  if (query.rank() != 3)
    return ctx.Error(absl::StrCat("input 'query' must be 3-D, got ", DimsToString(query.dims())));
  const int64_t B = query.dim(0), S = query.dim(1);
  const bool packed = !ctx.has_input(1);
  int64_t H = 0;
  std::vector<float> q, k, v;
  if (packed) {
    if (ctx.has_input(2) || query.dim(2) % (N + 2 * kvN) != 0) {
      return ctx.Error(absl::StrCat("packed query of width ", query.dim(2), " does not split into ",
                                    N, " + 2 x ", kvN, " heads"));
    }
    H = query.dim(2) / (N + 2 * kvN);
    const int64_t width = query.dim(2);
    q = ToHeads(query.data<float>(), B, S, N, H, width, 0);
    k = ToHeads(query.data<float>(), B, S, kvN, H, width, N * H);
    v = ToHeads(query.data<float>(), B, S, kvN, H, width, (N + kvN) * H);
  } else {
    ASSIGN_OR_RETURN(Tensor key, FloatInput(ctx, 1, "key"));
    ASSIGN_OR_RETURN(Tensor value, FloatInput(ctx, 2, "value"));
    if (query.dim(2) % N != 0)
      return ctx.Error("the query's hidden size is not a multiple of num_heads");
    H = query.dim(2) / N;
    const std::vector<int64_t> kv_dims{B, S, kvN * H};
    if (key.dims() != kv_dims || value.dims() != kv_dims) {
      return ctx.Error(absl::StrCat("inputs 'key' ", DimsToString(key.dims()), " and 'value' ",
                                    DimsToString(value.dims()), " must be ",
                                    DimsToString(kv_dims)));
    }
    q = ToHeads(query.data<float>(), B, S, N, H, N * H, 0);
    k = ToHeads(key.data<float>(), B, S, kvN, H, kvN * H, 0);
    v = ToHeads(value.data<float>(), B, S, kvN, H, kvN * H, 0);
  }
  ASSIGN_OR_RETURN(std::vector<int64_t> seqlens, ctx.IntsInput(5));
  ASSIGN_OR_RETURN(std::vector<int64_t> total_v, ctx.IntsInput(6));
  if (static_cast<int64_t>(seqlens.size()) != B)
    return ctx.Error(absl::StrCat("input 'seqlens_k' must have ", B, " values"));
  if (total_v.size() != 1) return ctx.Error("input 'total_sequence_length' must hold one value");
  const int64_t total = total_v[0];
  // The cache.
  int64_t P = 0;
  Tensor past_k, past_v;
  if (ctx.has_input(3) != ctx.has_input(4))
    return ctx.Error("past_key and past_value must be given together");
  if (ctx.has_input(3)) {
    for (size_t i : {3, 4}) {
      const DataType t = ctx.input(i).dtype();
      if (t != DataType::kFloat && t != DataType::kFloat16 && t != DataType::kBfloat16) {
        return ctx.Error(absl::StrCat("quantized KV caches are not supported (",
                                      ctx.input(i).ShapeString(), ")"));
      }
    }
    ASSIGN_OR_RETURN(past_k, FloatInput(ctx, 3, "past_key"));
    ASSIGN_OR_RETURN(past_v, FloatInput(ctx, 4, "past_value"));
    if (past_k.rank() != 4 || past_k.dim(0) != B || past_k.dim(1) != kvN || past_k.dim(3) != H ||
        past_v.dims() != past_k.dims()) {
      return ctx.Error(absl::StrCat("inputs 'past_key' ", DimsToString(past_k.dims()),
                                    " and 'past_value' ", DimsToString(past_v.dims()), " must be [",
                                    B, ",", kvN, ",P,", H, "]"));
    }
    P = past_k.dim(2);
  }
  const bool first_prompt = P == 0 || total == S;
  const int64_t present_len = std::max(P, total);
  std::vector<int64_t> past_len(B), len(B);
  for (int64_t b = 0; b < B; ++b) {
    len[b] = seqlens[b] + 1;
    past_len[b] = first_prompt ? 0 : len[b] - S;
    if (len[b] < 1 || len[b] > present_len || past_len[b] < 0 || past_len[b] > P ||
        past_len[b] + S > present_len) {
      return ctx.Error(absl::StrCat("seqlens_k[", b, "] = ", seqlens[b], " does not fit ", S,
                                    " new tokens, a past of ", P, " and total_sequence_length ",
                                    total));
    }
  }
  // Per-head RMS norm, then rotary.
  if (ctx.has_input(14) != ctx.has_input(15))
    return ctx.Error("q_norm_weight and k_norm_weight must be given together");
  if (ctx.has_input(14)) {
    ASSIGN_OR_RETURN(Tensor qw, FloatInput(ctx, 14, "q_norm_weight"));
    ASSIGN_OR_RETURN(Tensor kw, FloatInput(ctx, 15, "k_norm_weight"));
    RETURN_IF_ERROR(ExpectVector(ctx, qw, "q_norm_weight", H));
    RETURN_IF_ERROR(ExpectVector(ctx, kw, "k_norm_weight", H));
    const double eps = ctx.GetFloat("qk_norm_epsilon", 1e-6f);
    HeadRmsNorm(q, H, qw.data<float>(), eps);
    HeadRmsNorm(k, H, kw.data<float>(), eps);
  }
  if (ctx.GetInt("do_rotary", 0) != 0) {
    ASSIGN_OR_RETURN(Tensor cos, FloatInput(ctx, 7, "cos_cache"));
    ASSIGN_OR_RETURN(Tensor sin, FloatInput(ctx, 8, "sin_cache"));
    if (cos.rank() != 2 || sin.dims() != cos.dims() || 2 * cos.dim(1) > H) {
      return ctx.Error(absl::StrCat(
          "cos_cache ", DimsToString(cos.dims()), " and sin_cache ", DimsToString(sin.dims()),
          " must be [max_position, rotary_dim / 2] with rotary_dim at most ", H));
    }
    std::vector<int64_t> pos_ids;
    if (ctx.has_input(9)) {
      ASSIGN_OR_RETURN(pos_ids, ctx.IntsInput(9));
      if (static_cast<int64_t>(pos_ids.size()) != B * S)
        return ctx.Error(absl::StrCat("input 'position_ids' must be [", B, ",", S, "]"));
    }
    const bool interleaved = ctx.GetInt("rotary_interleaved", 0) != 0;
    const int64_t width = cos.dim(1);
    for (int64_t b = 0; b < B; ++b) {
      for (int64_t s = 0; s < S; ++s) {
        const int64_t pos = pos_ids.empty() ? past_len[b] + s : pos_ids[b * S + s];
        if (pos < 0 || pos >= cos.dim(0)) {
          return ctx.Error(absl::StrCat("position ", pos, " is outside the rotary caches' ",
                                        cos.dim(0), " rows"));
        }
        const float* c = cos.data<float>() + pos * width;
        const float* sn = sin.data<float>() + pos * width;
        for (int64_t h = 0; h < N; ++h)
          RotateHead(q.data() + ((b * N + h) * S + s) * H, 2 * width, c, sn, interleaved);
        for (int64_t h = 0; h < kvN; ++h)
          RotateHead(k.data() + ((b * kvN + h) * S + s) * H, 2 * width, c, sn, interleaved);
      }
    }
  }
  // present = past rows [0, P_b), then the new rows.
  std::vector<float> pk(B * kvN * present_len * H, 0.0f), pv(pk.size(), 0.0f);
  for (int64_t b = 0; b < B; ++b) {
    for (int64_t h = 0; h < kvN; ++h) {
      const int64_t bh = b * kvN + h;
      float* ok = pk.data() + bh * present_len * H;
      float* ov = pv.data() + bh * present_len * H;
      if (past_len[b] > 0) {
        std::copy_n(past_k.data<float>() + bh * P * H, past_len[b] * H, ok);
        std::copy_n(past_v.data<float>() + bh * P * H, past_len[b] * H, ov);
      }
      std::copy_n(k.data() + bh * S * H, S * H, ok + past_len[b] * H);
      std::copy_n(v.data() + bh * S * H, S * H, ov + past_len[b] * H);
    }
  }
  const DataType type = ctx.input(0).dtype();
  const DataType cache_type = ctx.has_input(3) ? ctx.input(3).dtype() : type;
  for (size_t i : {1, 2}) {
    if (ctx.num_outputs() <= i || !ctx.wants_output(i)) continue;
    RETURN_IF_ERROR(SetFloatOutput(
        ctx, i,
        Tensor::FromVector<float>(DataType::kFloat, {B, kvN, present_len, H}, i == 1 ? pk : pv),
        cache_type));
  }
  ASSIGN_OR_RETURN(BiasFn attention_bias, AttentionBias(ctx, 10, B, N, S, total));
  Tensor sink;
  if (ctx.has_input(11)) {
    ASSIGN_OR_RETURN(sink, FloatInput(ctx, 11, "head_sink"));
    RETURN_IF_ERROR(ExpectVector(ctx, sink, "head_sink", N));
  } else if (ctx.GetInt("smooth_softmax", 0) != 0) {
    sink = Tensor(DataType::kFloat, {N});
  }
  const bool causal = ctx.GetInt("causal", 1) != 0;
  const int64_t window = ctx.GetInt("local_window_size", -1);
  AttentionProblem p;
  p.batch = B;
  p.q_heads = N;
  p.kv_heads = kvN;
  p.q_len = S;
  p.kv_len = present_len;
  p.head_size = p.v_head_size = H;
  p.q = q.data();
  p.k = pk.data();
  p.v = pv.data();
  p.scale = ctx.has_attr("scale") && ctx.GetFloat("scale", 0) != 0
                ? ctx.GetFloat("scale", 1)
                : static_cast<float>(1 / std::sqrt(static_cast<double>(H)));
  p.softcap = ctx.GetFloat("softcap", 0);
  p.sink = sink.is_defined() ? sink.data<float>() : nullptr;
  p.allowed = [&](int64_t b, int64_t, int64_t i, int64_t j) {
    const int64_t pos = past_len[b] + i;
    if (j >= len[b]) return false;
    if (causal && j > pos) return false;
    // onnxruntime 1.30 anchors the window of a padding query (one past its sequence's end, on a
    // first prompt) at the sequence's last token when softcap is set, at the query itself when not
    // (measured; the two coincide for every query inside its sequence).
    const int64_t anchor = p.softcap > 0 ? std::min(pos, len[b] - 1) : pos;
    if (window >= 0 && j <= anchor - window) return false;
    return true;
  };
  if (attention_bias) p.bias = attention_bias;
  const int64_t qk_mode = ctx.GetInt("qk_output", 0);
  const bool want_qk = qk_mode != 0 && ctx.num_outputs() > 3 && ctx.wants_output(3);
  Tensor qk;
  Tensor y = RunAttention(p, want_qk ? &qk : nullptr, qk_mode == 2);
  if (want_qk) RETURN_IF_ERROR(SetFloatOutput(ctx, 3, std::move(qk), type));
  return SetFloatOutput(ctx, 0, std::move(y), type);
}

}  // namespace

void RegisterGroupQueryAttentionKernels(KernelRegistry& r) {
  r.Register(kMsDomain, "GroupQueryAttention", 1, GroupQueryAttentionKernel);
}

}  // namespace onnx_opt::interpreter::contrib
