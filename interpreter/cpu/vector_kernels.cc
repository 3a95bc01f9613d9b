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
  // U (16 x M * C) = T (16 x 9) times the taps (9 x M * C, i.e. W's M * C rows of 9 transposed),
  // T[4a + b][3p + q] = G[a][p] G[b][q] (0, +-1/4, +-1/2 or 1: exact in float). One GEMM: a 512 x
  // 512 filter bank took ~13 ms transformed tap by tap in double, ~4 ms along the channels in float
  // (loops the compiler left scalar), ~3.5 ms so.
  static constexpr float kG[4][3] = {{1, 0, 0}, {0.5f, 0.5f, 0.5f}, {0.5f, -0.5f, 0.5f}, {0, 0, 1}};
  float t[16 * 9];
  for (int a = 0; a < 4; ++a) {
    for (int b = 0; b < 4; ++b) {
      for (int p = 0; p < 3; ++p) {
        for (int q = 0; q < 3; ++q) t[(a * 4 + b) * 9 + p * 3 + q] = kG[a][p] * kG[b][q];
      }
    }
  }
  Vec().gemm_f32(false, true, 16, M * C, 9, 1.0f, t, w, 0.0f, u);
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
