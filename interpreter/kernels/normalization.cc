// Normalization: BatchNormalization (incl. opset < 7 `spatial` and training mode),
// LayerNormalization, RMSNormalization, InstanceNormalization, GroupNormalization (opset 18
// per-group and 21 per-channel scale), LRN, LpNormalization, MeanVarianceNormalization. Computed in
// double, except float inference BatchNormalization and float LayerNormalization, which run on the
// vector kernels.
#include <algorithm>
#include <cmath>

#include "interpreter/cpu/vector_kernels.h"
#include "interpreter/kernels/common.h"

namespace onnx_opt::interpreter {
namespace {

using absl::OkStatus;
using absl::Status;
using absl::StatusOr;

StatusOr<Tensor> ToDouble(const Tensor& t) { return CastTensor(t, DataType::kDouble); }

StatusOr<Tensor> InputDouble(const KernelContext& ctx, size_t i) {
  ASSIGN_OR_RETURN(const Tensor* t, ctx.TensorInput(i));
  return ToDouble(*t);
}

Status SetAs(KernelContext& ctx, size_t i, Tensor t, DataType type) {
  ASSIGN_OR_RETURN(Tensor c, CastTensor(t, type));
  ctx.set_output(i, std::move(c));
  return OkStatus();
}

// Whether the node computes inference statistics per channel (no training outputs, no opset < 7
// per-element statistics).
bool IsChannelInference(const KernelContext& ctx) {
  const bool training = ctx.opset() >= 14
                            ? ctx.GetInt("training_mode", 0) != 0
                            : (ctx.opset() >= 7 && ctx.num_outputs() > 1 && ctx.wants_output(1));
  const bool legacy_per_element = ctx.opset() < 7 && ctx.GetInt("spatial", 1) == 0;
  return !training && !legacy_per_element;
}

// Float inference as y = x * scale[c] + shift[c], the constants worked out in double from the
// node's scale, B, mean and var (inputs 1..4) and rounded to float. False when those are not C
// floats.
StatusOr<bool> ChannelAffine(const KernelContext& ctx, int64_t C, std::vector<float>& scale,
                             std::vector<float>& shift) {
  const Tensor* params[4];
  for (size_t i = 0; i < 4; ++i) {
    ASSIGN_OR_RETURN(params[i], ctx.TensorInput(i + 1));
    if (params[i]->dtype() != DataType::kFloat || params[i]->size() != C) return false;
  }
  const double eps = ctx.GetFloat("epsilon", 1e-5f);
  scale.resize(C);
  shift.resize(C);
  for (int64_t c = 0; c < C; ++c) {
    const double a = params[0]->data<float>()[c] /
                     std::sqrt(static_cast<double>(params[3]->data<float>()[c]) + eps);
    scale[c] = static_cast<float>(a);
    shift[c] = static_cast<float>(params[1]->data<float>()[c] - params[2]->data<float>()[c] * a);
  }
  return true;
}

// Float inference: one multiply-add per element. Returns false (and does nothing) when the inputs
// do not have that form.
StatusOr<bool> BatchNormInferenceFloat(KernelContext& ctx, const Tensor& x) {
  if (x.dtype() != DataType::kFloat || x.rank() < 2) return false;
  const int64_t N = x.dim(0), C = x.dim(1), S = DimProduct(x.dims(), 2, x.rank());
  std::vector<float> scale, shift;
  ASSIGN_OR_RETURN(bool affine, ChannelAffine(ctx, C, scale, shift));
  if (!affine) return false;
  Tensor y = ctx.OutputBuffer(0, DataType::kFloat, x.dims());
  const float* px = x.data<float>();
  float* py = y.mutable_data<float>();
  ParallelItems(N * C, S, [&](int64_t begin, int64_t end) {
    for (int64_t nc = begin; nc < end; ++nc) {
      const int64_t c = nc % C;
      Vec().scale_shift_f32(px + nc * S, scale[c], shift[c], py + nc * S, S);
    }
  });
  ctx.set_output(0, std::move(y));
  return true;
}

Status BatchNormKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x0, ctx.TensorInput(0));
  if (IsChannelInference(ctx)) {
    ASSIGN_OR_RETURN(bool done, BatchNormInferenceFloat(ctx, *x0));
    if (done) return OkStatus();
  }
  if (x0->rank() < 1) return ctx.Error("X must have rank >= 1 ([N, C, ...])");
  ASSIGN_OR_RETURN(Tensor x, ToDouble(*x0));
  ASSIGN_OR_RETURN(Tensor scale, InputDouble(ctx, 1));
  ASSIGN_OR_RETURN(Tensor bias, InputDouble(ctx, 2));
  ASSIGN_OR_RETURN(Tensor mean, InputDouble(ctx, 3));
  ASSIGN_OR_RETURN(Tensor var, InputDouble(ctx, 4));
  const double eps = ctx.GetFloat("epsilon", 1e-5f);
  const double momentum = ctx.GetFloat("momentum", 0.9f);
  const int64_t N = x.dim(0), C = x.rank() > 1 ? x.dim(1) : 1;
  const int64_t S = x.rank() > 2 ? DimProduct(x.dims(), 2, x.rank()) : 1;
  // Opset < 7 with spatial=0: statistics per (C, spatial) element.
  const bool per_element =
      ctx.opset() < 7 && ctx.GetInt("spatial", 1) == 0 && scale.size() == C * S && S > 1;
  const bool training =
      ctx.opset() >= 14 ? ctx.GetInt("training_mode", 0) != 0
                        : (ctx.opset() < 7 ? false : ctx.num_outputs() > 1 && ctx.wants_output(1));
  const int64_t F = per_element ? C * S : C;  // features with their own statistics
  if (scale.size() < F || bias.size() < F || mean.size() < F || var.size() < F) {
    return ctx.Error("scale/B/mean/var are shorter than the channel count");
  }
  const int64_t inner = per_element ? 1 : S;
  std::vector<double> m(mean.data<double>(), mean.data<double>() + F),
      v(var.data<double>(), var.data<double>() + F);
  const double* px = x.data<double>();
  std::vector<double> bm(F, 0), bv(F, 0);
  if (training) {
    const double cnt = static_cast<double>(N * inner);
    for (int64_t n = 0; n < N; ++n) {
      for (int64_t f = 0; f < F; ++f) {
        for (int64_t s = 0; s < inner; ++s) bm[f] += px[(n * F + f) * inner + s];
      }
    }
    for (double& a : bm) a /= cnt;
    for (int64_t n = 0; n < N; ++n) {
      for (int64_t f = 0; f < F; ++f) {
        for (int64_t s = 0; s < inner; ++s) {
          const double dlt = px[(n * F + f) * inner + s] - bm[f];
          bv[f] += dlt * dlt;
        }
      }
    }
    for (double& a : bv) a /= cnt;
  }
  const std::vector<double>& um = training ? bm : m;
  const std::vector<double>& uv = training ? bv : v;
  Tensor y(DataType::kDouble, x.dims());
  double* py = y.mutable_data<double>();
  for (int64_t n = 0; n < N; ++n) {
    for (int64_t f = 0; f < F; ++f) {
      const double a = scale.data<double>()[f] / std::sqrt(uv[f] + eps);
      const double b = bias.data<double>()[f] - um[f] * a;
      for (int64_t s = 0; s < inner; ++s) {
        const int64_t i = (n * F + f) * inner + s;
        py[i] = px[i] * a + b;
      }
    }
  }
  RETURN_IF_ERROR(SetAs(ctx, 0, y, x0->dtype()));
  if (training && ctx.num_outputs() > 1) {
    std::vector<double> rm(F), rv(F);
    for (int64_t f = 0; f < F; ++f) {
      rm[f] = m[f] * momentum + bm[f] * (1 - momentum);
      rv[f] = v[f] * momentum + bv[f] * (1 - momentum);
    }
    RETURN_IF_ERROR(SetAs(ctx, 1, Tensor::FromVector<double>(DataType::kDouble, mean.dims(), rm),
                          ctx.input(3).dtype()));
    if (ctx.num_outputs() > 2) {
      RETURN_IF_ERROR(SetAs(ctx, 2, Tensor::FromVector<double>(DataType::kDouble, var.dims(), rv),
                            ctx.input(4).dtype()));
    }
  }
  return OkStatus();
}

