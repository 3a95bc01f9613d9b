// Row-major matrix multiply C = alpha * op(A) * op(B) + beta * C through the vector kernels (float,
// double: Eigen built for the CPU's ISA) or a plain loop (integers).
#ifndef ONNX_OPT_INTERPRETER_KERNELS_GEMM_H_
#define ONNX_OPT_INTERPRETER_KERNELS_GEMM_H_

#include <cstdint>
#include <cstdlib>
#include <memory>

#include "interpreter/cpu/vector_kernels.h"

namespace onnx_opt::interpreter {

// A is M x K (or K x M when trans_a), B is K x N (or N x K when trans_b), C is M x N; all row-major
// and contiguous. beta == 0 ignores C's old contents. Float and double products of 2^21
// multiply-adds or more are cut into tiles of C that depend only on the shape and run on
// NumThreads() threads (interpreter/cpu/thread_pool.h): the result has the same bits whatever the
// thread count.
template <typename T>
void Gemm(bool trans_a, bool trans_b, int64_t M, int64_t N, int64_t K, T alpha, const T* A,
          const T* B, T beta, T* C);

// C (M x N) = A (M x K) * B (K x N), contiguous, with row i of C finished by `e` (its entries at i)
// as it is stored, on NumThreads() threads in Gemm's tiles: Gemm's bits, then the epilogue's. False
// (nothing done) where the vector kernels have no such GEMM (VectorKernels::gemm_epilogue_f32) or
// Gemm would take its skinny kernel.
bool GemmWithRowEpilogue(int64_t M, int64_t N, int64_t K, const float* A, const float* B, float* C,
                         const RowEpilogue& e);

// B (K x N float, a constant weight) copied once into the strips of the vector kernels'
// pack_gemm_b_f32, so that every product reads it contiguous instead of in place: the first row
// block over each strip of B in place waits on rows a page or more apart, which L2 cannot hold when
// they are 12 KB apart (BERT's 768 x 3072). Empty (data null) where the kernels have no packed GEMM
// or would sum N's last columns in another order from it (see packed_gemm_f32). Made for the ISA
// in use; GemmPackedB declines it under another.
struct PackedGemmB {
  int64_t K = 0, N = 0, strip = 0;
  std::unique_ptr<float, decltype(&std::free)> data{nullptr, &std::free};
};
PackedGemmB PackGemmB(int64_t K, int64_t N, const float* B);

// Whether a product of M rows by a K x N weight would read it packed (GemmPackedB): the kernels
// have a packed GEMM and M is past the skinny kernel's rows (decode steps stream B once anyway, and
// packing a decoder's weights for them would double its memory for nothing).
bool GemmReadsPackedB(int64_t M, int64_t N, int64_t K);

// Gemm<float>(false, false, M, B.N, B.K, 1, A, B's matrix, 0, C) from the copy, in Gemm's tiles:
// its bits. False (nothing done) where B is empty, was packed for other kernels, or Gemm would take
// its skinny kernel (decode steps read B once anyway).
bool GemmPackedB(int64_t M, const float* A, const PackedGemmB& B, float* C);

// C (M x N) = A (M x K) * the column matrix of a 2-D convolution (`cols`, K = channels * kernel
// cells, N = output positions), filled from the input as the product goes instead of stored
// (implicit im2col), row i finished by *e when given, on NumThreads() threads in Gemm's tiles:
// the bits of VectorKernels::gemm_epilogue_f32 (gemm_ld_f32 without e) on the stored matrix, the
// same whatever the thread count. False (nothing done) where the
// vector kernels have no such GEMM (VectorKernels::conv_gemm_f32), for fewer than 16 channels
// (where the stored matrix is faster) or when an input plane has 2^31 elements or more.
bool ConvGemm(int64_t M, const float* A, const ConvColumns& cols, float* C, const RowEpilogue* e);

// C (M x N) = A (M x K) * B (K x N, quantized: see QuantizedMatrix, columns from 0) for 1 <= M <=
// kSkinnyMaxRows, on NumThreads() threads; the bits of the float GEMM on DequantizeLinear's
// weights.
void SkinnyQuantizedGemm(int64_t M, int64_t N, int64_t K, const float* A, const QuantizedMatrix& B,
                         float* C);

// C (M x N) = A * W^T for MatMulNBits' 4-bit weight W (see Blocked4BitRows) and 1 <= M <=
// kSkinnyMaxRows, on NumThreads() threads: A's rows (lda apart) hold W.k_blocks * W.block_size
// values, zeros past K. Not the bits of the float GEMM on the dequantized weight (the sum is taken
// in another order), but the same bits whatever the thread count.
void SkinnyGemm4BitRows(int64_t M, int64_t N, const float* A, int64_t lda, const Blocked4BitRows& W,
                        float* C);

// C (int32, M x N) = A (M x K) * B (K x N) for integer-valued float operands of magnitude at most
// 255 (8-bit values minus zero points), exactly: a product is below 2^16 and a sum of 256 of them
// below 2^24, the range where float holds every integer, so float GEMMs over K in chunks of 256 are
// exact in any summation order, and the chunks add up in int32 (wrapping, as a 32-bit accumulator
// would).
void ExactInt8Gemm(int64_t M, int64_t N, int64_t K, const float* A, const float* B, int32_t* C);

// VectorKernels::gemm_8bit_s32 (which must be there: AVX2 or AVX-512) on NumThreads() threads, B's
// columns split among them in blocks of 512, so that each packs only its own, or A's rows when B
// has too few columns for that (exact integers: the same result whatever the split).
void Int8Gemm(int64_t M, int64_t N, int64_t K, const Int8Operand& A, const Int8Operand& B,
              int32_t* C);

}  // namespace onnx_opt::interpreter

#endif  // ONNX_OPT_INTERPRETER_KERNELS_GEMM_H_
