// SkipLayerNormalization, SkipSimplifiedLayerNormalization (com.microsoft) and
// SimplifiedLayerNormalization (onnxruntime registers it in the default domain at version 1; models
// also spell it com.microsoft). Rows are normalized over the last dim
// (SimplifiedLayerNormalization: from `axis` on) with statistics summed in double;
// LayerNormalization's vector kernel does the non-simplified rows, so Add + LayerNormalization
// computes the same bits.
#include <cmath>
#include <string>

#include "interpreter/kernels/common.h"
#include "interpreter/kernels/contrib/contrib.h"

namespace onnx_opt::interpreter::contrib {
namespace {

using absl::Status;
using absl::StatusOr;

// onnxruntime's default epsilon of the skip (and embed) layer normalizations.
constexpr float kSkipEpsilon = 1e-12f;

// Root-mean-square normalization of `rows` rows of n floats: y = x / sqrt(mean(x^2) + eps) * scale.
// mean/inv receive one value per row when not null (mean: the rows' plain mean).
void RmsRows(const float* x, const float* scale, float* y, int64_t rows, int64_t n, double eps,
             float* mean, float* inv) {
  ParallelItems(rows, n, [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      const float* row = x + r * n;
      double sum = 0, squares = 0;
      for (int64_t i = 0; i < n; ++i) {
        sum += row[i];
        squares += static_cast<double>(row[i]) * row[i];
      }
      const float inv_rms = static_cast<float>(1.0 / std::sqrt(squares / n + eps));
      if (mean != nullptr) mean[r] = static_cast<float>(sum / n);
      if (inv != nullptr) inv[r] = inv_rms;
      float* out = y + r * n;
      for (int64_t i = 0; i < n; ++i) out[i] = row[i] * inv_rms * scale[i];
    }
  });
}

// Whether `skip` can be added to `x` by repeating it: its dims, leading 1s dropped, are a suffix of
// x's (skip of [B, S, H], [1, S, H] or [S, H] for x of [B, S, H]).
bool SkipRepeats(const Tensor& x, const Tensor& skip) {
  int64_t first = 0;
  while (first < skip.rank() - 1 && skip.dim(first) == 1) ++first;
  const int64_t n = skip.rank() - first;
  if (n > x.rank() || n == 0) return false;
  for (int64_t i = 0; i < n; ++i) {
    if (skip.dim(first + i) != x.dim(x.rank() - n + i)) return false;
  }
  return true;
}

// Inputs: input, skip, gamma, [beta,] bias. Outputs: output, mean, inv_std_var,
// input_skip_bias_sum.
Status SkipNorm(KernelContext& ctx, bool simplified) {
  ASSIGN_OR_RETURN(Tensor x, FloatInput(ctx, 0, "input"));
  ASSIGN_OR_RETURN(Tensor skip, FloatInput(ctx, 1, "skip"));
  ASSIGN_OR_RETURN(Tensor gamma, FloatInput(ctx, 2, "gamma"));
  Tensor beta;
  if (!simplified) {
    ASSIGN_OR_RETURN(beta, OptionalFloatInput(ctx, 3, "beta"));
  }
  ASSIGN_OR_RETURN(Tensor bias, OptionalFloatInput(ctx, simplified ? 3 : 4, "bias"));
  if (x.rank() < 2)
    return ctx.Error(
        absl::StrCat("input 'input' must be 2-D or 3-D, got ", DimsToString(x.dims())));
  const int64_t h = x.dim(x.rank() - 1);
  if (!SkipRepeats(x, skip)) {
    return ctx.Error(absl::StrCat("input 'skip' of shape ", DimsToString(skip.dims()),
                                  " does not fit input ", DimsToString(x.dims())));
  }
  RETURN_IF_ERROR(ExpectVector(ctx, gamma, "gamma", h));
  if (beta.is_defined()) RETURN_IF_ERROR(ExpectVector(ctx, beta, "beta", h));
  if (bias.is_defined()) RETURN_IF_ERROR(ExpectVector(ctx, bias, "bias", h));
  const int64_t n = x.size(), rows = h == 0 ? 0 : n / h, skip_n = skip.size();
  // sum = input + skip (+ bias), in that order.
  Tensor sum = Tensor::Uninitialized(DataType::kFloat, x.dims());
  {
    const float* px = x.data<float>();
    const float* ps = skip.data<float>();
    const float* pb = bias.is_defined() ? bias.data<float>() : nullptr;
    float* out = sum.mutable_data<float>();
    for (int64_t i = 0; i < n; ++i) {
      float v = px[i] + ps[i % skip_n];
      if (pb != nullptr) v += pb[i % h];
      out[i] = v;
    }
  }
  std::vector<int64_t> stat_dims = x.dims();
  stat_dims.back() = 1;
  const bool want_mean = ctx.num_outputs() > 1 && ctx.wants_output(1);
  const bool want_inv = ctx.num_outputs() > 2 && ctx.wants_output(2);
  Tensor mean(DataType::kFloat, want_mean ? stat_dims : std::vector<int64_t>{0});
  Tensor inv(DataType::kFloat, want_inv ? stat_dims : std::vector<int64_t>{0});
  float* pmean = want_mean ? mean.mutable_data<float>() : nullptr;
  float* pinv = want_inv ? inv.mutable_data<float>() : nullptr;
  const float eps = ctx.GetFloat("epsilon", kSkipEpsilon);
  Tensor y = Tensor::Uninitialized(DataType::kFloat, x.dims());
  if (simplified) {
    RmsRows(sum.data<float>(), gamma.data<float>(), y.mutable_data<float>(), rows, h, eps, pmean,
            pinv);
  } else {
    const float* ps = sum.data<float>();
    const float* pbeta = beta.is_defined() ? beta.data<float>() : nullptr;
    float* py = y.mutable_data<float>();
    ParallelItems(rows, h, [&](int64_t begin, int64_t end) {
      Vec().layer_norm_rows_f32(ps + begin * h, gamma.data<float>(), pbeta, py + begin * h,
                                end - begin, h, eps, pmean != nullptr ? pmean + begin : nullptr,
                                pinv != nullptr ? pinv + begin : nullptr);
    });
  }
  const DataType type = ctx.input(0).dtype();
  RETURN_IF_ERROR(SetFloatOutput(ctx, 0, std::move(y), type));
  if (want_mean) ctx.set_output(1, std::move(mean));
  if (want_inv) ctx.set_output(2, std::move(inv));
  if (ctx.num_outputs() > 3) RETURN_IF_ERROR(SetFloatOutput(ctx, 3, std::move(sum), type));
  return absl::OkStatus();
}

// SimplifiedLayerNormalization: X, scale -> Y, inv_std_var; attributes axis (-1), epsilon (1e-5).
// The statistics are float (stash_type 1, the only one onnxruntime computes in).
Status SimplifiedLayerNorm(KernelContext& ctx) {
  ASSIGN_OR_RETURN(Tensor x, FloatInput(ctx, 0, "X"));
  ASSIGN_OR_RETURN(Tensor scale, FloatInput(ctx, 1, "scale"));
  if (x.rank() == 0) return ctx.Error("input 'X' must have at least one dim");
  ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(ctx.GetInt("axis", -1), x.rank()));
  const int64_t rows = DimProduct(x.dims(), 0, axis), n = DimProduct(x.dims(), axis, x.rank());
  if (scale.size() != n) {
    return ctx.Error(
        absl::StrCat("input 'scale' must have the ", n, " elements of the normalized dims ",
                     DimsToString(std::vector<int64_t>(x.dims().begin() + axis, x.dims().end())),
                     ", got ", DimsToString(scale.dims())));
  }
  std::vector<int64_t> stat_dims = x.dims();
  for (int64_t d = axis; d < x.rank(); ++d) stat_dims[d] = 1;
  const bool want_inv = ctx.num_outputs() > 1 && ctx.wants_output(1);
  Tensor inv(DataType::kFloat, want_inv ? stat_dims : std::vector<int64_t>{0});
  Tensor y = Tensor::Uninitialized(DataType::kFloat, x.dims());
  RmsRows(x.data<float>(), scale.data<float>(), y.mutable_data<float>(), rows, n,
          ctx.GetFloat("epsilon", 1e-5f), nullptr, want_inv ? inv.mutable_data<float>() : nullptr);
  RETURN_IF_ERROR(SetFloatOutput(ctx, 0, std::move(y), ctx.input(0).dtype()));
  if (want_inv) ctx.set_output(1, std::move(inv));
  return absl::OkStatus();
}

}  // namespace

void RegisterLayerNormKernels(KernelRegistry& r) {
  r.Register(kMsDomain, "SkipLayerNormalization", 1,
             [](KernelContext& c) { return SkipNorm(c, false); });
  r.Register(kMsDomain, "SkipSimplifiedLayerNormalization", 1,
             [](KernelContext& c) { return SkipNorm(c, true); });
  r.Register(kMsDomain, "SimplifiedLayerNormalization", 1, SimplifiedLayerNorm);
  r.Register("", "SimplifiedLayerNormalization", 1, SimplifiedLayerNorm);
}

}  // namespace onnx_opt::interpreter::contrib
