// Row kernels: sums, Softmax / LogSoftmax and LayerNormalization. Reductions run in independent
// lanes so that they vectorize without reassociation flags: max and the softmax sum in float (as
// ONNX's reference and onnxruntime do), the LayerNormalization statistics in double (a row's mean
// and variance lose digits in float when the row is long and its values far from zero).
#include <cmath>

#include "interpreter/cpu/simd/math.h"
#include "interpreter/cpu/simd/simd.h"

namespace onnx_opt::interpreter::ONNX_OPT_SIMD_NS {
namespace {

constexpr int kLanes = 16;

float RowMax(const float* x, int64_t n) {
  float acc[kLanes];
  for (int j = 0; j < kLanes; ++j) acc[j] = -__builtin_inff();
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    for (int j = 0; j < kLanes; ++j) acc[j] = x[i + j] > acc[j] ? x[i + j] : acc[j];
  }
  float m = -__builtin_inff();
  for (int j = 0; j < kLanes; ++j) m = acc[j] > m ? acc[j] : m;
  for (; i < n; ++i) m = x[i] > m ? x[i] : m;
  return m;
}

template <typename T, typename F>
T RowSum(int64_t n, F value) {
  T acc[kLanes] = {};
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    for (int j = 0; j < kLanes; ++j) acc[j] += value(i + j);
  }
  T s = 0;
  for (; i < n; ++i) s += value(i);
  for (int j = 0; j < kLanes; ++j) s += acc[j];
  return s;
}

}  // namespace

void RowSumsF32(const float* x, int64_t rows, int64_t n, double* sums) {
  for (int64_t r = 0; r < rows; ++r, x += n) {
    sums[r] = RowSum<double>(n, [&](int64_t i) { return static_cast<double>(x[i]); });
  }
}

void SoftmaxRowsF32(const float* x, float* y, int64_t rows, int64_t n, bool log) {
  for (int64_t r = 0; r < rows; ++r, x += n, y += n) {
    const float m = RowMax(x, n);
    if (log) {
      const float sum = RowSum<float>(n, [&](int64_t i) { return ExpF(x[i] - m); });
      const float shift = m + std::log(sum);
      for (int64_t i = 0; i < n; ++i) y[i] = x[i] - shift;
    } else {
      for (int64_t i = 0; i < n; ++i) y[i] = ExpF(x[i] - m);
      const float inv = 1.0f / RowSum<float>(n, [&](int64_t i) { return y[i]; });
      for (int64_t i = 0; i < n; ++i) y[i] *= inv;
    }
  }
}

void LayerNormRowsF32(const float* x, const float* scale, const float* bias, float* y, int64_t rows,
                      int64_t n, float epsilon, float* mean, float* inv_std_dev) {
  for (int64_t r = 0; r < rows; ++r, x += n, y += n) {
    const double mu = RowSum<double>(n, [&](int64_t i) { return static_cast<double>(x[i]); }) / n;
    const double var = RowSum<double>(n,
                                      [&](int64_t i) {
                                        const double d = x[i] - mu;
                                        return d * d;
                                      }) /
                       n;
    const double inv = 1.0 / std::sqrt(var + epsilon);
    const float muf = static_cast<float>(mu), invf = static_cast<float>(inv);
    if (bias != nullptr) {
      for (int64_t i = 0; i < n; ++i) y[i] = (x[i] - muf) * invf * scale[i] + bias[i];
    } else {
      for (int64_t i = 0; i < n; ++i) y[i] = (x[i] - muf) * invf * scale[i];
    }
    if (mean != nullptr) mean[r] = muf;
    if (inv_std_dev != nullptr) inv_std_dev[r] = invf;
  }
}

}  // namespace onnx_opt::interpreter::ONNX_OPT_SIMD_NS
