// Random generators: RandomNormal, RandomUniform, their *Like forms, Bernoulli, Multinomial.
//
// The interpreter's draws are reproducible: a node with a `seed` attribute draws from that seed,
// and a node without one from a seed made of its first output's name. So a model and a rewrite of
// it that keeps its random nodes compute the same values, and verification can compare what comes
// after them. (Passes never fold, merge or duplicate random nodes: passes/op_traits.h.) The numbers
// are not those of any other runtime; ONNX's node tests for these operators cannot be matched.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>

#include "interpreter/kernels/common.h"

namespace onnx_opt::interpreter {
namespace {

using absl::OkStatus;
using absl::Status;
using absl::StatusOr;

std::mt19937_64 GeneratorFor(const KernelContext& ctx) {
  if (const ir::Attribute* seed = ctx.attr("seed"); seed != nullptr) {
    uint32_t bits;
    std::memcpy(&bits, &seed->f, sizeof(bits));
    return std::mt19937_64(bits);
  }
  // FNV-1a of the name: stable across processes (absl::Hash is salted per process).
  const std::string& name =
      ctx.node().num_outputs() > 0 ? ctx.node().output(0)->name() : ctx.node().name();
  uint64_t h = 14695981039346656037ull;
  for (unsigned char c : name) h = (h ^ c) * 1099511628211ull;
  return std::mt19937_64(h);
}

// The output element type: the dtype attribute, else `fallback`.
DataType OutputType(const KernelContext& ctx, DataType fallback) {
  return ctx.has_attr("dtype") ? static_cast<DataType>(ctx.GetInt("dtype", 1)) : fallback;
}

StatusOr<std::vector<int64_t>> ShapeOf(const KernelContext& ctx, bool like) {
  if (like) {
    ASSIGN_OR_RETURN(const Tensor* x, ctx.TensorInput(0));
    return x->dims();
  }
  std::vector<int64_t> shape = ctx.GetInts("shape");
  for (int64_t d : shape) {
    if (d < 0) return ctx.Error("shape has a negative dimension");
  }
  return shape;
}

template <bool kNormal, bool kLike>
Status RandomKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(std::vector<int64_t> shape, ShapeOf(ctx, kLike));
  const int64_t n = NumElements(shape);
  if (n < 0 || n > (int64_t{1} << 30)) return ctx.Error("the output would be too large");
  DataType fallback = DataType::kFloat;
  if (kLike) fallback = ctx.input(0).dtype();
  const DataType type = OutputType(ctx, fallback);
  std::mt19937_64 gen = GeneratorFor(ctx);
  Tensor y(DataType::kDouble, shape);
  double* p = y.mutable_data<double>();
  if (kNormal) {
    const double mean = ctx.GetFloat("mean", 0.0f), scale = ctx.GetFloat("scale", 1.0f);
    // std::normal_distribution requires a positive standard deviation (anything else is undefined).
    if (!std::isfinite(mean) || !std::isfinite(scale) || scale < 0) {
      return ctx.Error(
          absl::StrCat("mean ", mean, " and scale ", scale, " must be finite, scale not negative"));
    }
    if (scale == 0) {
      std::fill(p, p + n, mean);
    } else {
      std::normal_distribution<double> dist(mean, scale);
      for (int64_t i = 0; i < n; ++i) p[i] = dist(gen);
    }
  } else {
    const double low = ctx.GetFloat("low", 0.0f), high = ctx.GetFloat("high", 1.0f);
    if (!(high >= low)) return ctx.Error("high must not be below low");
    // std::uniform_real_distribution requires high - low to be finite.
    if (!std::isfinite(high - low))
      return ctx.Error(absl::StrCat("low ", low, " and high ", high, " must be finite"));
    std::uniform_real_distribution<double> dist(low, high);
    for (int64_t i = 0; i < n; ++i) p[i] = dist(gen);
  }
  ASSIGN_OR_RETURN(y, CastTensor(y, type));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

Status BernoulliKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* p0, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(Tensor p, CastTensor(*p0, DataType::kDouble));
  std::mt19937_64 gen = GeneratorFor(ctx);
  std::uniform_real_distribution<double> dist(0.0, 1.0);
  Tensor y(DataType::kDouble, p.dims());
  for (int64_t i = 0; i < p.size(); ++i)
    y.mutable_data<double>()[i] = dist(gen) < p.data<double>()[i] ? 1.0 : 0.0;
  ASSIGN_OR_RETURN(y, CastTensor(y, OutputType(ctx, p0->dtype())));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

// Multinomial: sample_size draws per batch row from the distribution softmax(row) (the input holds
// unnormalized log-probabilities).
Status MultinomialKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x0, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(Tensor x, CastTensor(*x0, DataType::kDouble));
  if (x.rank() != 2 || x.dim(1) == 0)
    return ctx.Error("input must be [batch_size, class_size] with classes");
  const int64_t samples = ctx.GetInt("sample_size", 1);
  if (samples < 0 || samples > (int64_t{1} << 24)) return ctx.Error("sample_size out of range");
  const int64_t B = x.dim(0), K = x.dim(1);
  std::mt19937_64 gen = GeneratorFor(ctx);
  Tensor y(DataType::kInt64, {B, samples});
  for (int64_t b = 0; b < B; ++b) {
    const double* row = x.data<double>() + b * K;
    std::vector<double> weights(row, row + K);
    // softmax(row) must be a distribution: a NaN or +inf, or a row of -inf only, has none (their
    // weights were NaN, and std::discrete_distribution drew out-of-range classes from them).
    for (double w : weights) {
      if (std::isnan(w) || w == INFINITY) {
        return ctx.Error(absl::StrCat("input row ", b, " holds ", w, ": not a log-probability"));
      }
    }
    const double top = *std::max_element(weights.begin(), weights.end());
    if (top == -INFINITY)
      return ctx.Error(absl::StrCat("input row ", b, " gives every class probability 0"));
    for (double& w : weights) w = std::exp(w - top);
    std::discrete_distribution<int64_t> dist(weights.begin(), weights.end());
    for (int64_t s = 0; s < samples; ++s) y.mutable_data<int64_t>()[b * samples + s] = dist(gen);
  }
  ASSIGN_OR_RETURN(y, CastTensor(y, OutputType(ctx, DataType::kInt32)));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace

void RegisterRandomKernels(KernelRegistry& r) {
  r.Register("", "RandomNormal", 1, RandomKernel<true, false>);
  r.Register("", "RandomUniform", 1, RandomKernel<false, false>);
  r.Register("", "RandomNormalLike", 1, RandomKernel<true, true>);
  r.Register("", "RandomUniformLike", 1, RandomKernel<false, true>);
  r.Register("", "Bernoulli", 15, BernoulliKernel);
  r.Register("", "Multinomial", 7, MultinomialKernel);
}

}  // namespace onnx_opt::interpreter
