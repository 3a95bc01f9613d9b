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

// c = alpha * op(a) * op(b) + beta * c on Eigen maps (contiguous or with outer strides).
template <typename T, typename MapA, typename MapB, typename MapC>
void Product(bool ta, bool tb, T alpha, const MapA& a, const MapB& b, T beta, MapC& c) {
  // With beta == 0 Eigen writes the product straight into C (no zero fill, no second pass).
  if (beta == T(0) && alpha == T(1)) {
    if (!ta && !tb)
      c.noalias() = a * b;
    else if (ta && !tb)
      c.noalias() = a.transpose() * b;
    else if (!ta && tb)
      c.noalias() = a * b.transpose();
    else
      c.noalias() = a.transpose() * b.transpose();
    return;
  }
  if (beta == T(0)) {
    c.setZero();
  } else if (beta != T(1)) {
    c *= beta;
  }
  if (!ta && !tb)
    c.noalias() += alpha * (a * b);
  else if (ta && !tb)
    c.noalias() += alpha * (a.transpose() * b);
  else if (!ta && tb)
    c.noalias() += alpha * (a * b.transpose());
  else
    c.noalias() += alpha * (a.transpose() * b.transpose());
}

template <typename MapC, typename T>
void ScaleOnly(MapC& c, T beta) {
  if (beta == T(0))
    c.setZero();
  else
    c *= beta;
}

template <typename T>
void EigenGemm(bool ta, bool tb, int64_t M, int64_t N, int64_t K, T alpha, const T* A, const T* B,
               T beta, T* C) {
  Eigen::Map<RowMajor<T>> c(C, M, N);
  if (K == 0) return ScaleOnly(c, beta);
  Eigen::Map<const RowMajor<T>> a(A, ta ? K : M, ta ? M : K);
  Eigen::Map<const RowMajor<T>> b(B, tb ? N : K, tb ? K : N);
  Product(ta, tb, alpha, a, b, beta, c);
}

// The same with leading dimensions: the maps are submatrices of larger row-major arrays.
template <typename T>
void EigenGemmLd(bool ta, bool tb, int64_t M, int64_t N, int64_t K, T alpha, const T* A,
                 int64_t lda, const T* B, int64_t ldb, T beta, T* C, int64_t ldc) {
  using Stride = Eigen::OuterStride<>;
  Eigen::Map<RowMajor<T>, Eigen::Unaligned, Stride> c(C, M, N, Stride(ldc));
  if (K == 0) return ScaleOnly(c, beta);
  Eigen::Map<const RowMajor<T>, Eigen::Unaligned, Stride> a(A, ta ? K : M, ta ? M : K, Stride(lda));
  Eigen::Map<const RowMajor<T>, Eigen::Unaligned, Stride> b(B, tb ? N : K, tb ? K : N, Stride(ldb));
  Product(ta, tb, alpha, a, b, beta, c);
}

}  // namespace

namespace {

// A plain product on the kernel that reads its operands in place (unpacked_gemm.cc), where the CPU
// has it.
bool Unpacked(bool ta, bool tb, int64_t M, int64_t N, int64_t K, float alpha, const float* A,
              int64_t lda, const float* B, int64_t ldb, float beta, float* C, int64_t ldc) {
#if defined(__AVX2__)
  if (!ta && !tb && alpha == 1.0f && beta == 0.0f)
    return UnpackedGemmF32(M, N, K, A, lda, B, ldb, C, ldc);
#endif
  return false;
}

}  // namespace

void GemmF32(bool ta, bool tb, int64_t M, int64_t N, int64_t K, float alpha, const float* A,
             const float* B, float beta, float* C) {
  if (M == 0 || N == 0) return;
  if (Unpacked(ta, tb, M, N, K, alpha, A, ta ? M : K, B, tb ? K : N, beta, C, N)) return;
  EigenGemm<float>(ta, tb, M, N, K, alpha, A, B, beta, C);
}

void GemmF64(bool ta, bool tb, int64_t M, int64_t N, int64_t K, double alpha, const double* A,
             const double* B, double beta, double* C) {
  if (M == 0 || N == 0) return;
  EigenGemm<double>(ta, tb, M, N, K, alpha, A, B, beta, C);
}

void GemmLdF32(bool ta, bool tb, int64_t M, int64_t N, int64_t K, float alpha, const float* A,
               int64_t lda, const float* B, int64_t ldb, float beta, float* C, int64_t ldc) {
  if (M == 0 || N == 0) return;
  if (Unpacked(ta, tb, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc)) return;
  EigenGemmLd<float>(ta, tb, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

void GemmLdF64(bool ta, bool tb, int64_t M, int64_t N, int64_t K, double alpha, const double* A,
               int64_t lda, const double* B, int64_t ldb, double beta, double* C, int64_t ldc) {
  if (M == 0 || N == 0) return;
  EigenGemmLd<double>(ta, tb, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

}  // namespace onnx_opt::interpreter::ONNX_OPT_SIMD_NS