// Float LayerNormalization whose scale (and bias) cover the normalized block exactly; false when
// the inputs do not have that form.
StatusOr<bool> LayerNormFloat(KernelContext& ctx, const Tensor& x) {
  if (x.dtype() != DataType::kFloat) return false;
  ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(ctx.GetInt("axis", -1), x.rank()));
  const int64_t outer = DimProduct(x.dims(), 0, axis), inner = DimProduct(x.dims(), axis, x.rank());
  ASSIGN_OR_RETURN(const Tensor* scale, ctx.TensorInput(1));
  const Tensor* bias = ctx.has_input(2) ? &ctx.input(2) : nullptr;
  if (scale->dtype() != DataType::kFloat || scale->size() != inner) return false;
  if (bias != nullptr && (bias->dtype() != DataType::kFloat || bias->size() != inner)) return false;
  const int64_t stash = ctx.GetInt("stash_type", 1);
  if (stash != 1) return false;  // statistics wanted in another type
  Tensor y = ctx.OutputBuffer(0, DataType::kFloat, x.dims());
  std::vector<int64_t> stat_dims = x.dims();
  for (int64_t d = axis; d < x.rank(); ++d) stat_dims[d] = 1;
  const bool want_mean = ctx.num_outputs() > 1 && ctx.wants_output(1);
  const bool want_inv = ctx.num_outputs() > 2 && ctx.wants_output(2);
  Tensor mean_t(DataType::kFloat, want_mean ? stat_dims : std::vector<int64_t>{0});
  Tensor inv_t(DataType::kFloat, want_inv ? stat_dims : std::vector<int64_t>{0});
  const float* px = x.data<float>();
  const float* pbias = bias != nullptr ? bias->data<float>() : nullptr;
  float* py = y.mutable_data<float>();
  float* pmean = want_mean ? mean_t.mutable_data<float>() : nullptr;
  float* pinv = want_inv ? inv_t.mutable_data<float>() : nullptr;
  const float epsilon = ctx.GetFloat("epsilon", 1e-5f);
  ParallelItems(outer, inner, [&](int64_t begin, int64_t end) {
    Vec().layer_norm_rows_f32(px + begin * inner, scale->data<float>(), pbias, py + begin * inner,
                              end - begin, inner, epsilon,
                              pmean != nullptr ? pmean + begin : nullptr,
                              pinv != nullptr ? pinv + begin : nullptr);
  });
  ctx.set_output(0, std::move(y));
  if (want_mean) ctx.set_output(1, std::move(mean_t));
  if (want_inv) ctx.set_output(2, std::move(inv_t));
  return true;
}

