#include "interpreter/kernels/contrib/attention_core.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "interpreter/kernels/common.h"
#include "interpreter/kernels/contrib/contrib.h"

namespace onnx_opt::interpreter::contrib {

Tensor RunAttention(const AttentionProblem& p, Tensor* scores, bool probabilities) {
  const int64_t B = p.batch, Nq = p.q_heads, S = p.q_len, L = p.kv_len, H = p.head_size,
                Hv = p.v_head_size;
  const int64_t group = Nq / p.kv_heads;
  Tensor y(DataType::kFloat, {B, S, Nq * Hv});
  if (scores != nullptr) *scores = Tensor(DataType::kFloat, {B, Nq, S, L});
  float* py = y.mutable_data<float>();
  constexpr double kNegInf = -std::numeric_limits<double>::infinity();
  ParallelItems(B * Nq, S * L * (H + Hv), [&](int64_t begin, int64_t end) {
    std::vector<double> s(L);
    std::vector<char> in(L);
    for (int64_t bh = begin; bh < end; ++bh) {
      const int64_t b = bh / Nq, h = bh % Nq, kvh = b * p.kv_heads + h / group;
      const float* k = p.k + kvh * L * H;
      const float* v = p.v + kvh * L * Hv;
      for (int64_t i = 0; i < S; ++i) {
        const float* q = p.q + (bh * S + i) * H;
        double max = kNegInf;
        for (int64_t j = 0; j < L; ++j) {
          in[j] = !p.allowed || p.allowed(b, h, i, j);
          if (!in[j]) {
            s[j] = kNegInf;
            continue;
          }
          double dot = 0;
          for (int64_t d = 0; d < H; ++d) dot += static_cast<double>(q[d]) * k[j * H + d];
          double x = dot * p.scale;
          if (p.softcap > 0) x = p.softcap * std::tanh(x / p.softcap);
          // Score and additive mask are summed in float32, as onnxruntime's kernels accumulate
          // the scores onto the mask: next to -10000 a score keeps about 2^-10, which decides
          // the softmax of a query whose keys are all masked.
          if (p.bias) x = static_cast<float>(static_cast<float>(x) + p.bias(b, h, i, j));
          s[j] = x;
          max = std::max(max, x);
        }
        const double sink = p.sink != nullptr ? p.sink[h] : kNegInf;
        if (p.sink != nullptr) max = std::max(max, sink);
        float* scores_row =
            scores != nullptr ? scores->mutable_data<float>() + (bh * S + i) * L : nullptr;
        if (scores_row != nullptr && !probabilities) {
          for (int64_t j = 0; j < L; ++j) scores_row[j] = static_cast<float>(s[j]);
        }
        double sum = p.sink != nullptr ? std::exp(sink - max) : 0;
        for (int64_t j = 0; j < L; ++j) {
          s[j] = in[j] ? std::exp(s[j] - max) : 0;
          sum += s[j];
        }
        float* out = py + (b * S + i) * Nq * Hv + h * Hv;
        if (sum == 0 || max == kNegInf) continue;  // no key: zeros
        for (int64_t j = 0; j < L; ++j) s[j] /= sum;
        if (scores_row != nullptr && probabilities) {
          for (int64_t j = 0; j < L; ++j) scores_row[j] = static_cast<float>(s[j]);
        }
        for (int64_t d = 0; d < Hv; ++d) {
          double acc = 0;
          for (int64_t j = 0; j < L; ++j) acc += s[j] * v[j * Hv + d];
          out[d] = static_cast<float>(acc);
        }
      }
    }
  });
  return y;
}

absl::StatusOr<KeyMaskFn> KeyMask(const KernelContext& ctx, size_t input, std::string_view name,
                                  int64_t batch, int64_t q_len, int64_t total, int64_t past) {
  if (!ctx.has_input(input)) return KeyMaskFn();
  ASSIGN_OR_RETURN(const Tensor* m, ctx.TensorInput(input));
  const auto bad = [&] {
    return ctx.Error(
        absl::StrCat("input '", std::string(name), "' of shape ", DimsToString(m->dims()),
                     " is none of [B], [2B], [B,T], [B,S,T], [B,1,M,M] for B = ", batch,
                     ", S = ", q_len, ", T = ", total));
  };
  if (m->dtype() != DataType::kInt32) {
    return ctx.Error(
        absl::StrCat("input '", std::string(name), "' must be int32, got ", m->ShapeString()));
  }
  const std::vector<int32_t> v = m->ToVector<int32_t>();
  if (m->rank() == 1 && m->dim(0) == batch) {
    return KeyMaskFn([v](int64_t b, int64_t, int64_t j) { return j >= v[b]; });
  }
  if (m->rank() == 1 && m->dim(0) == 2 * batch) {
    return KeyMaskFn(
        [v, batch](int64_t b, int64_t, int64_t j) { return j >= v[b] || j < v[batch + b]; });
  }
  if (m->rank() == 2 && m->dim(0) == batch && m->dim(1) == total) {
    return KeyMaskFn([v, total](int64_t b, int64_t, int64_t j) { return v[b * total + j] <= 0; });
  }
  if (m->rank() == 3 && m->dim(0) == batch && m->dim(1) == q_len && m->dim(2) == total) {
    return KeyMaskFn([v, q_len, total](int64_t b, int64_t i, int64_t j) {
      return v[(b * q_len + i) * total + j] <= 0;
    });
  }
  if (m->rank() == 4 && m->dim(0) == batch && m->dim(1) == 1 && m->dim(2) == m->dim(3) &&
      m->dim(2) >= past + q_len && m->dim(3) >= total) {
    const int64_t M = m->dim(2);
    return KeyMaskFn([v, M, past](int64_t b, int64_t i, int64_t j) {
      return v[(b * M + past + i) * M + j] == 0;
    });
  }
  return bad();
}

absl::StatusOr<BiasFn> AttentionBias(const KernelContext& ctx, size_t input, int64_t batch,
                                     int64_t heads, int64_t q_len, int64_t total) {
  if (!ctx.has_input(input)) return BiasFn();
  ASSIGN_OR_RETURN(Tensor t, FloatInput(ctx, input, "attention_bias"));
  if (t.rank() != 4 || (t.dim(0) != batch && t.dim(0) != 1) ||
      (t.dim(1) != heads && t.dim(1) != 1) || t.dim(2) != q_len || t.dim(3) < total) {
    return ctx.Error(absl::StrCat("input 'attention_bias' must have shape [", batch, " or 1,",
                                  heads, " or 1,", q_len, ",", total, "], got ",
                                  DimsToString(t.dims())));
  }
  const bool all_b = t.dim(0) != 1, all_h = t.dim(1) != 1;
  const int64_t width = t.dim(3);
  return BiasFn([t, all_b, all_h, heads, q_len, width](int64_t b, int64_t h, int64_t i, int64_t j) {
    if (j >= width) return 0.0f;
    const int64_t row = ((all_b ? b : 0) * (all_h ? heads : 1) + (all_h ? h : 0)) * q_len + i;
    return t.data<float>()[row * width + j];
  });
}

std::vector<float> ToHeads(const float* x, int64_t batch, int64_t len, int64_t heads, int64_t size,
                           int64_t row_stride, int64_t offset) {
  std::vector<float> out(batch * heads * len * size);
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t s = 0; s < len; ++s) {
      const float* row = x + (b * len + s) * row_stride + offset;
      for (int64_t h = 0; h < heads; ++h) {
        std::copy(row + h * size, row + (h + 1) * size,
                  out.begin() + ((b * heads + h) * len + s) * size);
      }
    }
  }
  return out;
}

std::vector<float> ConcatLength(const float* past, int64_t past_len, const float* now,
                                int64_t now_len, int64_t bh, int64_t d) {
  std::vector<float> out(bh * (past_len + now_len) * d);
  for (int64_t i = 0; i < bh; ++i) {
    float* o = out.data() + i * (past_len + now_len) * d;
    std::copy(past + i * past_len * d, past + (i + 1) * past_len * d, o);
    std::copy(now + i * now_len * d, now + (i + 1) * now_len * d, o + past_len * d);
  }
  return out;
}

BiasFn MaskedScores(BiasFn attention_bias, KeyMaskFn mask, float filter) {
  return [attention_bias = std::move(attention_bias), mask = std::move(mask), filter](
             int64_t b, int64_t h, int64_t i, int64_t j) {
    float add = attention_bias ? attention_bias(b, h, i, j) : 0.0f;
    if (mask && mask(b, i, j)) add += filter;
    return add;
  };
}

std::function<bool(int64_t, int64_t, int64_t, int64_t)> CausalKeys(bool causal, int64_t past) {
  if (!causal) return nullptr;
  return [past](int64_t, int64_t, int64_t i, int64_t j) { return j <= past + i; };
}

}  // namespace onnx_opt::interpreter::contrib
