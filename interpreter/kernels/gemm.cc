#include "interpreter/kernels/gemm.h"

#include <type_traits>

#include "interpreter/cpu/vector_kernels.h"

namespace onnx_opt::interpreter {
namespace {

template <typename T>
void LoopGemm(bool ta, bool tb, int64_t M, int64_t N, int64_t K, T alpha, const T* A, const T* B, T beta,
              T* C) {
  for (int64_t i = 0; i < M; ++i) {
    for (int64_t j = 0; j < N; ++j) {
      T acc = 0;
      for (int64_t k = 0; k < K; ++k) {
        const T a = ta ? A[k * M + i] : A[i * K + k];
        const T b = tb ? B[j * K + k] : B[k * N + j];
        acc += a * b;
      }
      C[i * N + j] = static_cast<T>(alpha * acc + (beta == T(0) ? T(0) : beta * C[i * N + j]));
    }
  }
}

}  // namespace

template <typename T>
void Gemm(bool ta, bool tb, int64_t M, int64_t N, int64_t K, T alpha, const T* A, const T* B, T beta, T* C) {
  if (M == 0 || N == 0) return;
  if constexpr (std::is_same_v<T, float>) {
    Vec().gemm_f32(ta, tb, M, N, K, alpha, A, B, beta, C);
  } else if constexpr (std::is_same_v<T, double>) {
    Vec().gemm_f64(ta, tb, M, N, K, alpha, A, B, beta, C);
  } else {
    LoopGemm<T>(ta, tb, M, N, K, alpha, A, B, beta, C);
  }
}

template void Gemm<float>(bool, bool, int64_t, int64_t, int64_t, float, const float*, const float*, float, float*);
template void Gemm<double>(bool, bool, int64_t, int64_t, int64_t, double, const double*, const double*, double, double*);
template void Gemm<int32_t>(bool, bool, int64_t, int64_t, int64_t, int32_t, const int32_t*, const int32_t*, int32_t, int32_t*);
template void Gemm<int64_t>(bool, bool, int64_t, int64_t, int64_t, int64_t, const int64_t*, const int64_t*, int64_t, int64_t*);
template void Gemm<uint32_t>(bool, bool, int64_t, int64_t, int64_t, uint32_t, const uint32_t*, const uint32_t*, uint32_t, uint32_t*);
template void Gemm<uint64_t>(bool, bool, int64_t, int64_t, int64_t, uint64_t, const uint64_t*, const uint64_t*, uint64_t, uint64_t*);

}  // namespace onnx_opt::interpreter