// Normalizes over the trailing dims from `axis`; rms = true skips the mean.
Status LayerNormImpl(KernelContext& ctx, bool rms) {
  ASSIGN_OR_RETURN(const Tensor* x0, ctx.TensorInput(0));
  if (!rms) {
    ASSIGN_OR_RETURN(bool done, LayerNormFloat(ctx, *x0));
    if (done) return OkStatus();
  }
  ASSIGN_OR_RETURN(Tensor x, ToDouble(*x0));
  ASSIGN_OR_RETURN(Tensor scale, InputDouble(ctx, 1));
  Tensor bias;
  if (!rms && ctx.has_input(2)) {
    ASSIGN_OR_RETURN(bias, InputDouble(ctx, 2));
  }
  ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(ctx.GetInt("axis", -1), x.rank()));
  const double eps = ctx.GetFloat("epsilon", 1e-5f);
  const int64_t outer = DimProduct(x.dims(), 0, axis), inner = DimProduct(x.dims(), axis, x.rank());
  std::vector<int64_t> norm_dims(x.dims().begin() + axis, x.dims().end());
  Tensor y(DataType::kDouble, x.dims());
  std::vector<int64_t> stat_dims = x.dims();
  for (int64_t d = axis; d < x.rank(); ++d) stat_dims[d] = 1;
  Tensor mean_t(DataType::kDouble, stat_dims), inv_t(DataType::kDouble, stat_dims);
  // Broadcast scale and bias over the normalized block.
  for (const Tensor* t : {&scale, &bias}) {
    if (!t->is_defined()) continue;
    ASSIGN_OR_RETURN(std::vector<int64_t> b, BroadcastShapes(t->dims(), x.dims()));
    if (b != x.dims()) return ctx.Error("scale and bias must broadcast to the input's shape");
  }
  std::vector<int64_t> sc_strides = BroadcastStrides(scale.dims(), x.dims());
  std::vector<int64_t> b_strides =
      bias.is_defined() ? BroadcastStrides(bias.dims(), x.dims()) : std::vector<int64_t>();
  const double* px = x.data<double>();
  double* py = y.mutable_data<double>();
  const std::vector<int64_t> xs = Strides(x.dims());
  for (int64_t o = 0; o < outer; ++o) {
    const double* row = px + o * inner;
    double mu = 0;
    if (!rms) {
      for (int64_t i = 0; i < inner; ++i) mu += row[i];
      mu /= inner;
    }
    double var = 0;
    for (int64_t i = 0; i < inner; ++i) var += (row[i] - mu) * (row[i] - mu);
    var /= inner;
    const double inv = 1.0 / std::sqrt(var + eps);
    mean_t.mutable_data<double>()[o] = mu;
    inv_t.mutable_data<double>()[o] = inv;
    for (int64_t i = 0; i < inner; ++i) {
      const int64_t lin = o * inner + i;
      int64_t si = 0, bi = 0, rem = lin;
      for (int64_t d = 0; d < x.rank(); ++d) {
        const int64_t c = rem / xs[d];
        rem %= xs[d];
        si += c * sc_strides[d];
        if (bias.is_defined()) bi += c * b_strides[d];
      }
      double v = (row[i] - mu) * inv * scale.data<double>()[si];
      if (bias.is_defined()) v += bias.data<double>()[bi];
      py[lin] = v;
    }
  }
  RETURN_IF_ERROR(SetAs(ctx, 0, y, x0->dtype()));
  DataType stash = ctx.GetInt("stash_type", 1) == 1
                       ? DataType::kFloat
                       : static_cast<DataType>(ctx.GetInt("stash_type", 1));
  if (ctx.num_outputs() > 1) RETURN_IF_ERROR(SetAs(ctx, 1, mean_t, stash));
  if (ctx.num_outputs() > 2) RETURN_IF_ERROR(SetAs(ctx, 2, inv_t, stash));
  return OkStatus();
}

