// Losses: NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss (reductions none/sum/mean,
// ignore_index, class weights). Computed in double.
#include <cmath>

#include "interpreter/kernels/common.h"

namespace onnx_opt::interpreter {
namespace {

using absl::OkStatus;
using absl::Status;
using absl::StatusOr;

// input: log-probabilities [N, C, D...] as double.
Status Nll(KernelContext& ctx, const Tensor& logp, DataType out_type,
           const std::vector<int64_t>& target, const std::vector<int64_t>& target_dims,
           const Tensor* weight, const std::string& reduction, std::optional<int64_t> ignore) {
  // The loops below index by these shapes: target [N, D...] of the input [N, C, D...], weight [C].
  if (logp.rank() < 2) return ctx.Error("the input must have rank >= 2");
  std::vector<int64_t> expected_target = logp.dims();
  expected_target.erase(expected_target.begin() + 1);
  if (target_dims != expected_target) {
    return ctx.Error(absl::StrCat("target of shape ", DimsToString(target_dims),
                                  " does not fit the input ", DimsToString(logp.dims())));
  }
  if (weight != nullptr && (weight->rank() != 1 || weight->dim(0) != logp.dim(1))) {
    return ctx.Error("weight must have one value per class");
  }
  const int64_t N = logp.dim(0), C = logp.dim(1), D = DimProduct(logp.dims(), 2, logp.rank());
  std::vector<double> loss(N * D), w(N * D);
  const double* p = logp.data<double>();
  for (int64_t n = 0; n < N; ++n) {
    for (int64_t d = 0; d < D; ++d) {
      const int64_t t = target[n * D + d];
      if (ignore && t == *ignore) {
        loss[n * D + d] = 0;
        w[n * D + d] = 0;
        continue;
      }
      if (t < 0 || t >= C) return ctx.Error("target out of range");
      const double wt = weight ? weight->data<double>()[t] : 1.0;
      loss[n * D + d] = -p[(n * C + t) * D + d] * wt;
      w[n * D + d] = wt;
    }
  }
  Tensor out;
  if (reduction == "none") {
    out = Tensor::FromVector<double>(DataType::kDouble, target_dims, loss);
  } else {
    double s = 0, ws = 0;
    for (size_t i = 0; i < loss.size(); ++i) {
      s += loss[i];
      ws += w[i];
    }
    if (reduction == "mean") s = ws == 0 ? 0 : s / ws;  // ws==0: every target ignored
    out = Tensor::Scalar<double>(DataType::kDouble, s);
  }
  ASSIGN_OR_RETURN(out, CastTensor(out, out_type));
  ctx.set_output(0, std::move(out));
  return OkStatus();
}

Status NllKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(Tensor logp, CastTensor(*x, DataType::kDouble));
  ASSIGN_OR_RETURN(std::vector<int64_t> target, ctx.IntsInput(1));
  Tensor w;
  if (ctx.has_input(2)) {
    ASSIGN_OR_RETURN(w, CastTensor(ctx.input(2), DataType::kDouble));
  }
  std::optional<int64_t> ignore;
  if (ctx.has_attr("ignore_index")) ignore = ctx.GetInt("ignore_index", 0);
  return Nll(ctx, logp, x->dtype(), target, ctx.input(1).dims(), ctx.has_input(2) ? &w : nullptr,
             ctx.GetString("reduction", "mean"), ignore);
}

Status SceKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(Tensor s, CastTensor(*x, DataType::kDouble));
  ASSIGN_OR_RETURN(std::vector<int64_t> target, ctx.IntsInput(1));
  if (s.rank() < 2) return ctx.Error("scores must have rank >= 2");
  const int64_t N = s.dim(0), C = s.dim(1), D = DimProduct(s.dims(), 2, s.rank());
  Tensor logp(DataType::kDouble, s.dims());
  const double* ps = s.data<double>();
  double* pl = logp.mutable_data<double>();
  for (int64_t n = 0; n < N; ++n) {
    for (int64_t d = 0; d < D; ++d) {
      double mx = -INFINITY;
      for (int64_t c = 0; c < C; ++c) mx = std::max(mx, ps[(n * C + c) * D + d]);
      double sum = 0;
      for (int64_t c = 0; c < C; ++c) sum += std::exp(ps[(n * C + c) * D + d] - mx);
      const double lse = mx + std::log(sum);
      for (int64_t c = 0; c < C; ++c) pl[(n * C + c) * D + d] = ps[(n * C + c) * D + d] - lse;
    }
  }
  Tensor w;
  if (ctx.has_input(2)) {
    ASSIGN_OR_RETURN(w, CastTensor(ctx.input(2), DataType::kDouble));
  }
  std::optional<int64_t> ignore;
  if (ctx.has_attr("ignore_index")) ignore = ctx.GetInt("ignore_index", 0);
  RETURN_IF_ERROR(Nll(ctx, logp, x->dtype(), target, ctx.input(1).dims(),
                      ctx.has_input(2) ? &w : nullptr, ctx.GetString("reduction", "mean"), ignore));
  if (ctx.num_outputs() > 1) {
    ASSIGN_OR_RETURN(Tensor lp, CastTensor(logp, x->dtype()));
    ctx.set_output(1, std::move(lp));
  }
  return OkStatus();
}

}  // namespace

void RegisterLossKernels(KernelRegistry& r) {
  r.Register("", "NegativeLogLikelihoodLoss", 12, NllKernel);
  r.Register("", "SoftmaxCrossEntropyLoss", 12, SceKernel);
}

}  // namespace onnx_opt::interpreter
