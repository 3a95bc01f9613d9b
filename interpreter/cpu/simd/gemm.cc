// GEMM through Eigen, built for this file's ISA. Eigen's namespace is renamed per ISA (see simd.h):
// the macro below makes every `Eigen` token in its headers, and in this file, the ISA's own name.
#include "interpreter/cpu/simd/simd.h"

#define ONNX_OPT_PASTE_INNER(a, b) a##b
#define ONNX_OPT_PASTE(a, b) ONNX_OPT_PASTE_INNER(a, b)
#define Eigen ONNX_OPT_PASTE(Eigen_, ONNX_OPT_SIMD_NS)
#include <Eigen/Core>

namespace onnx_opt::interpreter::ONNX_OPT_SIMD_NS {
namespace {

template <typename T>
using RowMajor = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

template <typename T>
void EigenGemm(bool ta, bool tb, int64_t M, int64_t N, int64_t K, T alpha, const T* A, const T* B, T beta,
               T* C) {
  Eigen::Map<RowMajor<T>> c(C, M, N);
  if (K == 0) {
    if (beta == T(0)) c.setZero();
    else c *= beta;
    return;
  }
  Eigen::Map<const RowMajor<T>> a(A, ta ? K : M, ta ? M : K);
  Eigen::Map<const RowMajor<T>> b(B, tb ? N : K, tb ? K : N);
  // With beta == 0 Eigen writes the product straight into C (no zero fill, no second pass).
  if (beta == T(0) && alpha == T(1)) {
    if (!ta && !tb) c.noalias() = a * b;
    else if (ta && !tb) c.noalias() = a.transpose() * b;
    else if (!ta && tb) c.noalias() = a * b.transpose();
    else c.noalias() = a.transpose() * b.transpose();
    return;
  }
  if (beta == T(0)) {
    c.setZero();
  } else if (beta != T(1)) {
    c *= beta;
  }
  if (!ta && !tb) c.noalias() += alpha * (a * b);
  else if (ta && !tb) c.noalias() += alpha * (a.transpose() * b);
  else if (!ta && tb) c.noalias() += alpha * (a * b.transpose());
  else c.noalias() += alpha * (a.transpose() * b.transpose());
}

}  // namespace

void GemmF32(bool ta, bool tb, int64_t M, int64_t N, int64_t K, float alpha, const float* A, const float* B,
             float beta, float* C) {
  if (M == 0 || N == 0) return;
  EigenGemm<float>(ta, tb, M, N, K, alpha, A, B, beta, C);
}

void GemmF64(bool ta, bool tb, int64_t M, int64_t N, int64_t K, double alpha, const double* A, const double* B,
             double beta, double* C) {
  if (M == 0 || N == 0) return;
  EigenGemm<double>(ta, tb, M, N, K, alpha, A, B, beta, C);
}

}  // namespace onnx_opt::interpreter::ONNX_OPT_SIMD_NS