Status InstanceNormKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x0, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(Tensor x, ToDouble(*x0));
  ASSIGN_OR_RETURN(Tensor scale, InputDouble(ctx, 1));
  ASSIGN_OR_RETURN(Tensor bias, InputDouble(ctx, 2));
  const double eps = ctx.GetFloat("epsilon", 1e-5f);
  if (x.rank() < 2) return ctx.Error("input must have rank >= 2 ([N, C, ...])");
  const int64_t N = x.dim(0), C = x.dim(1), S = DimProduct(x.dims(), 2, x.rank());
  // The spec's scale and B are [C]; longer ones (the adapter sweep's generated model gives every
  // input X's shape) have their first C values read, as before.
  if (scale.size() < C || bias.size() < C) {
    return ctx.Error(absl::StrCat("scale ", DimsToString(scale.dims()), " and B ",
                                  DimsToString(bias.dims()), " must hold one value per channel (",
                                  C, ")"));
  }
  // An empty input: nothing to compute, and the loops below would still count through the product
  // of its other dims ([2^40, 0, 2^40]), which may be astronomically large.
  if (x.size() == 0) return SetAs(ctx, 0, x, x0->dtype());
  Tensor y(DataType::kDouble, x.dims());
  for (int64_t n = 0; n < N; ++n) {
    for (int64_t c = 0; c < C; ++c) {
      const double* row = x.data<double>() + (n * C + c) * S;
      double mu = 0, var = 0;
      for (int64_t i = 0; i < S; ++i) mu += row[i];
      mu /= S;
      for (int64_t i = 0; i < S; ++i) var += (row[i] - mu) * (row[i] - mu);
      var /= S;
      const double inv = 1 / std::sqrt(var + eps);
      double* out = y.mutable_data<double>() + (n * C + c) * S;
      for (int64_t i = 0; i < S; ++i)
        out[i] = (row[i] - mu) * inv * scale.data<double>()[c] + bias.data<double>()[c];
    }
  }
  return SetAs(ctx, 0, y, x0->dtype());
}

