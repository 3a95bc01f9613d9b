// The stored B of the float GEMMs (unpacked_gemm.cc, unpacked_gemm_avx2.cc) as a constant weight
// is packed once: strips of kStripColumns columns, each K x kStripColumns contiguous (the last
// zero-padded), so that every row block reads a strip's slice of K as the later blocks over B in
// place read their copy, and no block waits on B's rows a page or more apart. Also the slicing of K
// over all of C that both forms take when A is large.
#ifndef ONNX_OPT_INTERPRETER_CPU_SIMD_PACKED_B_H_
#define ONNX_OPT_INTERPRETER_CPU_SIMD_PACKED_B_H_

#include <cstdint>
#include <type_traits>

#include "interpreter/cpu/simd/prefetch.h"
#include "interpreter/cpu/simd/simd.h"

// In each ISA's namespace, as next_strip.h.
namespace onnx_opt::interpreter::ONNX_OPT_SIMD_NS {

// Whether products from B packed have the bits of B in place for N columns: in place, a few columns
// past the last whole vector (N % kLanes of 1..kMaxDotColumns) are dot products, summed in another
// order than the blocks that read packed strips.
template <int64_t kLanes, int64_t kMaxDotColumns>
constexpr bool PackableColumns(int64_t N) {
  return N % kLanes == 0 || N % kLanes > kMaxDotColumns;
}

// B (K x N, rows ldb apart) into strips of kStripColumns at `packed`.
template <int64_t kStripColumns>
void PackStrips(int64_t K, int64_t N, const float* B, int64_t ldb, float* packed) {
  for (int64_t j = 0; j < N; j += kStripColumns) {
    const int64_t n = N - j < kStripColumns ? N - j : kStripColumns;
    float* strip = packed + j * K;
    for (int64_t k = 0; k < K; ++k) {
      float* row = strip + k * kStripColumns;
      for (int64_t c = 0; c < kStripColumns; ++c) row[c] = c < n ? B[k * ldb + j + c] : 0.0f;
    }
  }
}

// What the first row block over the next slice of a packed strip reads (the strip's next slice of
// K, or the next strip's first), asked for into L2 a share per later block of the current slice,
// as next_strip.h does for B in place; contiguous here.
template <int64_t kStripColumns, int64_t kKSlice>
class NextPackedSlice {
 public:
  // After slice [k, k + slice) of the strip at column j (of N) starting at `strip`, strips ldp
  // rows long, in a product of M rows in blocks of block_rows.
  NextPackedSlice(const float* strip, int64_t ldp, int64_t N, int64_t K, int64_t M,
                  int64_t block_rows, int64_t j, int64_t k, int64_t slice) {
    const bool next_slice = k + slice < K;
    const int64_t rows = next_slice ? (K - k - slice < kKSlice ? K - k - slice : kKSlice)
                                    : (j + kStripColumns < N ? (K < kKSlice ? K : kKSlice) : 0);
    next_ = reinterpret_cast<const char*>(next_slice ? strip + (k + slice) * kStripColumns
                                                     : strip + ldp * kStripColumns);
    bytes_ = rows * kStripColumns * int64_t{sizeof(float)};
    const int64_t later_blocks = (M + block_rows - 1) / block_rows - 1;
    share_ = later_blocks > 0 ? (bytes_ / 64 + later_blocks - 1) / later_blocks * 64 : 0;
  }

  // Asks for the share of block `block` (1 for the second block of rows, ...).
  void PrefetchShare(int64_t block) const {
    const int64_t b0 = (block - 1) * share_;
    if (b0 < bytes_) PrefetchL2(next_ + b0, bytes_ - b0 < share_ ? bytes_ - b0 : share_);
  }

 private:
  const char* next_ = nullptr;
  int64_t bytes_ = 0, share_ = 0;
};

// C = A * B as slices of K over all of C where A is large and its slices are not: A of more than
// half of L2 whose slice of K fits it (BERT's 128 x 3072 second product, 1.5 MB) would come from L3
// once per strip of B. `product(k, slice, onto_c, e)` computes one such slice (or all of K at
// once), onto_c a std::bool_constant (true: add to C; usable as a template argument); each row of C
// sums its slices in the order a single product does, so the bits are the same.
template <int64_t kKSlice, typename Product>
void OverSlicesOfK(int64_t M, int64_t K, const RowEpilogue* e, Product&& product) {
  constexpr int64_t kL2Share = 512 << 10;
  const int64_t a_bytes = M * K * int64_t{sizeof(float)};
  if (K <= kKSlice || a_bytes <= kL2Share || M * kKSlice * int64_t{sizeof(float)} > kL2Share)
    return product(0, K, std::false_type{}, e);
  for (int64_t k = 0; k < K; k += kKSlice) {
    const int64_t slice = K - k < kKSlice ? K - k : kKSlice;
    const RowEpilogue* last = k + slice == K ? e : nullptr;
    if (k == 0) {
      product(k, slice, std::false_type{}, last);
    } else {
      product(k, slice, std::true_type{}, last);
    }
  }
}

}  // namespace onnx_opt::interpreter::ONNX_OPT_SIMD_NS

#endif  // ONNX_OPT_INTERPRETER_CPU_SIMD_PACKED_B_H_
