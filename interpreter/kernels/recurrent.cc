// Recurrent operators: RNN, GRU, LSTM (directions, sequence_lens, clip, custom activations, layout,
// peepholes, linear_before_reset, input_forget). Float inputs run in float on the vector kernels:
// the input projection X * W^T of every step and direction is one GEMM (both biases folded in),
// each step one GEMM H_{t-1} * R^T over the batch (GRU without linear_before_reset: a second one
// for (r (.) H_{t-1}) * Rh^T), gate activations go through unary_f32 a gate block at a time and the
// elementwise updates through binary_f32; scratch is allocated once per call. Other types are
// computed in double with plain loops (the generic path), which the float path is tested against.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <memory>

#include "interpreter/cpu/thread_pool.h"
#include "interpreter/cpu/vector_kernels.h"
#include "interpreter/kernels/common.h"
#include "interpreter/kernels/gemm.h"

namespace onnx_opt::interpreter {
namespace {

using absl::OkStatus;
using absl::Status;
using absl::StatusOr;

using Act = std::function<double(double)>;

StatusOr<Act> MakeActivation(const std::string& name, float alpha, float beta, bool has_alpha,
                             bool has_beta) {
  if (name == "Sigmoid") return Act([](double x) { return 1 / (1 + std::exp(-x)); });
  if (name == "Tanh") return Act([](double x) { return std::tanh(x); });
  if (name == "Relu") return Act([](double x) { return std::max(0.0, x); });
  if (name == "Affine")
    return Act([=](double x) { return (has_alpha ? alpha : 1.0) * x + (has_beta ? beta : 0.0); });
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

constexpr int NumGates(Cell kind) { return kind == Cell::kRnn ? 1 : (kind == Cell::kGru ? 3 : 4); }
constexpr int NumActivations(Cell kind) {
  return kind == Cell::kRnn ? 1 : (kind == Cell::kGru ? 2 : 3);
}

// The `activations` attribute, or the operator's defaults (once per direction).
std::vector<std::string> ActivationNames(const KernelContext& ctx, Cell kind, int64_t D) {
  std::vector<std::string> names = ctx.GetStrings("activations");
  if (names.empty()) {
    if (kind == Cell::kRnn)
      names = {"Tanh"};
    else if (kind == Cell::kGru)
      names = {"Sigmoid", "Tanh"};
    else
      names = {"Sigmoid", "Tanh", "Tanh"};
    if (D == 2) {
      const std::vector<std::string> once = names;
      names.insert(names.end(), once.begin(), once.end());
    }
  }
  return names;
}

// The shapes both paths index by, checked once: X [S, B, I] ([B, S, I] with layout 1), W [D, G*H,
// I], R [D, G*H, H], B of D*2*G*H values, sequence_lens of B lengths in [0, S], initial_h/initial_c
// of D*B*H values and P of D*3*H, where H (hidden_size when given) is R's last dim and D is 2 for
// bidirectional, else 1. (The generic path read every one of them unchecked.)
template <Cell kind>
Status CheckRecurrentInputs(const KernelContext& ctx) {
  constexpr int64_t G = NumGates(kind);
  ASSIGN_OR_RETURN(const Tensor* X, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(const Tensor* W, ctx.TensorInput(1));
  ASSIGN_OR_RETURN(const Tensor* R, ctx.TensorInput(2));
  if (X->rank() != 3 || W->rank() != 3 || R->rank() != 3)
    return ctx.Error("X, W and R must have rank 3");
  const bool batch_major = ctx.GetInt("layout", 0) == 1;
  const int64_t S = batch_major ? X->dim(1) : X->dim(0), B = batch_major ? X->dim(0) : X->dim(1),
                I = X->dim(2);
  const int64_t H = ctx.GetInt("hidden_size", R->dim(2));
  if (H != R->dim(2)) {
    return ctx.Error(absl::StrCat("hidden_size ", H, " differs from R's last dim ", R->dim(2)));
  }
  const int64_t D = ctx.GetString("direction", "forward") == "bidirectional" ? 2 : 1;
  int64_t GH = 0;
  if (__builtin_mul_overflow(G, H, &GH)) return ctx.Error("hidden_size is too large");
  if (W->dims() != std::vector<int64_t>{D, GH, I}) {
    return ctx.Error(absl::StrCat("W has the wrong shape ", DimsToString(W->dims()), "; expected ",
                                  DimsToString({D, GH, I})));
  }
  if (R->dims() != std::vector<int64_t>{D, GH, H}) {
    return ctx.Error(absl::StrCat("R has the wrong shape ", DimsToString(R->dims()), "; expected ",
                                  DimsToString({D, GH, H})));
  }
  // Element counts, saturating (the dims of empty tensors may multiply past int64).
  auto check_size = [&](size_t i, const char* name, std::vector<int64_t> want) -> Status {
    if (!ctx.has_input(i)) return OkStatus();
    ASSIGN_OR_RETURN(const Tensor* t, ctx.TensorInput(i));
    if (t->size() != NumElements(want)) {
      return ctx.Error(absl::StrCat(name, " has the wrong shape ", DimsToString(t->dims()),
                                    "; expected ", DimsToString(want)));
    }
    return OkStatus();
  };
  RETURN_IF_ERROR(check_size(3, "B", {D, 2, GH}));
  RETURN_IF_ERROR(check_size(5, "initial_h", {D, B, H}));
  if (kind == Cell::kLstm) {
    RETURN_IF_ERROR(check_size(6, "initial_c", {D, B, H}));
    RETURN_IF_ERROR(check_size(7, "P", {D, 3, H}));
  }
  if (ctx.has_input(4)) {
    ASSIGN_OR_RETURN(const std::vector<int64_t> lens, ctx.IntsInput(4));
    if (static_cast<int64_t>(lens.size()) != B) {
      return ctx.Error(
          absl::StrCat("sequence_lens has ", lens.size(), " values for a batch of ", B));
    }
    for (int64_t l : lens) {
      // onnxruntime refuses these too; the generic path read past X for a length above S.
      if (l < 0 || l > S)
        return ctx.Error(absl::StrCat("sequence_lens holds ", l, ", outside [0, ", S, "]"));
    }
  }
  return OkStatus();
}

// ---- float path
// ----------------------------------------------------------------------------------

// An activation over a float block: a vector kernel when there is one, else the scalar (double)
// function element by element.
struct FloatAct {
  const VectorKernels* vk = nullptr;
  bool vector = false;
  UnaryOp op = UnaryOp::kRelu;
  float p0 = 0, p1 = 0;
  Act scalar;

  // y[i] = f(x[i]); y may alias x.
  void operator()(const float* x, float* y, int64_t n) const {
    if (vector) {
      vk->unary_f32(op, x, y, n, p0, p1);
    } else {
      for (int64_t i = 0; i < n; ++i) y[i] = static_cast<float>(scalar(x[i]));
    }
  }
  void operator()(float* x, int64_t n) const { (*this)(x, x, n); }
};

StatusOr<FloatAct> MakeFloatActivation(const VectorKernels& vk, const std::string& name,
                                       float alpha, float beta, bool has_alpha, bool has_beta) {
  FloatAct a;
  a.vk = &vk;
  ASSIGN_OR_RETURN(a.scalar, MakeActivation(name, alpha, beta, has_alpha, has_beta));
  a.vector = true;
  if (name == "Sigmoid") {
    a.op = UnaryOp::kSigmoid;
  } else if (name == "Tanh") {
    a.op = UnaryOp::kTanh;
  } else if (name == "Relu") {
    a.op = UnaryOp::kRelu;
  } else if (name == "LeakyRelu") {
    a.op = UnaryOp::kLeakyRelu;
    a.p0 = has_alpha ? alpha : 0.01f;
  } else if (name == "HardSigmoid") {
    a.op = UnaryOp::kHardSigmoid;
    a.p0 = has_alpha ? alpha : 0.2f;
    a.p1 = has_beta ? beta : 0.5f;
  } else {
    a.vector = false;
  }
  return a;
}

// Returns false (and does nothing) when an input is not float; the caller then takes the generic
// path.
template <Cell kind>
StatusOr<bool> RecurrentFloat(KernelContext& ctx) {
  constexpr int G = NumGates(kind);
  constexpr bool kLstm = kind == Cell::kLstm, kGru = kind == Cell::kGru;
  const size_t last_input = kLstm ? 7 : 5;
  for (size_t i = 0; i <= last_input; ++i) {
    if (i == 4 || (i >= 3 && !ctx.has_input(i))) continue;
    if (ctx.input(i).dtype() != DataType::kFloat) return false;
  }
  const Tensor& X = ctx.input(0);
  const Tensor& W = ctx.input(1);
  const Tensor& R = ctx.input(2);
  if (X.rank() != 3 || W.rank() != 3 || R.rank() != 3)
    return ctx.Error("X, W and R must have rank 3");
  const bool batch_major =
      ctx.GetInt("layout", 0) == 1;  // X [B, S, I], Y [B, S, D, H], states [B, D, H]
  const int64_t S = batch_major ? X.dim(1) : X.dim(0), B = batch_major ? X.dim(0) : X.dim(1),
                I = X.dim(2);
  const int64_t H = ctx.GetInt("hidden_size", R.dim(2));
  const std::string direction = ctx.GetString("direction", "forward");
  const int64_t D = direction == "bidirectional" ? 2 : 1;
  const int64_t GH = G * H;
  if (W.dim(0) != D || W.dim(1) != GH || W.dim(2) != I) return ctx.Error("W has the wrong shape");
  if (R.dim(0) != D || R.dim(1) != GH || R.dim(2) != H) return ctx.Error("R has the wrong shape");
  const float* bias = nullptr;
  if (ctx.has_input(3)) {
    if (ctx.input(3).size() != D * 2 * GH) return ctx.Error("B has the wrong shape");
    bias = ctx.input(3).data<float>();
  }
  std::vector<int64_t> lens(B, S);
  if (ctx.has_input(4)) {
    ASSIGN_OR_RETURN(lens, ctx.IntsInput(4));
    if (static_cast<int64_t>(lens.size()) != B)
      return ctx.Error("sequence_lens has the wrong shape");
    for (int64_t& l : lens) l = std::clamp<int64_t>(l, 0, S);
  }
  const float* h0 = nullptr;
  const float* c0 = nullptr;
  const float* peep = nullptr;
  if (ctx.has_input(5)) {
    if (ctx.input(5).size() != D * B * H) return ctx.Error("initial_h has the wrong shape");
    h0 = ctx.input(5).data<float>();
  }
  if (kLstm && ctx.has_input(6)) {
    if (ctx.input(6).size() != D * B * H) return ctx.Error("initial_c has the wrong shape");
    c0 = ctx.input(6).data<float>();
  }
  if (kLstm && ctx.has_input(7)) {
    if (ctx.input(7).size() != D * 3 * H) return ctx.Error("P has the wrong shape");
    peep = ctx.input(7).data<float>();
  }

  const VectorKernels& vk = Vec();
  const int n_act = NumActivations(kind);
  const std::vector<std::string> names = ActivationNames(ctx, kind, D);
  const std::vector<float> alphas = ctx.GetFloats("activation_alpha"),
                           betas = ctx.GetFloats("activation_beta");
  if (static_cast<int64_t>(names.size()) != n_act * D)
    return ctx.Error("wrong number of activations");
  std::vector<FloatAct> acts;
  for (size_t k = 0; k < names.size(); ++k) {
    ASSIGN_OR_RETURN(
        FloatAct a,
        MakeFloatActivation(vk, names[k], k < alphas.size() ? alphas[k] : 0,
                            k < betas.size() ? betas[k] : 0, k < alphas.size(), k < betas.size()));
    acts.push_back(std::move(a));
  }
  const bool has_clip = ctx.has_attr("clip");
  const float clip = ctx.GetFloat("clip", 0.0f);
  auto clamp_block = [&](float* v, int64_t n) {
    if (has_clip) vk.unary_f32(UnaryOp::kClip, v, v, n, -clip, clip);
  };
  const bool lbr = ctx.GetInt("linear_before_reset", 0) != 0;
  const bool input_forget = ctx.GetInt("input_forget", 0) != 0;

  Tensor Y(DataType::kFloat,
           batch_major ? std::vector<int64_t>{B, S, D, H} : std::vector<int64_t>{S, D, B, H});
  const std::vector<int64_t> state_dims =
      batch_major ? std::vector<int64_t>{B, D, H} : std::vector<int64_t>{D, B, H};
  Tensor Yh(DataType::kFloat, state_dims), Yc(DataType::kFloat, state_dims);
  float* py = Y.mutable_data<float>();
  auto y_at = [&](int64_t t, int64_t d, int64_t b) {
    return py + (batch_major ? ((b * S + t) * D + d) * H : ((t * D + d) * B + b) * H);
  };
  auto state_offset = [&](int64_t d, int64_t b) {
    return (batch_major ? b * D + d : d * B + b) * H;
  };

  // Input projection of every step, batch entry and direction: X (rows in X's order) * W^T, then
  // the biases. GRU's recurrent bias of the candidate gate stays apart when linear_before_reset (it
  // is scaled by r there).
  const int64_t DGH = D * GH;
  // A tensor, so that the interpreter's size limit applies (it is G times Y's size).
  Tensor xw_t = Tensor::Uninitialized(DataType::kFloat, {S, B, DGH});  // written whole by the GEMM
  float* const xw_data = xw_t.mutable_data<float>();
  Gemm<float>(false, true, S * B, DGH, I, 1.0f, X.data<float>(), W.data<float>(), 0.0f, xw_data);
  std::vector<float> bsum(static_cast<size_t>(DGH), 0.0f), rbh(static_cast<size_t>(D * H), 0.0f);
  if (bias != nullptr) {
    for (int64_t d = 0; d < D; ++d) {
      const float* wb = bias + d * 2 * GH;
      const float* rb = wb + GH;
      for (int64_t k = 0; k < GH; ++k) {
        const bool apart = kGru && lbr && k >= 2 * H;
        bsum[d * GH + k] = apart ? wb[k] : wb[k] + rb[k];
        if (apart) rbh[d * H + k - 2 * H] = rb[k];
      }
    }
    for (int64_t row = 0; row < S * B; ++row) {
      float* r = xw_data + row * DGH;
      vk.binary_f32(BinaryOp::kAdd, Operands::kVectorVector, r, bsum.data(), r, DGH);
    }
  }
  auto xw_at = [&](int64_t t, int64_t d, int64_t b) {
    return xw_data + (batch_major ? b * S + t : t * B + b) * DGH + d * GH;
  };

  // Scratch, shared by the directions. Rows of batch entries past their sequence length keep being
  // computed by the per-step GEMMs but are never read.
  const int64_t N = kGru && !lbr ? 2 * H : GH;  // columns of GRU's per-step GEMM H_{t-1} * R^T
  std::vector<float> h(static_cast<size_t>(B * H)), c(static_cast<size_t>(B * H));
  std::vector<float> gates(static_cast<size_t>(B * GH)), tmp(static_cast<size_t>(H));
  std::vector<float> hr, rh, rhr;
  if (kGru) hr.resize(static_cast<size_t>(B * N));
  if (kGru && !lbr) {
    rh.resize(static_cast<size_t>(B * H));
    rhr.resize(static_cast<size_t>(B * H));
  }
  auto add = [&](const float* a, const float* b, float* out, int64_t n) {
    vk.binary_f32(BinaryOp::kAdd, Operands::kVectorVector, a, b, out, n);
  };
  auto mul = [&](const float* a, const float* b, float* out, int64_t n) {
    vk.binary_f32(BinaryOp::kMul, Operands::kVectorVector, a, b, out, n);
  };
  const float one = 1.0f;
  int64_t max_len = 0;
  for (int64_t l : lens) max_len = std::max(max_len, l);

  // An LSTM with the default activations and none of peepholes, clip or input_forget (what
  // exporters write) runs each step as one vector kernel over R packed once (kept for later runs
  // when R is a constant).
  bool fused_cells = kLstm && H > 0 && peep == nullptr && !has_clip && !input_forget;
  for (int64_t d = 0; d < D && fused_cells; ++d) {
    const FloatAct* a = &acts[d * n_act];
    fused_cells = a[0].vector && a[0].op == UnaryOp::kSigmoid && a[1].vector &&
                  a[1].op == UnaryOp::kTanh && a[2].vector && a[2].op == UnaryOp::kTanh;
  }
  const int64_t packed_size = LstmPackedWeightsSize(H);
  std::shared_ptr<const std::vector<float>> packed_r;
  if (fused_cells) {
    packed_r = ctx.Derived<std::vector<float>>(2, [&] {
      std::vector<float> packed(static_cast<size_t>(D * packed_size));
      for (int64_t d = 0; d < D; ++d)
        PackLstmWeights(R.data<float>() + d * GH * H, H, packed.data() + d * packed_size);
      return packed;
    });
  }
  std::vector<const float*> step_h_prev, step_xw;
  std::vector<float*> step_c, step_h_out;
  if (fused_cells) {
    step_h_prev.resize(B);
    step_xw.resize(B);
    step_c.resize(B);
    step_h_out.resize(B);
  }
  const int64_t unit_blocks = CeilDiv(H, kLstmUnitBlock);

  for (int64_t d = 0; d < D; ++d) {
    const bool reverse = direction == "reverse" || d == 1;
    const float* r = R.data<float>() + d * GH * H;
    const float* pd = peep != nullptr ? peep + d * 3 * H : nullptr;
    const float* rbh_d = rbh.data() + d * H;
    const FloatAct& f = acts[d * n_act];
    const FloatAct& g = acts[d * n_act + (n_act > 1 ? 1 : 0)];
    const FloatAct& hh = acts[d * n_act + (n_act > 2 ? 2 : 0)];
    for (int64_t b = 0; b < B; ++b) {
      const int64_t off = state_offset(d, b);
      for (int64_t j = 0; j < H; ++j) {
        h[b * H + j] = h0 != nullptr ? h0[off + j] : 0.0f;
        c[b * H + j] = c0 != nullptr ? c0[off + j] : 0.0f;
      }
      for (int64_t t = lens[b]; t < S; ++t) std::memset(y_at(t, d, b), 0, sizeof(float) * H);
    }
    for (int64_t step = 0; step < max_len; ++step) {
      auto time_of = [&](int64_t b) { return reverse ? lens[b] - 1 - step : step; };
      if (fused_cells) {
        // Each entry reads its last output (or its initial state) and writes Y's row directly.
        int64_t count = 0;
        for (int64_t b = 0; b < B; ++b) {
          if (step >= lens[b]) continue;
          const int64_t t = time_of(b);
          step_h_prev[count] = step == 0 ? h.data() + b * H : y_at(reverse ? t + 1 : t - 1, d, b);
          step_xw[count] = xw_at(t, d, b);
          step_c[count] = c.data() + b * H;
          step_h_out[count] = y_at(t, d, b);
          ++count;
        }
        const LstmStepRows rows{count, step_h_prev.data(), step_xw.data(), step_c.data(),
                                step_h_out.data()};
        const float* packed = packed_r->data() + d * packed_size;
        // Blocks of at least ~32K multiply-adds a chunk (the skinny GEMM's split).
        const int64_t chunk = CeilDiv(int64_t{1} << 15, count * 4 * kLstmUnitBlock * H);
        ParallelFor(CeilDiv(unit_blocks, chunk), 1, [&](int64_t begin, int64_t end) {
          vk.lstm_step_f32(H, packed, rows, begin * chunk, std::min(end * chunk, unit_blocks));
        });
        continue;
      }
      if constexpr (kind == Cell::kGru) {
        // z and r (and the candidate's H_{t-1} * Rh^T when linear_before_reset) from H_{t-1} alone.
        Gemm<float>(false, true, B, N, H, 1.0f, h.data(), r, 0.0f, hr.data());
        for (int64_t b = 0; b < B; ++b) {
          if (step >= lens[b]) continue;
          const float* xr = xw_at(time_of(b), d, b);
          const float* hrb = hr.data() + b * N;
          float* gb = gates.data() + b * GH;  // z, r, candidate
          add(xr, hrb, gb, 2 * H);
          clamp_block(gb, 2 * H);
          f(gb, 2 * H);
          const float* rt = gb + H;
          if (lbr) {
            // Xt * Wh^T + Wbh + r (.) (H_{t-1} * Rh^T + Rbh)
            add(hrb + 2 * H, rbh_d, tmp.data(), H);
            mul(rt, tmp.data(), tmp.data(), H);
            add(xr + 2 * H, tmp.data(), gb + 2 * H, H);
          } else {
            mul(rt, h.data() + b * H, rh.data() + b * H, H);
          }
        }
        if (!lbr) {
          // (r (.) H_{t-1}) * Rh^T needs every r first.
          Gemm<float>(false, true, B, H, H, 1.0f, rh.data(), r + 2 * H * H, 0.0f, rhr.data());
          for (int64_t b = 0; b < B; ++b) {
            if (step >= lens[b]) continue;
            add(xw_at(time_of(b), d, b) + 2 * H, rhr.data() + b * H, gates.data() + b * GH + 2 * H,
                H);
          }
        }
        for (int64_t b = 0; b < B; ++b) {
          if (step >= lens[b]) continue;
          float* gb = gates.data() + b * GH;
          float* hb = h.data() + b * H;
          float* ht = gb + 2 * H;
          clamp_block(ht, H);
          g(ht, H);
          // H_t = (1 - z) (.) ht + z (.) H_{t-1} = ht + z (.) (H_{t-1} - ht)
          vk.binary_f32(BinaryOp::kSub, Operands::kVectorVector, hb, ht, tmp.data(), H);
          mul(gb, tmp.data(), tmp.data(), H);
          add(ht, tmp.data(), hb, H);
        }
      } else {
        // gates = (Xt * W^T + biases) + H_{t-1} * R^T: the projected rows first, the GEMM adds to
        // them.
        for (int64_t b = 0; b < B; ++b) {
          if (step < lens[b])
            std::memcpy(gates.data() + b * GH, xw_at(time_of(b), d, b), sizeof(float) * GH);
        }
        Gemm<float>(false, true, B, GH, H, 1.0f, h.data(), r, 1.0f, gates.data());
        for (int64_t b = 0; b < B; ++b) {
          if (step >= lens[b]) continue;
          float* gb = gates.data() + b * GH;
          float* hb = h.data() + b * H;
          if constexpr (kind == Cell::kRnn) {
            clamp_block(gb, H);
            f(gb, hb, H);
          } else {
            float* cb = c.data() + b * H;  // gates: i, o, f, c
            if (pd != nullptr) {
              mul(pd, cb, tmp.data(), H);
              add(gb, tmp.data(), gb, H);
              mul(pd + 2 * H, cb, tmp.data(), H);
              add(gb + 2 * H, tmp.data(), gb + 2 * H, H);
              clamp_block(gb, H);
              clamp_block(gb + 2 * H, 2 * H);
              f(gb, H);
              f(gb + 2 * H, H);
            } else {
              clamp_block(gb, GH);
              f(gb, 3 * H);
            }
            g(gb + 3 * H, H);
            if (input_forget)
              vk.binary_f32(BinaryOp::kSub, Operands::kScalarVector, &one, gb, gb + 2 * H, H);
            // C_t = f (.) C_{t-1} + i (.) c
            mul(gb + 2 * H, cb, cb, H);
            mul(gb, gb + 3 * H, tmp.data(), H);
            add(cb, tmp.data(), cb, H);
            if (pd != nullptr) {
              mul(pd + H, cb, tmp.data(), H);
              add(gb + H, tmp.data(), gb + H, H);
              clamp_block(gb + H, H);
              f(gb + H, H);
            }
            // H_t = o (.) h(C_t)
            hh(cb, tmp.data(), H);
            mul(gb + H, tmp.data(), hb, H);
          }
        }
      }
      for (int64_t b = 0; b < B; ++b) {
        if (step < lens[b])
          std::memcpy(y_at(time_of(b), d, b), h.data() + b * H, sizeof(float) * H);
      }
    }
    for (int64_t b = 0; b < B; ++b) {
      const int64_t off = state_offset(d, b);
      if (fused_cells && lens[b] > 0) {  // the last step's output
        std::memcpy(h.data() + b * H, y_at(reverse ? 0 : lens[b] - 1, d, b), sizeof(float) * H);
      }
      std::memcpy(Yh.mutable_data<float>() + off, h.data() + b * H, sizeof(float) * H);
      std::memcpy(Yc.mutable_data<float>() + off, c.data() + b * H, sizeof(float) * H);
    }
  }
  ctx.set_output(0, std::move(Y));
  ctx.set_output(1, std::move(Yh));
  if (kLstm) ctx.set_output(2, std::move(Yc));
  return true;
}

// ---- generic path (double)
// -----------------------------------------------------------------------

template <Cell kind>
Status RecurrentGeneric(KernelContext& ctx) {
  constexpr int G = NumGates(kind);
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
  if (W.dim(0) != D || W.dim(1) != G * H || W.dim(2) != I)
    return ctx.Error("W has the wrong shape");
  Tensor Bias(DataType::kDouble, {D, 2 * G * H});
  if (ctx.has_input(3)) {
    ASSIGN_OR_RETURN(Bias, CastTensor(ctx.input(3), DataType::kDouble));
  }
  std::vector<int64_t> lens(B, S);
  if (ctx.has_input(4)) {
    ASSIGN_OR_RETURN(lens, ctx.IntsInput(4));
  }
  Tensor H0(DataType::kDouble, {D, B, H}), C0(DataType::kDouble, {D, B, H}),
      P(DataType::kDouble, {D, 3 * H});
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
  const int n_act = NumActivations(kind);
  const std::vector<std::string> names = ActivationNames(ctx, kind, D);
  const std::vector<float> alphas = ctx.GetFloats("activation_alpha"),
                           betas = ctx.GetFloats("activation_beta");
  if (static_cast<int64_t>(names.size()) != n_act * D)
    return ctx.Error("wrong number of activations");
  std::vector<Act> acts;
  for (size_t k = 0; k < names.size(); ++k) {
    ASSIGN_OR_RETURN(Act a, MakeActivation(names[k], k < alphas.size() ? alphas[k] : 0,
                                           k < betas.size() ? betas[k] : 0, k < alphas.size(),
                                           k < betas.size()));
    acts.push_back(std::move(a));
  }
  const double clip = ctx.GetFloat("clip", 0.0f);
  const bool has_clip = ctx.has_attr("clip");
  auto cl = [&](double v) { return has_clip ? std::clamp(v, -clip, clip) : v; };
  const bool lbr = ctx.GetInt("linear_before_reset", 0) != 0;
  const bool input_forget = ctx.GetInt("input_forget", 0) != 0;

  Tensor Y(DataType::kDouble, {S, D, B, H}), Yh(DataType::kDouble, {D, B, H}),
      Yc(DataType::kDouble, {D, B, H});
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

template <Cell kind>
Status RecurrentKernel(KernelContext& ctx) {
  RETURN_IF_ERROR(CheckRecurrentInputs<kind>(ctx));
  ASSIGN_OR_RETURN(bool done, RecurrentFloat<kind>(ctx));
  if (done) return OkStatus();
  return RecurrentGeneric<kind>(ctx);
}

}  // namespace

void RegisterRecurrentKernels(KernelRegistry& r) {
  r.Register("", "RNN", 1, RecurrentKernel<Cell::kRnn>);
  r.Register("", "GRU", 1, RecurrentKernel<Cell::kGru>);
  r.Register("", "LSTM", 1, RecurrentKernel<Cell::kLstm>);
}

}  // namespace onnx_opt::interpreter
