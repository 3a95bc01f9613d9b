// Signal processing and streaming convolution: DFT (opset 17 attribute axis, opset 20 input axis),
// CausalConvWithState. DFT is a direct O(n^2) transform in double.
#include <cmath>

#include "interpreter/kernels/common.h"

namespace onnx_opt::interpreter {
namespace {

using absl::OkStatus;
using absl::Status;
using absl::StatusOr;

Status DftKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x0, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(Tensor x, CastTensor(*x0, DataType::kDouble));
  const int64_t r = x.rank();
  if (r < 2 || (x.dim(r - 1) != 1 && x.dim(r - 1) != 2)) {
    return ctx.Error("input must have rank >= 2 and a last dimension of 1 (real) or 2 (complex)");
  }
  const bool complex_in = x.dim(r - 1) == 2;
  int64_t axis;
  if (ctx.opset() >= 20) {
    // Integers read exactly (through a double, 2^63 - 1 became 2^63, whose conversion is
    // undefined).
    ASSIGN_OR_RETURN(axis, ScalarIntInput(ctx, 2, -2));
  } else {
    axis = ctx.GetInt("axis", 1);
  }
  if (axis < 0) axis += r;
  if (axis < 0 || axis >= r - 1) return ctx.Error("axis out of range");
  const bool inverse = ctx.GetInt("inverse", 0) != 0, onesided = ctx.GetInt("onesided", 0) != 0;
  const int64_t n_in = x.dim(axis);
  int64_t n = n_in;
  if (ctx.has_input(1) && ctx.input(1).size() > 0) {
    ASSIGN_OR_RETURN(n, ScalarIntInput(ctx, 1, n_in));
  }
  const bool irfft = inverse && onesided;  // Hermitian half spectrum in, real signal out
  if (irfft && !(ctx.has_input(1) && ctx.input(1).size() > 0)) n = 2 * (n_in - 1);
  if (n <= 0) return ctx.Error("the signal length must be positive");
  const int64_t n_out = irfft ? n : (onesided ? n / 2 + 1 : n);
  const int64_t outer = DimProduct(x.dims(), 0, axis),
                inner = DimProduct(x.dims(), axis + 1, r - 1);
  const int64_t comp = x.dim(r - 1);
  std::vector<int64_t> dims = x.dims();
  dims[axis] = n_out;
  dims[r - 1] = irfft ? 1 : 2;
  Tensor y(DataType::kDouble, dims);
  const double* px = x.data<double>();
  double* py = y.mutable_data<double>();
  const double sign = inverse ? 1 : -1;
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      for (int64_t k = 0; k < n_out; ++k) {
        double re = 0, im = 0;
        for (int64_t t = 0; t < (irfft ? n : std::min(n, n_in)); ++t) {
          double xr, xi;
          if (irfft && t >= n_in && n - t >= n_in) {  // beyond the given half spectrum
            continue;
          } else if (irfft && t >= n_in) {  // X[t] = conj(X[n - t])
            const double* e = px + ((o * n_in + (n - t)) * inner + i) * comp;
            xr = e[0];
            xi = complex_in ? -e[1] : 0;
          } else {
            const double* e = px + ((o * n_in + t) * inner + i) * comp;
            xr = e[0];
            xi = complex_in ? e[1] : 0;
          }
          const double ang = sign * 2 * M_PI * k * t / n;
          const double c = std::cos(ang), s = std::sin(ang);
          re += xr * c - xi * s;
          im += xr * s + xi * c;
        }
        if (inverse) {
          re /= n;
          im /= n;
        }
        double* out = py + ((o * n_out + k) * inner + i) * (irfft ? 1 : 2);
        out[0] = re;
        if (!irfft) out[1] = im;
      }
    }
  }
  ASSIGN_OR_RETURN(y, CastTensor(y, x0->dtype()));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

