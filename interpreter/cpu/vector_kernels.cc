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
