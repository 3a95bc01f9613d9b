// MultiHeadAttention (com.microsoft): attention over Q, K and V that were projected already.
//   query [B, S, h] with key [B, L, h] and value [B, L, v]; or packed QKV [B, S, N, 3, H] (no key
//   or value); or key as packed KV [B, L, N, 2, H] (no value); or key and value already in heads
//   [B, N, L, H] (cross attention: bias applies to Q only, no past).
//   bias [h + h + v] is added to Q, K and V; past_key/past_value [B, N, P, H] go in front of K and
//   V (present_key/present_value [B, N, P + L, H]). Scores are scale * Q K^T (+ attention_bias),
//   plus mask_filter_value where key_padding_mask masks a key; with unidirectional, keys after the
//   query (j > P + i) are out of the softmax. The optional qk output is the scores before the
//   softmax.
// Not supported (errors): past_sequence_length, cache_indirection, key_padding_mask of [3B + 2].
#include <cmath>
#include <limits>
#include <string>

#include "interpreter/kernels/common.h"
#include "interpreter/kernels/contrib/attention_core.h"
#include "interpreter/kernels/contrib/contrib.h"

namespace onnx_opt::interpreter::contrib {
namespace {

using absl::Status;

Status MultiHeadAttentionKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(Tensor query, FloatInput(ctx, 0, "query"));
  ASSIGN_OR_RETURN(Tensor key, OptionalFloatInput(ctx, 1, "key"));
  ASSIGN_OR_RETURN(Tensor value, OptionalFloatInput(ctx, 2, "value"));
  ASSIGN_OR_RETURN(Tensor bias, OptionalFloatInput(ctx, 3, "bias"));
  if (ctx.has_input(8) || ctx.has_input(9))
    return ctx.Error("past_sequence_length and cache_indirection are not supported");
  const int64_t N = ctx.GetInt("num_heads", 0);
  if (N <= 0) return ctx.Error("num_heads must be positive");
  if (query.rank() != 3 && query.rank() != 5) {
    return ctx.Error(absl::StrCat("input 'query' must be [B,S,hidden] or packed [B,S,N,3,H], got ",
                                  DimsToString(query.dims())));
  }
  const int64_t B = query.dim(0), S = query.dim(1);
  int64_t H = 0, Hv = 0, L = 0;
  std::vector<float> q, k, v;
  bool cross = false;  // key and value given in heads already
  const auto bad = [&](std::string_view what) {
    return ctx.Error(absl::StrCat("query ", DimsToString(query.dims()), ", key ",
                                  DimsToString(key.dims()), ", value ", DimsToString(value.dims()),
                                  ": ", std::string(what)));
  };
  if (query.rank() == 5) {  // packed QKV
    if (key.is_defined() || value.is_defined() || query.dim(2) != N || query.dim(3) != 3) {
      return bad("packed QKV must be [B,S,num_heads,3,H] with no key or value");
    }
    H = Hv = query.dim(4);
    L = S;
    q = ToHeads(query.data<float>(), B, S, N, H, N * 3 * H, 0);
    k = q, v = q;
    // Rows of a token are [N][3][H]: head n's Q, K, V at (n * 3 + 0/1/2) * H.
    for (int64_t b = 0; b < B; ++b) {
      for (int64_t s = 0; s < S; ++s) {
        const float* row = query.data<float>() + (b * S + s) * N * 3 * H;
        for (int64_t n = 0; n < N; ++n) {
          for (int64_t d = 0; d < H; ++d) {
            const int64_t o = ((b * N + n) * S + s) * H + d;
            q[o] = row[(n * 3 + 0) * H + d];
            k[o] = row[(n * 3 + 1) * H + d];
            v[o] = row[(n * 3 + 2) * H + d];
          }
        }
      }
    }
  } else {
    const int64_t hidden = query.dim(2);
    if (hidden % N != 0) return bad("the query's hidden size is not a multiple of num_heads");
    H = hidden / N;
    q = ToHeads(query.data<float>(), B, S, N, H, hidden, 0);
    if (!key.is_defined()) return bad("key is missing");
    if (key.rank() == 5) {  // packed KV
      if (value.is_defined() || key.dim(0) != B || key.dim(2) != N || key.dim(3) != 2 ||
          key.dim(4) != H) {
        return bad("packed KV must be [B,L,num_heads,2,H] with no value");
      }
      L = key.dim(1);
      Hv = H;
      k.resize(B * N * L * H);
      v.resize(B * N * L * H);
      for (int64_t b = 0; b < B; ++b) {
        for (int64_t s = 0; s < L; ++s) {
          const float* row = key.data<float>() + (b * L + s) * N * 2 * H;
          for (int64_t n = 0; n < N; ++n) {
            for (int64_t d = 0; d < H; ++d) {
              k[((b * N + n) * L + s) * H + d] = row[(n * 2 + 0) * H + d];
              v[((b * N + n) * L + s) * H + d] = row[(n * 2 + 1) * H + d];
            }
          }
        }
      }
    } else if (key.rank() == 3) {
      if (!value.is_defined() || value.rank() != 3 || key.dim(0) != B || value.dim(0) != B ||
          key.dim(1) != value.dim(1) || key.dim(2) != hidden || value.dim(2) % N != 0) {
        return bad("key [B,L,hidden] and value [B,L,v_hidden] expected");
      }
      L = key.dim(1);
      Hv = value.dim(2) / N;
      k = ToHeads(key.data<float>(), B, L, N, H, hidden, 0);
      v = ToHeads(value.data<float>(), B, L, N, Hv, N * Hv, 0);
    } else if (key.rank() == 4) {
      if (!value.is_defined() || value.rank() != 4 || key.dim(0) != B || key.dim(1) != N ||
          key.dim(3) != H || value.dim(0) != B || value.dim(1) != N || value.dim(2) != key.dim(2)) {
        return bad("key and value in heads must be [B,num_heads,L,H]");
      }
      cross = true;
      L = key.dim(2);
      Hv = value.dim(3);
      k = key.ToVector<float>();
      v = value.ToVector<float>();
    } else {
      return bad("unsupported key shape");
    }
  }
  // Bias: Q, K, V parts, head by head.
  if (bias.is_defined()) {
    RETURN_IF_ERROR(ExpectVector(ctx, bias, "bias", N * (2 * H + Hv)));
    const float* pb = bias.data<float>();
    auto add = [&](std::vector<float>& t, int64_t len, int64_t size, const float* part) {
      for (size_t i = 0; i < t.size(); ++i) {
        const int64_t h = (i / (len * size)) % N;
        t[i] += part[h * size + i % size];
      }
    };
    add(q, S, H, pb);
    if (!cross) {
      add(k, L, H, pb + N * H);
      add(v, L, Hv, pb + 2 * N * H);
    }
  }
  int64_t past = 0;
  if (ctx.has_input(6) || ctx.has_input(7)) {
    if (cross) return ctx.Error("past_key/past_value cannot be used with key and value in heads");
    ASSIGN_OR_RETURN(Tensor pk, FloatInput(ctx, 6, "past_key"));
    ASSIGN_OR_RETURN(Tensor pv, FloatInput(ctx, 7, "past_value"));
    if (pk.rank() != 4 || pk.dim(0) != B || pk.dim(1) != N || pk.dim(3) != H || pv.rank() != 4 ||
        pv.dim(0) != B || pv.dim(1) != N || pv.dim(2) != pk.dim(2) || pv.dim(3) != Hv) {
      return ctx.Error(absl::StrCat("inputs 'past_key' ", DimsToString(pk.dims()),
                                    " and 'past_value' ", DimsToString(pv.dims()), " must be [", B,
                                    ",", N, ",P,", H, "]"));
    }
    past = pk.dim(2);
    k = ConcatLength(pk.data<float>(), past, k.data(), L, B * N, H);
    v = ConcatLength(pv.data<float>(), past, v.data(), L, B * N, Hv);
  }
  const int64_t T = past + L;
  const DataType type = ctx.input(0).dtype();
  for (size_t i : {1, 2}) {
    if (ctx.num_outputs() <= i || !ctx.wants_output(i)) continue;
    const std::vector<float>& t = i == 1 ? k : v;
    Tensor present = Tensor::FromVector<float>(DataType::kFloat, {B, N, T, i == 1 ? H : Hv}, t);
    RETURN_IF_ERROR(SetFloatOutput(ctx, i, std::move(present), type));
  }
  ASSIGN_OR_RETURN(KeyMaskFn mask, KeyMask(ctx, 4, "key_padding_mask", B, S, T, past));
  ASSIGN_OR_RETURN(BiasFn attention_bias, AttentionBias(ctx, 5, B, N, S, T));
  const bool causal = ctx.GetInt("unidirectional", 0) != 0;
  const float filter = ctx.GetFloat("mask_filter_value", -10000.0f);
  AttentionProblem p;
  p.batch = B;
  p.q_heads = p.kv_heads = N;
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
  const bool want_qk = ctx.num_outputs() > 3 && ctx.wants_output(3);
  Tensor qk;
  Tensor y = RunAttention(p, want_qk ? &qk : nullptr, false);
  if (want_qk) {
    // onnxruntime 1.30 reports keys after the query as float's lowest.
    float* s = qk.mutable_data<float>();
    for (int64_t i = 0; i < qk.size(); ++i) {
      if (std::isinf(s[i]) && s[i] < 0) s[i] = std::numeric_limits<float>::lowest();
    }
    RETURN_IF_ERROR(SetFloatOutput(ctx, 3, std::move(qk), type));
  }
  return SetFloatOutput(ctx, 0, std::move(y), type);
}

}  // namespace

void RegisterMultiHeadAttentionKernels(KernelRegistry& r) {
  r.Register(kMsDomain, "MultiHeadAttention", 1, MultiHeadAttentionKernel);
}

}  // namespace onnx_opt::interpreter::contrib