// input [N, C, L], weight [C, 1, K], bias [C], past_state [N, C, K-1]: a depthwise causal conv1d
// over concat(past_state, input); present_state is the last K-1 steps of that concatenation.
// STFT-17: frames of `frame_length` samples every `frame_step`, each multiplied by the window and
// transformed; output [batch, frames, bins, 2] (bins = frame_length / 2 + 1 when onesided).
Status StftKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x0, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(Tensor x, CastTensor(*x0, DataType::kDouble));
  if (x.rank() != 3 || (x.dim(2) != 1 && x.dim(2) != 2)) {
    return ctx.Error("signal must be [batch, length, 1] (real) or [batch, length, 2] (complex)");
  }
  // Integers read exactly (through a double, 2^63 - 1 became 2^63, whose conversion is undefined).
  ASSIGN_OR_RETURN(const int64_t step, ScalarIntInput(ctx, 1, 0));
  std::vector<double> window;
  if (ctx.has_input(2) && ctx.input(2).size() > 0) {
    ASSIGN_OR_RETURN(Tensor w, CastTensor(ctx.input(2), DataType::kDouble));
    window.assign(w.data<double>(), w.data<double>() + w.size());
  }
  int64_t length = static_cast<int64_t>(window.size());
  if (ctx.has_input(3) && ctx.input(3).size() > 0) {
    ASSIGN_OR_RETURN(length, ScalarIntInput(ctx, 3, 0));
  }
  if (window.empty()) window.assign(std::max<int64_t>(length, 0), 1.0);
  const int64_t B = x.dim(0), N = x.dim(1), comp = x.dim(2);
  if (step <= 0 || length <= 0 || static_cast<int64_t>(window.size()) != length || length > N) {
    return ctx.Error(
        "frame_step and frame_length must be positive, the window frame_length long, "
        "and a frame no longer than the signal");
  }
  const bool onesided = ctx.GetInt("onesided", 1) != 0;
  if (onesided && comp == 2) return ctx.Error("onesided needs a real signal");
  const int64_t frames = (N - length) / step + 1, bins = onesided ? length / 2 + 1 : length;
  Tensor y(DataType::kDouble, {B, frames, bins, 2});
  const double* px = x.data<double>();
  double* py = y.mutable_data<double>();
  for (int64_t b = 0; b < B; ++b) {
    for (int64_t f = 0; f < frames; ++f) {
      for (int64_t k = 0; k < bins; ++k) {
        double re = 0, im = 0;
        for (int64_t n = 0; n < length; ++n) {
          const double* e = px + (b * N + f * step + n) * comp;
          const double xr = e[0] * window[n], xi = comp == 2 ? e[1] * window[n] : 0;
          const double ang = -2 * M_PI * static_cast<double>(k * n) / static_cast<double>(length);
          const double c = std::cos(ang), s = std::sin(ang);
          re += xr * c - xi * s;
          im += xr * s + xi * c;
        }
        double* out = py + ((b * frames + f) * bins + k) * 2;
        out[0] = re;
        out[1] = im;
      }
    }
  }
  ASSIGN_OR_RETURN(y, CastTensor(y, x0->dtype()));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

Status CausalConvWithStateKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x0, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(Tensor x, CastTensor(*x0, DataType::kDouble));
  ASSIGN_OR_RETURN(Tensor w, CastTensor(ctx.input(1), DataType::kDouble));
  if (x.rank() != 3 || w.rank() != 3) return ctx.Error("input and weight must be 3-D");
  const int64_t N = x.dim(0), C = x.dim(1), L = x.dim(2), K = w.dim(2);
  // Depthwise: weight [C, 1, K], bias [C], past_state [N, C, K - 1].
  if (w.dim(0) != C || w.dim(1) != 1 || K < 1) {
    return ctx.Error(absl::StrCat("weight has shape ", DimsToString(w.dims()), "; expected [", C,
                                  ", 1, K >= 1]"));
  }
  Tensor b(DataType::kDouble, {C});
  if (ctx.has_input(2)) {
    ASSIGN_OR_RETURN(b, CastTensor(ctx.input(2), DataType::kDouble));
    if (b.size() != C)
      return ctx.Error(absl::StrCat("bias has ", b.size(), " values for ", C, " channels"));
  }
  Tensor past(DataType::kDouble, {N, C, K - 1});
  if (ctx.has_input(3)) {
    ASSIGN_OR_RETURN(past, CastTensor(ctx.input(3), DataType::kDouble));
    if (past.dims() != std::vector<int64_t>{N, C, K - 1}) {
      return ctx.Error(absl::StrCat("past_state has shape ", DimsToString(past.dims()),
                                    "; expected ", DimsToString({N, C, K - 1})));
    }
  }
  const std::string act = ctx.GetString("activation", "none");
  const int64_t P = L + K - 1;
  Tensor y(DataType::kDouble, {N, C, L}), present(DataType::kDouble, {N, C, K - 1});
  std::vector<double> padded(P);
  for (int64_t n = 0; n < N; ++n) {
    for (int64_t c = 0; c < C; ++c) {
      for (int64_t t = 0; t < K - 1; ++t)
        padded[t] = past.data<double>()[(n * C + c) * (K - 1) + t];
      for (int64_t t = 0; t < L; ++t) padded[K - 1 + t] = x.data<double>()[(n * C + c) * L + t];
      for (int64_t t = 0; t < L; ++t) {
        double acc = b.data<double>()[c];
        for (int64_t k = 0; k < K; ++k) acc += padded[t + k] * w.data<double>()[c * K + k];
        if (act == "silu" || act == "swish") acc = acc / (1 + std::exp(-acc));
        y.mutable_data<double>()[(n * C + c) * L + t] = acc;
      }
      for (int64_t t = 0; t < K - 1; ++t)
        present.mutable_data<double>()[(n * C + c) * (K - 1) + t] = padded[P - (K - 1) + t];
    }
  }
  ASSIGN_OR_RETURN(y, CastTensor(y, x0->dtype()));
  ASSIGN_OR_RETURN(present, CastTensor(present, x0->dtype()));
  ctx.set_output(0, std::move(y));
  if (ctx.num_outputs() > 1) ctx.set_output(1, std::move(present));
  return OkStatus();
}

