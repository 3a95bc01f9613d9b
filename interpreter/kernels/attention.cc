// Attention (opset 23+: 3-D/4-D inputs, past key/value, GQA, masks, causal and windowed masking,
// softcap, qk_matmul_output modes), RotaryEmbedding, SwiGLU. Computed in double, but for the sum of
// the float32 scores with a float32 additive mask, rounded to float32 as onnxruntime computes it.
#include <cmath>
#include <limits>

#include "interpreter/kernels/common.h"

namespace onnx_opt::interpreter {
namespace {

using absl::OkStatus;
using absl::Status;
using absl::StatusOr;

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

// [B, S, H*D] -> [B, H, S, D]
StatusOr<Tensor> SplitHeads(const Tensor& t, int64_t heads) {
  if (heads <= 0 || t.dim(2) % heads != 0) return absl::InvalidArgumentError("bad number of heads");
  Tensor r = t.Reshaped({t.dim(0), t.dim(1), heads, t.dim(2) / heads});
  return TransposeTensor(r, {0, 2, 1, 3});
}

StatusOr<Tensor> Concat2(const Tensor& a, const Tensor& b) {  // along axis 2 of 4-D
  std::vector<int64_t> dims = a.dims();
  dims[2] += b.dim(2);
  Tensor out(a.dtype(), dims);
  const int64_t outer = a.dim(0) * a.dim(1), inner = a.dim(3);
  for (int64_t o = 0; o < outer; ++o) {
    CopyElements(a, o * a.dim(2) * inner, out, o * dims[2] * inner, a.dim(2) * inner);
    CopyElements(b, o * b.dim(2) * inner, out, (o * dims[2] + a.dim(2)) * inner, b.dim(2) * inner);
  }
  return out;
}

Status AttentionKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* q0, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(const Tensor* k0, ctx.TensorInput(1));
  ASSIGN_OR_RETURN(const Tensor* v0, ctx.TensorInput(2));
  const DataType dt = q0->dtype();
  ASSIGN_OR_RETURN(Tensor q, CastTensor(*q0, DataType::kDouble));
  ASSIGN_OR_RETURN(Tensor k, CastTensor(*k0, DataType::kDouble));
  ASSIGN_OR_RETURN(Tensor v, CastTensor(*v0, DataType::kDouble));
  const bool is3d = q.rank() == 3;
  if (k.rank() != q.rank() || v.rank() != q.rank())
    return ctx.Error("Q, K and V must have the same rank");
  if (is3d) {
    ASSIGN_OR_RETURN(q, SplitHeads(q, ctx.GetInt("q_num_heads", 0)));
    ASSIGN_OR_RETURN(k, SplitHeads(k, ctx.GetInt("kv_num_heads", 0)));
    ASSIGN_OR_RETURN(v, SplitHeads(v, ctx.GetInt("kv_num_heads", 0)));
  } else if (q.rank() != 4) {
    return ctx.Error("Q must be 3-D or 4-D");
  }
  // Shapes the loops below index by: [B, H, S, D] with B shared, K and V of one length and head
  // count, and K's head size that of Q; past key/value of K's and V's shape but for their length.
  if (k.dim(0) != q.dim(0) || v.dim(0) != q.dim(0) || k.dim(3) != q.dim(3) ||
      v.dim(2) != k.dim(2) || v.dim(1) != k.dim(1) || k.dim(1) == 0) {
    return ctx.Error(absl::StrCat("Q, K and V shapes do not fit together: ", DimsToString(q.dims()),
                                  ", ", DimsToString(k.dims()), ", ", DimsToString(v.dims())));
  }
  for (int i : {4, 5}) {
    if (!ctx.has_input(i)) continue;
    const Tensor& p = ctx.input(i);
    const Tensor& now = i == 4 ? k : v;
    if (p.rank() != 4 || p.dim(0) != now.dim(0) || p.dim(1) != now.dim(1) ||
        p.dim(3) != now.dim(3)) {
      return ctx.Error(absl::StrCat(i == 4 ? "past_key" : "past_value", " of shape ",
                                    DimsToString(p.dims()), " does not fit ",
                                    DimsToString(now.dims())));
    }
  }
  if (ctx.has_input(4) != ctx.has_input(5) ||
      (ctx.has_input(4) && ctx.input(4).dim(2) != ctx.input(5).dim(2))) {
    return ctx.Error("past_key and past_value must be given together, of one length");
  }
  const int64_t past = ctx.has_input(4) ? ctx.input(4).dim(2) : 0;
  if (ctx.has_input(4)) {
    ASSIGN_OR_RETURN(Tensor pk, CastTensor(ctx.input(4), DataType::kDouble));
    ASSIGN_OR_RETURN(k, Concat2(pk, k));
  }
  if (ctx.has_input(5)) {
    ASSIGN_OR_RETURN(Tensor pv, CastTensor(ctx.input(5), DataType::kDouble));
    ASSIGN_OR_RETURN(v, Concat2(pv, v));
  }
  if (ctx.num_outputs() > 1 && ctx.wants_output(1)) {
    ASSIGN_OR_RETURN(Tensor t, CastTensor(k, k0->dtype()));
    ctx.set_output(1, std::move(t));
  }
  if (ctx.num_outputs() > 2 && ctx.wants_output(2)) {
    ASSIGN_OR_RETURN(Tensor t, CastTensor(v, v0->dtype()));
    ctx.set_output(2, std::move(t));
  }
  const int64_t B = q.dim(0), Hq = q.dim(1), Sq = q.dim(2), D = q.dim(3);
  const int64_t Hk = k.dim(1), Skv = k.dim(2), Dv = v.dim(3);
  if (Hq % Hk != 0 || v.dim(1) != Hk)
    return ctx.Error("query heads must be a multiple of key/value heads");
  double scale =
      ctx.has_attr("scale") ? ctx.GetFloat("scale", 1.0f) : 1.0 / std::sqrt(static_cast<double>(D));
  const bool causal = ctx.GetInt("is_causal", 0) != 0;
  const double softcap = ctx.GetFloat("softcap", 0.0f);
  const int64_t mode = ctx.GetInt("qk_matmul_output_mode", 0);
  const int64_t left = ctx.GetInt("left_window_size", -1),
                right = ctx.GetInt("right_window_size", -1);
  // Mask as an additive bias broadcast to [B, Hq, Sq, Skv].
  Tensor mask;
  std::vector<int64_t> mstr;
  const std::vector<int64_t> full{B, Hq, Sq, Skv};
  if (ctx.has_input(3)) {
    const Tensor& m0 = ctx.input(3);
    if (m0.dtype() == DataType::kBool) {
      mask = Tensor(DataType::kDouble, m0.dims());
      for (int64_t i = 0; i < m0.size(); ++i)
        mask.mutable_data<double>()[i] = m0.data<bool>()[i] ? 0 : kNegInf;
    } else {
      ASSIGN_OR_RETURN(mask, CastTensor(m0, DataType::kDouble));
    }
    // A mask shorter than the total kv length covers its first positions; the rest are padded with
    // -inf.
    if (mask.rank() > 0 && mask.dim(mask.rank() - 1) < Skv) {
      std::vector<int64_t> d = mask.dims();
      const int64_t old = d.back();
      d.back() = Skv;
      Tensor pm(DataType::kDouble, d);
      const int64_t rows = mask.size() / std::max<int64_t>(old, 1);
      for (int64_t r = 0; r < rows; ++r) {
        for (int64_t j = 0; j < Skv; ++j) {
          pm.mutable_data<double>()[r * Skv + j] =
              j < old ? mask.data<double>()[r * old + j] : kNegInf;
        }
      }
      mask = pm;
    }
    ASSIGN_OR_RETURN(std::vector<int64_t> bd, BroadcastShapes(mask.dims(), full));
    if (bd != full) return ctx.Error("attn_mask cannot be broadcast to the scores");
    mstr = BroadcastStrides(mask.dims(), full);
  }
  const bool float_sum =
      dt == DataType::kFloat && ctx.has_input(3) && ctx.input(3).dtype() == DataType::kFloat;
  std::vector<int64_t> nonpad;
  if (ctx.has_input(6)) {
    ASSIGN_OR_RETURN(nonpad, ctx.IntsInput(6));
    if (static_cast<int64_t>(nonpad.size()) != B)
      return ctx.Error("nonpad_kv_seqlen must hold one length per batch");
    for (int64_t n : nonpad) {
      if (n < 0 || n > Skv) return ctx.Error("nonpad_kv_seqlen out of range");
    }
  }
  Tensor y(DataType::kDouble, {B, Hq, Sq, Dv});
  Tensor qk(DataType::kDouble, {B, Hq, Sq, Skv});
  const double* pq = q.data<double>();
  const double* pk = k.data<double>();
  const double* pv = v.data<double>();
  std::vector<double> s(Skv), raw(Skv);
  for (int64_t b = 0; b < B; ++b) {
    for (int64_t h = 0; h < Hq; ++h) {
      const int64_t hk = h / (Hq / Hk);
      for (int64_t i = 0; i < Sq; ++i) {
        const double* qi = pq + ((b * Hq + h) * Sq + i) * D;
        for (int64_t j = 0; j < Skv; ++j) {
          const double* kj = pk + ((b * Hk + hk) * Skv + j) * D;
          double dot = 0;
          for (int64_t d = 0; d < D; ++d) dot += qi[d] * kj[d];
          raw[j] = dot * scale;
          double bias = 0;
          // Queries are the last Sq positions of the valid keys (nonpad_kv_seqlen) or follow the
          // past.
          const int64_t off = nonpad.empty() ? past : nonpad[b] - Sq;
          if (causal && j > i + off) bias = kNegInf;
          if (left >= 0 && j < i + off - left) bias = kNegInf;
          if (right >= 0 && j > i + off + right) bias = kNegInf;
          if (!nonpad.empty() && j >= nonpad[b]) bias = kNegInf;
          if (mask.is_defined()) {
            bias += mask.data<double>()[b * mstr[0] + h * mstr[1] + i * mstr[2] + j * mstr[3]];
          }
          s[j] = bias;
        }
        double* qko = qk.mutable_data<double>() + ((b * Hq + h) * Sq + i) * Skv;
        for (int64_t j = 0; j < Skv; ++j) qko[j] = raw[j];
        if (softcap > 0) {
          for (int64_t j = 0; j < Skv; ++j) raw[j] = softcap * std::tanh(raw[j] / softcap);
        }
        if (mode == 1) {  // the reference reports the soft-capped scores here
          for (int64_t j = 0; j < Skv; ++j) qko[j] = raw[j];
        }
        if (float_sum) {
          // A float32 additive mask is summed with the scores in float32, as onnxruntime's
          // kernel (and the reference's float32 arithmetic) does: next to -10000 a score keeps
          // about 2^-10, which decides the softmax of a query whose keys are all masked.
          for (int64_t j = 0; j < Skv; ++j) {
            s[j] = static_cast<float>(static_cast<float>(raw[j]) + static_cast<float>(s[j]));
          }
        } else {
          for (int64_t j = 0; j < Skv; ++j) s[j] += raw[j];
        }
        if (mode == 2) {
          for (int64_t j = 0; j < Skv; ++j) qko[j] = s[j];
        }
        double mx = kNegInf;
        for (int64_t j = 0; j < Skv; ++j) mx = std::max(mx, s[j]);
        double sum = 0;
        for (int64_t j = 0; j < Skv; ++j) {
          s[j] = mx == kNegInf ? 0 : std::exp(s[j] - mx);
          sum += s[j];
        }
        for (int64_t j = 0; j < Skv; ++j) s[j] = sum == 0 ? 0 : s[j] / sum;
        if (mode == 3) {
          for (int64_t j = 0; j < Skv; ++j) qko[j] = s[j];
        }
        double* yo = y.mutable_data<double>() + ((b * Hq + h) * Sq + i) * Dv;
        for (int64_t j = 0; j < Skv; ++j) {
          const double* vj = pv + ((b * Hk + hk) * Skv + j) * Dv;
          for (int64_t d = 0; d < Dv; ++d) yo[d] += s[j] * vj[d];
        }
      }
    }
  }
  if (is3d) {
    ASSIGN_OR_RETURN(y, TransposeTensor(y, {0, 2, 1, 3}));
    y = y.Reshaped({B, Sq, Hq * Dv});
  }
  ASSIGN_OR_RETURN(y, CastTensor(y, dt));
  ctx.set_output(0, std::move(y));
  if (ctx.num_outputs() > 3 && ctx.wants_output(3)) {
    ASSIGN_OR_RETURN(qk, CastTensor(qk, dt));
    ctx.set_output(3, std::move(qk));
  }
  return OkStatus();
}

Status RotaryEmbeddingKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x0, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(Tensor x, CastTensor(*x0, DataType::kDouble));
  ASSIGN_OR_RETURN(const Tensor* c0, ctx.TensorInput(1));
  ASSIGN_OR_RETURN(const Tensor* s0, ctx.TensorInput(2));
  ASSIGN_OR_RETURN(Tensor cosc, CastTensor(*c0, DataType::kDouble));
  ASSIGN_OR_RETURN(Tensor sinc, CastTensor(*s0, DataType::kDouble));
  const bool interleaved = ctx.GetInt("interleaved", 0) != 0;
  int64_t rot = ctx.GetInt("rotary_embedding_dim", 0);
  const int64_t heads = ctx.GetInt("num_heads", 0);
  // Work in [B, S, H, D].
  if (x.rank() != 3 && x.rank() != 4) return ctx.Error("input must have rank 3 or 4");
  const bool is4d = x.rank() == 4;
  Tensor xs;
  if (is4d) {
    ASSIGN_OR_RETURN(xs, TransposeTensor(x, {0, 2, 1, 3}));  // [B, H, S, D] -> [B, S, H, D]
  } else {
    if (heads <= 0) return ctx.Error("num_heads is required for 3-D input");
    if (x.dim(2) % heads != 0) {
      return ctx.Error(
          absl::StrCat("hidden size ", x.dim(2), " is not a multiple of num_heads ", heads));
    }
    xs = x.Reshaped({x.dim(0), x.dim(1), heads, x.dim(2) / heads});
  }
  const int64_t B = xs.dim(0), S = xs.dim(1), H = xs.dim(2), D = xs.dim(3);
  if (rot == 0) rot = D;
  if (rot < 0 || rot > D || rot % 2 != 0) {
    return ctx.Error(
        absl::StrCat("rotary_embedding_dim ", rot, " must be even and at most the head size ", D));
  }
  const int64_t half = rot / 2;
  const bool with_ids = ctx.has_input(3);
  std::vector<int64_t> pos;
  if (with_ids) {
    ASSIGN_OR_RETURN(pos, ctx.IntsInput(3));
  }
  // cos/sin caches: [max_position_id + 1, rot / 2] with position ids, [B, S, rot / 2] without.
  if (cosc.dims() != sinc.dims())
    return ctx.Error("cos_cache and sin_cache must have the same shape");
  const bool cache_fits = with_ids ? cosc.rank() == 2 && cosc.dim(1) == half
                                   : cosc.dims() == std::vector<int64_t>{B, S, half};
  if (!cache_fits) {
    return ctx.Error(absl::StrCat(
        "cos_cache has shape ", DimsToString(cosc.dims()), "; expected ",
        with_ids ? absl::StrCat("[max_position_id + 1, ", half, "]") : DimsToString({B, S, half})));
  }
  if (with_ids) {
    if (static_cast<int64_t>(pos.size()) != B * S) {
      return ctx.Error(
          absl::StrCat("position_ids has ", pos.size(), " values; expected [", B, ", ", S, "]"));
    }
    for (int64_t p : pos) {
      if (p < 0 || p >= cosc.dim(0)) {
        return ctx.Error(absl::StrCat("position id ", p, " is outside the cache of ", cosc.dim(0),
                                      " positions"));
      }
    }
  }
  Tensor out = xs.Clone();
  double* po = out.mutable_data<double>();
  const double* px = xs.data<double>();
  for (int64_t b = 0; b < B; ++b) {
    for (int64_t s = 0; s < S; ++s) {
      // cos/sin rows: [max_pos, half] indexed by position id, or [B, S, half] without ids.
      const double* cr;
      const double* sr;
      if (with_ids) {
        const int64_t p = pos[b * S + s];
        cr = cosc.data<double>() + p * cosc.dim(cosc.rank() - 1);
        sr = sinc.data<double>() + p * sinc.dim(sinc.rank() - 1);
      } else {
        cr = cosc.data<double>() + (b * S + s) * cosc.dim(cosc.rank() - 1);
        sr = sinc.data<double>() + (b * S + s) * sinc.dim(sinc.rank() - 1);
      }
      for (int64_t h = 0; h < H; ++h) {
        const double* xi = px + ((b * S + s) * H + h) * D;
        double* yo = po + ((b * S + s) * H + h) * D;
        for (int64_t i = 0; i < half; ++i) {
          const int64_t a = interleaved ? 2 * i : i, c = interleaved ? 2 * i + 1 : i + half;
          const double x1 = xi[a], x2 = xi[c];
          yo[a] = x1 * cr[i] - x2 * sr[i];
          yo[c] = x2 * cr[i] + x1 * sr[i];
        }
      }
    }
  }
  if (is4d) {
    ASSIGN_OR_RETURN(out, TransposeTensor(out, {0, 2, 1, 3}));
  } else {
    out = out.Reshaped(x.dims());
  }
  ASSIGN_OR_RETURN(out, CastTensor(out, x0->dtype()));
  ctx.set_output(0, std::move(out));
  return OkStatus();
}

}  // namespace

void RegisterAttentionKernels(KernelRegistry& r) {
  r.Register("", "Attention", 23, AttentionKernel);
  r.Register("", "RotaryEmbedding", 23, RotaryEmbeddingKernel);
}

}  // namespace onnx_opt::interpreter