Status GroupNormKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x0, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(Tensor x, ToDouble(*x0));
  ASSIGN_OR_RETURN(Tensor scale, InputDouble(ctx, 1));
  ASSIGN_OR_RETURN(Tensor bias, InputDouble(ctx, 2));
  const double eps = ctx.GetFloat("epsilon", 1e-5f);
  const int64_t G = ctx.GetInt("num_groups", 1);
  if (x.rank() < 2) return ctx.Error("X must have rank >= 2 ([N, C, ...])");
  const int64_t N = x.dim(0), C = x.dim(1), S = DimProduct(x.dims(), 2, x.rank());
  if (G <= 0 || C % G != 0) return ctx.Error("num_groups must divide the channels");
  const int64_t Cg = C / G;
  const bool per_group = scale.size() == G && G != C;
  // scale and bias: one value per channel (opset 21) or per group (opset 18).
  if ((scale.size() != C && !per_group) || bias.size() != scale.size()) {
    return ctx.Error(
        absl::StrCat("scale ", DimsToString(scale.dims()), " and bias ", DimsToString(bias.dims()),
                     " must both hold one value per channel (", C, ") or per group (", G, ")"));
  }
  // An empty input: nothing to compute, and the loops below would still count through the product
  // of its other dims ([2^40, 0, 2^40]), which may be astronomically large.
  if (x.size() == 0) return SetAs(ctx, 0, x, x0->dtype());
  Tensor y(DataType::kDouble, x.dims());
  for (int64_t n = 0; n < N; ++n) {
    for (int64_t g = 0; g < G; ++g) {
      const double* blk = x.data<double>() + (n * C + g * Cg) * S;
      const int64_t L = Cg * S;
      double mu = 0, var = 0;
      for (int64_t i = 0; i < L; ++i) mu += blk[i];
      mu /= L;
      for (int64_t i = 0; i < L; ++i) var += (blk[i] - mu) * (blk[i] - mu);
      var /= L;
      const double inv = 1 / std::sqrt(var + eps);
      double* out = y.mutable_data<double>() + (n * C + g * Cg) * S;
      for (int64_t i = 0; i < L; ++i) {
        const int64_t c = per_group ? g : g * Cg + i / S;
        out[i] = (blk[i] - mu) * inv * scale.data<double>()[c] + bias.data<double>()[c];
      }
    }
  }
  return SetAs(ctx, 0, y, x0->dtype());
}

Status LRNKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x0, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(Tensor x, ToDouble(*x0));
  const double alpha = ctx.GetFloat("alpha", 1e-4f), beta = ctx.GetFloat("beta", 0.75f),
               bias = ctx.GetFloat("bias", 1.0f);
  const int64_t size = ctx.GetInt("size", 1);
  if (x.rank() < 2) return ctx.Error("X must have rank >= 2 ([N, C, ...])");
  // The window (size - 1) / 2 either side: 0 or less has no elements, and size - 1 overflowed for
  // INT64_MIN.
  if (size < 1) return ctx.Error(absl::StrCat("size ", size, " must be positive"));
  // An empty input: nothing to compute, and the loops below would still count through the product
  // of its other dims ([2^40, 0, 2^40]), which may be astronomically large.
  if (x.size() == 0) return SetAs(ctx, 0, x, x0->dtype());
  const int64_t N = x.dim(0), C = x.dim(1), S = DimProduct(x.dims(), 2, x.rank());
  Tensor y(DataType::kDouble, x.dims());
  const double* px = x.data<double>();
  for (int64_t n = 0; n < N; ++n) {
    for (int64_t c = 0; c < C; ++c) {
      const int64_t lo = std::max<int64_t>(0, c - (size - 1) / 2);
      const int64_t hi = std::min<int64_t>(C - 1, c + (size - 1) / 2 + ((size - 1) % 2));
      for (int64_t s = 0; s < S; ++s) {
        double sq = 0;
        for (int64_t k = lo; k <= hi; ++k) sq += px[(n * C + k) * S + s] * px[(n * C + k) * S + s];
        y.mutable_data<double>()[(n * C + c) * S + s] =
            px[(n * C + c) * S + s] / std::pow(bias + alpha / size * sq, beta);
      }
    }
  }
  return SetAs(ctx, 0, y, x0->dtype());
}