// ---- ai.onnx.preview.training optimizers
// ----------------------------------------------------------

StatusOr<Tensor> D(const KernelContext& ctx, size_t i) {
  return CastTensor(ctx.input(i), DataType::kDouble);
}

template <int kind>  // 0 Adagrad, 1 Momentum, 2 Adam
Status OptimizerKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(double R, ScalarInput(ctx, 0, 0));
  ASSIGN_OR_RETURN(double T, ScalarInput(ctx, 1, 0));
  const int per = kind == 2 ? 4 : 3;
  if (ctx.num_inputs() < 2 || (ctx.num_inputs() - 2) % per != 0) {
    return ctx.Error(absl::StrCat("needs R, T and ", per, " inputs per optimized tensor"));
  }
  const size_t n = (ctx.num_inputs() - 2) / per;
  const double norm = ctx.GetFloat("norm_coefficient", 0.0f);
  for (size_t k = 0; k < n; ++k) {
    ASSIGN_OR_RETURN(Tensor X, D(ctx, 2 + k));
    ASSIGN_OR_RETURN(Tensor G, D(ctx, 2 + n + k));
    ASSIGN_OR_RETURN(Tensor S1, D(ctx, 2 + 2 * n + k));
    Tensor S2;
    if (kind == 2) {
      ASSIGN_OR_RETURN(S2, D(ctx, 2 + 3 * n + k));
    }
    // Gradients and states are read per element of X: a smaller one was read past its end.
    if (G.dims() != X.dims() || S1.dims() != X.dims() || (kind == 2 && S2.dims() != X.dims())) {
      return ctx.Error(absl::StrCat("the gradient and states of input ", 2 + k,
                                    " must have its shape ", DimsToString(X.dims())));
    }
    Tensor Xn(DataType::kDouble, X.dims()), S1n(DataType::kDouble, X.dims()),
        S2n(DataType::kDouble, X.dims());
    for (int64_t i = 0; i < X.size(); ++i) {
      const double x = X.data<double>()[i];
      const double g = norm * x + G.data<double>()[i];
      const double s1 = S1.data<double>()[i];
      if (kind == 0) {
        const double r = R / (1 + T * ctx.GetFloat("decay_factor", 0.0f));
        const double h = s1 + g * g;
        Xn.mutable_data<double>()[i] = x - r * g / (std::sqrt(h) + ctx.GetFloat("epsilon", 0.0f));
        S1n.mutable_data<double>()[i] = h;
      } else if (kind == 1) {
        const double alpha = ctx.GetFloat("alpha", 0.0f), beta = ctx.GetFloat("beta", 0.0f);
        const double v = alpha * s1 + (T > 0 ? beta : 1.0) * g;
        const bool nesterov = ctx.GetString("mode", "standard") == "nesterov";
        Xn.mutable_data<double>()[i] = nesterov ? x - R * (g + alpha * v) : x - R * v;
        S1n.mutable_data<double>()[i] = v;
      } else {
        const double alpha = ctx.GetFloat("alpha", 0.9f), beta = ctx.GetFloat("beta", 0.999f);
        const double eps = ctx.GetFloat("epsilon", 1e-6f),
                     post = ctx.GetFloat("norm_coefficient_post", 0.0f);
        const double v = alpha * s1 + (1 - alpha) * g;
        const double h = beta * S2.data<double>()[i] + (1 - beta) * g * g;
        const double ra =
            T > 0 ? R * std::sqrt(1 - std::pow(beta, T)) / (1 - std::pow(alpha, T)) : R;
        Xn.mutable_data<double>()[i] = (1 - post) * (x - ra * (v / (std::sqrt(h) + eps)));
        S1n.mutable_data<double>()[i] = v;
        S2n.mutable_data<double>()[i] = h;
      }
    }
    const DataType dt = ctx.input(2 + k).dtype();
    ASSIGN_OR_RETURN(Xn, CastTensor(Xn, dt));
    ASSIGN_OR_RETURN(S1n, CastTensor(S1n, dt));
    ctx.set_output(k, std::move(Xn));
    ctx.set_output(n + k, std::move(S1n));
    if (kind == 2) {
      ASSIGN_OR_RETURN(S2n, CastTensor(S2n, dt));
      ctx.set_output(2 * n + k, std::move(S2n));
    }
  }
  return OkStatus();
}

}  // namespace

void RegisterSignalKernels(KernelRegistry& r) {
  r.Register("", "DFT", 17, DftKernel);
  r.Register("", "STFT", 17, StftKernel);
  r.Register("", "CausalConvWithState", 27, CausalConvWithStateKernel);
  r.Register("ai.onnx.preview.training", "Adagrad", 1, OptimizerKernel<0>);
  r.Register("ai.onnx.preview.training", "Momentum", 1, OptimizerKernel<1>);
  r.Register("ai.onnx.preview.training", "Adam", 1, OptimizerKernel<2>);
}

}  // namespace onnx_opt::interpreter
