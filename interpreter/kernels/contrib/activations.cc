// Gelu, FastGelu (optional bias), BiasGelu, QuickGelu and BiasAdd (com.microsoft). Each element is
// computed in double and rounded once, as the ai.onnx activations are.
#include <cmath>
#include <string>

#include "interpreter/kernels/common.h"
#include "interpreter/kernels/contrib/contrib.h"

namespace onnx_opt::interpreter::contrib {
namespace {

using absl::Status;
using absl::StatusOr;

// x + bias, the bias either 1-D over x's last dim or of x's shape; the error names `name`.
StatusOr<Tensor> AddBias(const KernelContext& ctx, const Tensor& x, const Tensor& bias,
                         std::string_view name) {
  const int64_t n = x.size();
  Tensor y = Tensor::Uninitialized(DataType::kFloat, x.dims());
  const float* px = x.data<float>();
  const float* pb = bias.data<float>();
  float* py = y.mutable_data<float>();
  if (bias.dims() == x.dims()) {
    for (int64_t i = 0; i < n; ++i) py[i] = px[i] + pb[i];
    return y;
  }
  const int64_t h = x.rank() == 0 ? 1 : x.dim(x.rank() - 1);
  if (bias.rank() != 1 || bias.dim(0) != h) {
    return ctx.Error(absl::StrCat("input '", std::string(name), "' must have shape [", h,
                                  "] (the input's last dim) ", "or the input's shape, got ",
                                  DimsToString(bias.dims())));
  }
  for (int64_t i = 0; i < n; ++i) py[i] = px[i] + pb[i % h];
  return y;
}

// y = f(x) per element, computed in double.
template <typename F>
Tensor Map(const Tensor& x, F&& f) {
  Tensor y = Tensor::Uninitialized(DataType::kFloat, x.dims());
  const float* px = x.data<float>();
  float* py = y.mutable_data<float>();
  const int64_t n = x.size();
  ParallelItems(n, 8, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) py[i] = static_cast<float>(f(static_cast<double>(px[i])));
  });
  return y;
}

double ErfGelu(double v) { return 0.5 * v * (1 + std::erf(v / std::sqrt(2.0))); }

// The documentation writes the constants rounded (0.797885, 0.035677); they are sqrt(2/pi) and
// 0.044715 * sqrt(2/pi), which is what Gelu-20 with approximate="tanh" computes.
double TanhGelu(double v) {
  const double k = std::sqrt(2.0 / M_PI);
  return 0.5 * v * (1 + std::tanh(k * v + 0.044715 * k * v * v * v));
}

Status GeluKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(Tensor x, FloatInput(ctx, 0, "X"));
  return SetFloatOutput(ctx, 0, Map(x, ErfGelu), ctx.input(0).dtype());
}

Status FastGeluKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(Tensor x, FloatInput(ctx, 0, "X"));
  if (ctx.has_input(1)) {
    ASSIGN_OR_RETURN(Tensor bias, FloatInput(ctx, 1, "bias"));
    ASSIGN_OR_RETURN(x, AddBias(ctx, x, bias, "bias"));
  }
  return SetFloatOutput(ctx, 0, Map(x, TanhGelu), ctx.input(0).dtype());
}

Status BiasGeluKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(Tensor a, FloatInput(ctx, 0, "A"));
  ASSIGN_OR_RETURN(Tensor b, FloatInput(ctx, 1, "B"));
  ASSIGN_OR_RETURN(Tensor x, AddBias(ctx, a, b, "B"));
  return SetFloatOutput(ctx, 0, Map(x, ErfGelu), ctx.input(0).dtype());
}

Status QuickGeluKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(Tensor x, FloatInput(ctx, 0, "X"));
  const double alpha = ctx.GetFloat("alpha", 1.702f);
  return SetFloatOutput(ctx, 0,
                        Map(x, [alpha](double v) { return v / (1 + std::exp(-alpha * v)); }),
                        ctx.input(0).dtype());
}

// Y = X + bias + skip: X and skip of one shape, bias over the last dim.
Status BiasAddKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(Tensor x, FloatInput(ctx, 0, "X"));
  ASSIGN_OR_RETURN(Tensor bias, FloatInput(ctx, 1, "bias"));
  ASSIGN_OR_RETURN(Tensor skip, FloatInput(ctx, 2, "skip"));
  if (skip.dims() != x.dims()) {
    return ctx.Error(absl::StrCat("input 'skip' must have the shape of X ", DimsToString(x.dims()),
                                  ", got ", DimsToString(skip.dims())));
  }
  if (x.rank() == 0) return ctx.Error("input 'X' must have at least one dim");
  RETURN_IF_ERROR(ExpectVector(ctx, bias, "bias", x.dim(x.rank() - 1)));
  ASSIGN_OR_RETURN(Tensor y, AddBias(ctx, x, bias, "bias"));
  float* py = y.mutable_data<float>();
  const float* ps = skip.data<float>();
  for (int64_t i = 0; i < y.size(); ++i) py[i] += ps[i];
  return SetFloatOutput(ctx, 0, std::move(y), ctx.input(0).dtype());
}

}  // namespace

void RegisterActivationKernels(KernelRegistry& r) {
  r.Register(kMsDomain, "Gelu", 1, GeluKernel);
  r.Register(kMsDomain, "FastGelu", 1, FastGeluKernel);
  r.Register(kMsDomain, "BiasGelu", 1, BiasGeluKernel);
  r.Register(kMsDomain, "QuickGelu", 1, QuickGeluKernel);
  r.Register(kMsDomain, "BiasAdd", 1, BiasAddKernel);
}

}  // namespace onnx_opt::interpreter::contrib