Status LpNormKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x0, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(Tensor x, ToDouble(*x0));
  ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(ctx.GetInt("axis", -1), x.rank()));
  const int64_t p = ctx.GetInt("p", 2);
  // The spec supports only these two (a third would silently have been computed as 2).
  if (p != 1 && p != 2)
    return ctx.Error(absl::StrCat("p is ", p, "; LpNormalization supports only 1 and 2"));
  // An empty input: nothing to compute, and the loops below would still count through the product
  // of its other dims ([2^40, 0, 2^40]), which may be astronomically large.
  if (x.size() == 0) return SetAs(ctx, 0, x, x0->dtype());
  const int64_t outer = DimProduct(x.dims(), 0, axis), len = x.dim(axis),
                inner = DimProduct(x.dims(), axis + 1, x.rank());
  Tensor y(DataType::kDouble, x.dims());
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      double acc = 0;
      for (int64_t k = 0; k < len; ++k) {
        const double v = x.data<double>()[(o * len + k) * inner + i];
        acc += p == 1 ? std::abs(v) : v * v;
      }
      const double norm = p == 1 ? acc : std::sqrt(acc);
      for (int64_t k = 0; k < len; ++k) {
        const int64_t at = (o * len + k) * inner + i;
        y.mutable_data<double>()[at] = norm == 0 ? 0 : x.data<double>()[at] / norm;
      }
    }
  }
  return SetAs(ctx, 0, y, x0->dtype());
}

Status MVNKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x0, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(Tensor x, ToDouble(*x0));
  ASSIGN_OR_RETURN(std::vector<int64_t> axes,
                   NormalizeAxes(ctx.GetInts("axes", {0, 2, 3}), x.rank()));
  std::vector<int64_t> kept = x.dims();
  for (int64_t a : axes) kept[a] = 1;
  const int64_t n_out = NumElements(kept);
  std::vector<double> sum(n_out, 0), sq(n_out, 0);
  const double cnt = static_cast<double>(x.size()) / n_out;
  const double* px = x.data<double>();
  const std::vector<int64_t> one{1};
  ForEachBroadcast(x.dims(), kept, one, [&](int64_t i, int64_t o, int64_t) {
    sum[o] += px[i];
    sq[o] += px[i] * px[i];
  });
  Tensor y(DataType::kDouble, x.dims());
  double* py = y.mutable_data<double>();
  ForEachBroadcast(x.dims(), kept, one, [&](int64_t i, int64_t o, int64_t) {
    const double mu = sum[o] / cnt;
    const double var = sq[o] / cnt - mu * mu;
    py[i] = (px[i] - mu) / (std::sqrt(var) + 1e-9);
  });
  return SetAs(ctx, 0, y, x0->dtype());
}

}  // namespace

StatusOr<bool> AppendBatchNormEpilogue(const KernelContext& node_ctx, int64_t channels,
                                       ChannelEpilogue& e) {
  if (!IsChannelInference(node_ctx) || !e.scale.empty() || e.has_activation) return false;
  return ChannelAffine(node_ctx, channels, e.scale, e.shift);
}

void RegisterNormalizationKernels(KernelRegistry& r) {
  r.Register("", "BatchNormalization", 1, BatchNormKernel);
  r.Register("", "LayerNormalization", 17,
             [](KernelContext& c) { return LayerNormImpl(c, false); });
  r.Register("", "RMSNormalization", 23, [](KernelContext& c) { return LayerNormImpl(c, true); });
  r.Register("", "InstanceNormalization", 1, InstanceNormKernel);
  r.Register("", "GroupNormalization", 18, GroupNormKernel);
  r.Register("", "LRN", 1, LRNKernel);
  r.Register("", "LpNormalization", 1, LpNormKernel);
  r.Register("", "MeanVarianceNormalization", 9, MVNKernel);
}

}  // namespace onnx_opt::interpreter
