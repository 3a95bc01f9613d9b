#include "interpreter/cpu/vector_kernels.h"

#include "glog/logging.h"

namespace onnx_opt::interpreter {

// Defined once per ISA by simd/table.cc.
namespace simd_baseline {
const VectorKernels& Table();
}
namespace simd_avx2 {
const VectorKernels& Table();
}
namespace simd_avx512 {
const VectorKernels& Table();
}

const VectorKernels& VecFor(Isa isa) {
  CHECK(isa <= DetectedIsa()) << "vector kernels for " << IsaName(isa)
                              << " asked on a CPU without it";
  switch (isa) {
    case Isa::kAvx512: {
      // VNNI came after AVX-512's first CPUs: without it, the int8 GEMM is AVX2's.
      static const VectorKernels table = [] {
        VectorKernels t = simd_avx512::Table();
        if (!CpuHasAvx512Vnni()) t.gemm_8bit_s32 = simd_avx2::Table().gemm_8bit_s32;
        return t;
      }();
      return table;
    }
    case Isa::kAvx2:
      return simd_avx2::Table();
    case Isa::kBaseline:
      break;
  }
  return simd_baseline::Table();
}

const VectorKernels& Vec() { return VecFor(ActiveIsa()); }

int64_t LstmPackedWeightsSize(int64_t H) {
  return (H + kLstmUnitBlock - 1) / kLstmUnitBlock * H * 4 * kLstmUnitBlock;
}

int64_t WinogradWeightsSize(int64_t M, int64_t C) { return 16 * M * C; }

void PackWinogradWeights(const float* w, int64_t M, int64_t C, float* u) {
  static constexpr double kG[4][3] = {{1, 0, 0}, {0.5, 0.5, 0.5}, {0.5, -0.5, 0.5}, {0, 0, 1}};
  for (int64_t m = 0; m < M; ++m) {
    for (int64_t c = 0; c < C; ++c) {
      const float* g = w + (m * C + c) * 9;
      double gg[4][3];  // G g
      for (int a = 0; a < 4; ++a) {
        for (int q = 0; q < 3; ++q) {
          gg[a][q] = kG[a][0] * g[q] + kG[a][1] * g[3 + q] + kG[a][2] * g[6 + q];
        }
      }
      for (int a = 0; a < 4; ++a) {
        for (int b = 0; b < 4; ++b) {
          const double v = gg[a][0] * kG[b][0] + gg[a][1] * kG[b][1] + gg[a][2] * kG[b][2];
          u[((a * 4 + b) * M + m) * C + c] = static_cast<float>(v);
        }
      }
    }
  }
}

void PackLstmWeights(const float* R, int64_t H, float* packed) {
  for (int64_t u0 = 0; u0 < H; u0 += kLstmUnitBlock) {
    for (int64_t k = 0; k < H; ++k) {
      for (int64_t g = 0; g < 4; ++g) {
        for (int64_t u = 0; u < kLstmUnitBlock; ++u) {
          *packed++ = u0 + u < H ? R[(g * H + u0 + u) * H + k] : 0.0f;
        }
      }
    }
  }
}

}  // namespace onnx_opt::interpreter
