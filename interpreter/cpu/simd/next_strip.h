// The rows of a stored B's next strip that the unpacked GEMMs (unpacked_gemm.cc,
// unpacked_gemm_avx2.cc) ask for into L2 while they compute from the packed copy of the current
// one. The first block of rows over a strip reads its rows of B in place, ldb apart (a page apart
// or more in BERT's products), and copies them for the later blocks; asking for each row a few
// steps of k ahead is too late when B comes from L3. So every later block of the current strip
// asks, before it starts, for its share of the rows the next first block will read: the next slice
// of K of this strip, or the first slice of the next strip.
#ifndef ONNX_OPT_INTERPRETER_CPU_SIMD_NEXT_STRIP_H_
#define ONNX_OPT_INTERPRETER_CPU_SIMD_NEXT_STRIP_H_

#include <cstdint>

#include "interpreter/cpu/simd/prefetch.h"
#include "interpreter/cpu/simd/simd.h"

// In each ISA's namespace: its files are compiled with different instruction sets, and one copy of
// an inline function shared between them could run AVX-512 code on an AVX2 core.
namespace onnx_opt::interpreter::ONNX_OPT_SIMD_NS {

template <int64_t kStripColumns, int64_t kKSlice>
class NextStrip {
 public:
  // After slice [k, k + slice) of the strip at column j, of `blocked` columns in strips, in a
  // product of M rows in blocks of `block_rows`. Without a next strip (the last), nothing.
  NextStrip(const float* B, int64_t ldb, int64_t M, int64_t K, int64_t block_rows, int64_t j,
            int64_t blocked, int64_t k, int64_t slice)
      : ldb_(ldb) {
    const bool next_slice = k + slice < K;
    if (B == nullptr || (!next_slice && j + kStripColumns >= blocked)) return;
    const int64_t next_k = next_slice ? k + slice : 0;
    b_ = B + next_k * ldb + (next_slice ? j : j + kStripColumns);
    rows_ = K - next_k < kKSlice ? K - next_k : kKSlice;
    const int64_t later_blocks = (M + block_rows - 1) / block_rows - 1;
    per_block_ = later_blocks > 0 ? (rows_ + later_blocks - 1) / later_blocks : 0;
  }

  // Asks for the share of block `block` (1 for the second block of rows, ...).
  void PrefetchShare(int64_t block) const {
    const int64_t r0 = (block - 1) * per_block_;
    const int64_t r1 = r0 + per_block_ < rows_ ? r0 + per_block_ : rows_;
    for (int64_t r = r0; r < r1; ++r) PrefetchL2(b_ + r * ldb_, kStripColumns * sizeof(float));
  }

 private:
  const float* b_ = nullptr;
  int64_t ldb_ = 0, rows_ = 0, per_block_ = 0;
};

}  // namespace onnx_opt::interpreter::ONNX_OPT_SIMD_NS

#endif  // ONNX_OPT_INTERPRETER_CPU_SIMD_NEXT_STRIP_H_
