// Included first by every simd/ source. These files are compiled once per ISA (isa_library in
// interpreter/cpu/isa_library.bzl), each time with that ISA's -m flags and into its own namespace
// (ONNX_OPT_SIMD_NS = simd_baseline, simd_avx2, simd_avx512), Eigen included: an inline function or
// template compiled with wide instructions then has a name of its own, and the linker cannot pick
// it for code that runs on a narrower CPU. Keep these files free of other inline-heavy headers
// (standard containers, absl) for the same reason: they take raw pointers and sizes.
#ifndef ONNX_OPT_INTERPRETER_CPU_SIMD_SIMD_H_
#define ONNX_OPT_INTERPRETER_CPU_SIMD_SIMD_H_

#ifndef ONNX_OPT_SIMD_NS
#error "simd/ sources are compiled through isa_library, which defines ONNX_OPT_SIMD_NS"
#endif

#include <cstdint>

#include "interpreter/cpu/vector_kernels.h"

namespace onnx_opt::interpreter::ONNX_OPT_SIMD_NS {

void GemmF32(bool ta, bool tb, int64_t M, int64_t N, int64_t K, float alpha, const float* A,
             const float* B, float beta, float* C);
void GemmF64(bool ta, bool tb, int64_t M, int64_t N, int64_t K, double alpha, const double* A,
             const double* B, double beta, double* C);
void GemmLdF32(bool ta, bool tb, int64_t M, int64_t N, int64_t K, float alpha, const float* A,
               int64_t lda, const float* B, int64_t ldb, float beta, float* C, int64_t ldc);
void GemmLdF64(bool ta, bool tb, int64_t M, int64_t N, int64_t K, double alpha, const double* A,
               int64_t lda, const double* B, int64_t ldb, double beta, double* C, int64_t ldc);
void SkinnyGemmF32(bool trans_b, bool accumulate, int64_t M, int64_t N, int64_t K, const float* A,
                   int64_t lda, const float* B, int64_t ldb, float* C, int64_t ldc);
void SkinnyGemmQuantizedF32(int64_t M, int64_t N, int64_t K, const float* A, int64_t lda,
                            const QuantizedMatrix& B, int64_t col0, float* C, int64_t ldc);
void SkinnyGemm4BitRowsF32(int64_t M, int64_t N, const float* A, int64_t lda,
                           const Blocked4BitRows& W, int64_t row0, float* C, int64_t ldc);
void LstmStepF32(int64_t H, const float* packed_r, const LstmStepRows& rows, int64_t block0,
                 int64_t block1);

void BinaryF32(BinaryOp op, Operands form, const float* a, const float* b, float* out, int64_t n);
void UnaryF32(UnaryOp op, const float* x, float* y, int64_t n, float p0, float p1);
void ScaleShiftF32(const float* x, float scale, float shift, float* y, int64_t n);

void RowSumsF32(const float* x, int64_t rows, int64_t n, double* sums);
void SoftmaxRowsF32(const float* x, float* y, int64_t rows, int64_t n, bool log);
void LayerNormRowsF32(const float* x, const float* scale, const float* bias, float* y, int64_t rows,
                      int64_t n, float epsilon, float* mean, float* inv_std_dev);

void QuantizationRangeF32(const float* x, int64_t n, float* min, float* max);
void QuantizeU8F32(const float* x, int64_t n, float scale, float zero_point, uint8_t* y);
#if defined(__AVX2__)
// C = A * B (row-major with leading dimensions, no transposes), each row finished by *e when given;
// false (nothing done) when K is 0. AVX-512: unpacked_gemm.cc; AVX2: unpacked_gemm_avx2.cc.
bool UnpackedGemmF32(int64_t M, int64_t N, int64_t K, const float* A, int64_t lda, const float* B,
                     int64_t ldb, float* C, int64_t ldc, const RowEpilogue* e = nullptr);
void GemmEpilogueF32(int64_t M, int64_t N, int64_t K, const float* A, int64_t lda, const float* B,
                     int64_t ldb, float* C, int64_t ldc, const RowEpilogue& e);
void ConvGemmF32(int64_t M, const float* A, int64_t lda, const ConvColumns& cols, int64_t o0,
                 int64_t o1, float* C, int64_t ldc, const RowEpilogue* e);
// B copied into strips once (weights), then products from the copy (packed_b.h).
#if defined(__AVX512F__)
inline constexpr int64_t kGemmBStrip = 64;
#else
inline constexpr int64_t kGemmBStrip = 16;
#endif
bool PackGemmBF32(int64_t K, int64_t N, const float* B, int64_t ldb, float* packed);
bool PackedGemmF32(int64_t M, int64_t N, int64_t K, const float* A, int64_t lda,
                   const float* packed_b, int64_t K_packed, float* C, int64_t ldc,
                   const RowEpilogue* e);
// AVX-512 (VNNI): int8_gemm.cc; AVX2: int8_gemm_avx2.cc.
void Gemm8BitS32(int64_t M, int64_t N, int64_t K, const Int8Operand& A, const Int8Operand& B,
                 int64_t ldb, int32_t* C, int64_t ldc);
// conv_few_channels.cc.
void ConvFewChannelsF32(const float* x, int64_t channels, const Window2d& win, const float* w,
                        int64_t M, const RowEpilogue& e, int64_t oh0, int64_t oh1, float* y);
// winograd_conv.cc.
void Winograd3x3F32(const float* x, int64_t channels, const Window2d& win, const float* u,
                    int64_t M, const RowEpilogue* e, int64_t t0, int64_t t1, int64_t m0, int64_t m1,
                    float* y);
// depthwise_blocked.cc.
void DepthwiseConv2dBlockF32(const float* x, int64_t in_plane, const float* w, const RowEpilogue& e,
                             int64_t channels, const Window2d& win, int64_t oh0, int64_t oh1,
                             float* y, int64_t out_plane, const PointwiseSource* source);
#if defined(__AVX512F__)
inline constexpr int64_t kDepthwiseBlockChannels = 16;
#else
inline constexpr int64_t kDepthwiseBlockChannels = 8;
#endif
#endif

void DepthwiseConv2dF32(const float* x, const float* w, float bias, const Window2d& win, float* y);
void GatherStridedF32(const float* src, int64_t stride, int64_t n, float* dst);
void GatherStridedU8(const uint8_t* src, int64_t stride, int64_t n, uint8_t* dst);
void MaxPool2dF32(const float* x, const Window2d& win, float* y);
void AveragePool2dF32(const float* x, const Window2d& win, bool count_include_pad, float* y);

}  // namespace onnx_opt::interpreter::ONNX_OPT_SIMD_NS

#endif  // ONNX_OPT_INTERPRETER_CPU_SIMD_SIMD_H_
