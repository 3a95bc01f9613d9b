// Recurrent operators: RNN, GRU, LSTM (directions, sequence_lens, clip, custom activations, layout,
// peepholes, linear_before_reset, input_forget). Computed in double with plain loops.
#include <algorithm>
#include <cmath>
#include <functional>

#include "interpreter/kernels/common.h"

namespace onnx_opt::interpreter {
namespace {

using absl::OkStatus;
using absl::Status;
using absl::StatusOr;

using Act = std::function<double(double)>;

StatusOr<Act> MakeActivation(const std::string& name, float alpha, float beta, bool has_alpha, bool has_beta) {
  if (name == "Sigmoid") return Act([](double x) { return 1 / (1 + std::exp(-x)); });
  if (name == "Tanh") return Act([](double x) { return std::tanh(x); });
  if (name == "Relu") return Act([](double x) { return std::max(0.0, x); });
  if (name == "Affine") return Act([=](double x) { return (has_alpha ? alpha : 1.0) * x + (has_beta ? beta : 0.0); });
  if (name == "LeakyRelu") {
    const double a = has_alpha ? alpha : 0.01;
    return Act([a](double x) { return x < 0 ? a * x : x; });
  }
  if (name == "ThresholdedRelu") {
    const double a = has_alpha ? alpha : 1.0;
    return Act([a](double x) { return x > a ? x : 0; });
  }
  if (name == "ScaledTanh") {
    const double a = has_alpha ? alpha : 1.0, b = has_beta ? beta : 1.0;
    return Act([a, b](double x) { return a * std::tanh(b * x); });
  }
  if (name == "HardSigmoid") {
    const double a = has_alpha ? alpha : 0.2, b = has_beta ? beta : 0.5;
    return Act([a, b](double x) { return std::clamp(a * x + b, 0.0, 1.0); });
  }
  if (name == "Elu") {
    const double a = has_alpha ? alpha : 1.0;
    return Act([a](double x) { return x < 0 ? a * (std::exp(x) - 1) : x; });
  }
  if (name == "Softsign") return Act([](double x) { return x / (1 + std::abs(x)); });
  if (name == "Softplus") return Act([](double x) { return std::log1p(std::exp(x)); });
  return absl::UnimplementedError(absl::StrCat("unknown activation '", name, "'"));
}

enum class Cell { kRnn, kGru, kLstm };

template <Cell kind>
Status RecurrentKernel(KernelContext& ctx) {
  constexpr int G = kind == Cell::kRnn ? 1 : (kind == Cell::kGru ? 3 : 4);
  ASSIGN_OR_RETURN(const Tensor* x0, ctx.TensorInput(0));
  const DataType dt = x0->dtype();
  ASSIGN_OR_RETURN(Tensor X, CastTensor(*x0, DataType::kDouble));
  ASSIGN_OR_RETURN(Tensor W, CastTensor(ctx.input(1), DataType::kDouble));
  ASSIGN_OR_RETURN(Tensor R, CastTensor(ctx.input(2), DataType::kDouble));
  const int64_t layout = ctx.GetInt("layout", 0);
  if (layout == 1) {
    ASSIGN_OR_RETURN(X, TransposeTensor(X, {1, 0, 2}));
  }
  const int64_t S = X.dim(0), B = X.dim(1), I = X.dim(2);
  const int64_t H = ctx.GetInt("hidden_size", R.dim(2));
  const std::string direction = ctx.GetString("direction", "forward");
  const int64_t D = direction == "bidirectional" ? 2 : 1;
  if (W.dim(0) != D || W.dim(1) != G * H || W.dim(2) != I) return ctx.Error("W has the wrong shape");
  Tensor Bias(DataType::kDouble, {D, 2 * G * H});
  if (ctx.has_input(3)) {
    ASSIGN_OR_RETURN(Bias, CastTensor(ctx.input(3), DataType::kDouble));
  }
  std::vector<int64_t> lens(B, S);
  if (ctx.has_input(4)) {
    ASSIGN_OR_RETURN(lens, ctx.IntsInput(4));
  }
  Tensor H0(DataType::kDouble, {D, B, H}), C0(DataType::kDouble, {D, B, H}), P(DataType::kDouble, {D, 3 * H});
  if (ctx.has_input(5)) {
    ASSIGN_OR_RETURN(H0, CastTensor(ctx.input(5), DataType::kDouble));
    if (layout == 1) {
      ASSIGN_OR_RETURN(H0, TransposeTensor(H0, {1, 0, 2}));
    }
  }
  if (kind == Cell::kLstm && ctx.has_input(6)) {
    ASSIGN_OR_RETURN(C0, CastTensor(ctx.input(6), DataType::kDouble));
    if (layout == 1) {
      ASSIGN_OR_RETURN(C0, TransposeTensor(C0, {1, 0, 2}));
    }
  }
  if (kind == Cell::kLstm && ctx.has_input(7)) {
    ASSIGN_OR_RETURN(P, CastTensor(ctx.input(7), DataType::kDouble));
  }
  // Activations: f, g, h per direction.
  const int n_act = kind == Cell::kRnn ? 1 : (kind == Cell::kGru ? 2 : 3);
  std::vector<std::string> names = ctx.GetStrings("activations");
  const std::vector<float> alphas = ctx.GetFloats("activation_alpha"), betas = ctx.GetFloats("activation_beta");
  if (names.empty()) {
    if (kind == Cell::kRnn) names = {"Tanh"};
    else if (kind == Cell::kGru) names = {"Sigmoid", "Tanh"};
    else names = {"Sigmoid", "Tanh", "Tanh"};
    if (D == 2) {
      const std::vector<std::string> once = names;
      names.insert(names.end(), once.begin(), once.end());
    }
  }
  if (static_cast<int64_t>(names.size()) != n_act * D) return ctx.Error("wrong number of activations");
  std::vector<Act> acts;
  for (size_t k = 0; k < names.size(); ++k) {
    ASSIGN_OR_RETURN(Act a, MakeActivation(names[k], k < alphas.size() ? alphas[k] : 0, k < betas.size() ? betas[k] : 0,
                                           k < alphas.size(), k < betas.size()));
    acts.push_back(std::move(a));
  }
  const double clip = ctx.GetFloat("clip", 0.0f);
  const bool has_clip = ctx.has_attr("clip");
  auto cl = [&](double v) { return has_clip ? std::clamp(v, -clip, clip) : v; };
  const bool lbr = ctx.GetInt("linear_before_reset", 0) != 0;
  const bool input_forget = ctx.GetInt("input_forget", 0) != 0;

  Tensor Y(DataType::kDouble, {S, D, B, H}), Yh(DataType::kDouble, {D, B, H}), Yc(DataType::kDouble, {D, B, H});
  double* py = Y.mutable_data<double>();
  std::vector<double> h(H), c(H), gx(G * H), gh(G * H), hn(H), cn(H);
  for (int64_t d = 0; d < D; ++d) {
    const bool reverse = direction == "reverse" || d == 1;
    const double* w = W.data<double>() + d * G * H * I;
    const double* r = R.data<double>() + d * G * H * H;
    const double* wb = Bias.data<double>() + d * 2 * G * H;
    const double* rb = wb + G * H;
    const double* p = P.data<double>() + d * 3 * H;
    const Act& f = acts[d * n_act];
    const Act& g = acts[d * n_act + (n_act > 1 ? 1 : 0)];
    const Act& hh = acts[d * n_act + (n_act > 2 ? 2 : 0)];
    for (int64_t b = 0; b < B; ++b) {
      for (int64_t j = 0; j < H; ++j) {
        h[j] = H0.data<double>()[(d * B + b) * H + j];
        c[j] = C0.data<double>()[(d * B + b) * H + j];
      }
      const int64_t len = std::min<int64_t>(lens[b], S);
      for (int64_t step = 0; step < len; ++step) {
        const int64_t t = reverse ? len - 1 - step : step;
        const double* xt = X.data<double>() + (t * B + b) * I;
        for (int64_t k = 0; k < G * H; ++k) {
          double ax = wb[k], ah = rb[k];
          for (int64_t i = 0; i < I; ++i) ax += xt[i] * w[k * I + i];
          for (int64_t i = 0; i < H; ++i) ah += h[i] * r[k * H + i];
          gx[k] = ax;
          gh[k] = ah;
        }
        if constexpr (kind == Cell::kRnn) {
          for (int64_t j = 0; j < H; ++j) hn[j] = f(cl(gx[j] + gh[j]));
        } else if constexpr (kind == Cell::kGru) {
          for (int64_t j = 0; j < H; ++j) {
            const double z = f(cl(gx[j] + gh[j]));
            const double rr = f(cl(gx[H + j] + gh[H + j]));
            cn[j] = z;  // stash z
            // linear_before_reset: the candidate now; otherwise stash r for the pass below.
            hn[j] = lbr ? gx[2 * H + j] + rr * gh[2 * H + j] : rr;
          }
          if (!lbr) {
            // (r (.) h) * Rh^T needs every r first.
            std::vector<double> rh(H);
            for (int64_t i = 0; i < H; ++i) rh[i] = hn[i] * h[i];
            for (int64_t j = 0; j < H; ++j) {
              double acc = rb[2 * H + j];
              for (int64_t i = 0; i < H; ++i) acc += rh[i] * r[(2 * H + j) * H + i];
              hn[j] = gx[2 * H + j] + acc;
            }
          }
          for (int64_t j = 0; j < H; ++j) {
            const double ht = g(cl(hn[j]));
            hn[j] = (1 - cn[j]) * ht + cn[j] * h[j];
          }
        } else {
          for (int64_t j = 0; j < H; ++j) {
            double it = f(cl(gx[j] + gh[j] + p[j] * c[j]));
            double ft = f(cl(gx[2 * H + j] + gh[2 * H + j] + p[2 * H + j] * c[j]));
            if (input_forget) ft = 1 - it;
            const double ct = g(cl(gx[3 * H + j] + gh[3 * H + j]));
            cn[j] = ft * c[j] + it * ct;
            const double ot = f(cl(gx[H + j] + gh[H + j] + p[H + j] * cn[j]));
            hn[j] = ot * hh(cn[j]);
          }
          c = cn;
        }
        h = hn;
        for (int64_t j = 0; j < H; ++j) py[((t * D + d) * B + b) * H + j] = h[j];
      }
      for (int64_t j = 0; j < H; ++j) {
        Yh.mutable_data<double>()[(d * B + b) * H + j] = h[j];
        Yc.mutable_data<double>()[(d * B + b) * H + j] = c[j];
      }
    }
  }
  if (layout == 1) {
    ASSIGN_OR_RETURN(Y, TransposeTensor(Y, {2, 0, 1, 3}));
    ASSIGN_OR_RETURN(Yh, TransposeTensor(Yh, {1, 0, 2}));
    ASSIGN_OR_RETURN(Yc, TransposeTensor(Yc, {1, 0, 2}));
  }
  ASSIGN_OR_RETURN(Y, CastTensor(Y, dt));
  ASSIGN_OR_RETURN(Yh, CastTensor(Yh, dt));
  ctx.set_output(0, std::move(Y));
  ctx.set_output(1, std::move(Yh));
  if (kind == Cell::kLstm) {
    ASSIGN_OR_RETURN(Yc, CastTensor(Yc, dt));
    ctx.set_output(2, std::move(Yc));
  }
  return OkStatus();
}

}  // namespace

void RegisterRecurrentKernels(KernelRegistry& r) {
  r.Register("", "RNN", 1, RecurrentKernel<Cell::kRnn>);
  r.Register("", "GRU", 1, RecurrentKernel<Cell::kGru>);
  r.Register("", "LSTM", 1, RecurrentKernel<Cell::kLstm>);
}

}  // namespace onnx_opt::interpreter
