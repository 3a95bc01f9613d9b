// The interpreter's vector kernels: plain functions over contiguous float (and double for GEMM)
// buffers, compiled once per instruction set (simd/) and reached through one table per ISA. Kernels
// in kernels/ handle types, shapes, broadcasting and attributes, and call these for the inner
// loops.
#ifndef ONNX_OPT_INTERPRETER_CPU_VECTOR_KERNELS_H_
#define ONNX_OPT_INTERPRETER_CPU_VECTOR_KERNELS_H_

#include <cstdint>

#include "interpreter/cpu/isa.h"

namespace onnx_opt::interpreter {

enum class BinaryOp { kAdd, kSub, kMul, kDiv, kMax, kMin };

// How the two operands of a binary row are read: both n elements, or one of them a single value.
enum class Operands { kVectorVector, kVectorScalar, kScalarVector };

enum class UnaryOp {
  kRelu,
  kClip,         // p0 = min, p1 = max
  kLeakyRelu,    // p0 = alpha
  kHardSigmoid,  // p0 = alpha, p1 = beta
  kHardSwish,
  kSigmoid,
  kTanh,
  kExp,
  kErf,
  kNeg,
  kAbs,
  kSqrt,
  kReciprocal,
};

// A 2-D convolution window over one channel plane (depthwise convolution, pooling).
struct Window2d {
  int64_t in_h, in_w, out_h, out_w;
  int64_t kernel_h, kernel_w;
  int64_t stride_h, stride_w;
  int64_t dilation_h, dilation_w;
  int64_t pad_top, pad_left, pad_bottom, pad_right;
};

// The column matrix of a 2-D convolution (im2col), never stored: row (c * kernel_h + kh) *
// kernel_w + kw, column oh * out_w + ow holds channel c's x[oh * stride_h - pad_top + kh *
// dilation_h][ow * stride_w - pad_left + kw * dilation_w], zero outside the input. Channel c's
// plane (in_h x in_w) starts at x + c * in_h * in_w; pad_bottom and pad_right are not read.
struct ConvColumns {
  const float* x;
  int64_t channels;
  Window2d win;
};

// An operand of the 8-bit integer GEMM: bytes read as int8 or uint8, and its zero points (one per
// row of A / column of B when per_index, else one).
struct Int8Operand {
  const uint8_t* data;
  bool is_signed;
  const int32_t* zero_points;
  bool per_index;
};

// Most rows of A the skinny GEMMs take (decode steps of a language model: a few tokens at a time).
constexpr int64_t kSkinnyMaxRows = 8;

// A K x N matrix of 8-bit integers, or 4-bit ones (a byte each, or packed as ONNX stores them)
// read as DequantizeLinear computes it: w[k][j] = (q[k][j] - z) * s, with s and z at row
// k / block_rows, column j of the scales and zero points ([ceil(K / block_rows), N], row-major;
// block_rows = K for one per column).
struct QuantizedMatrix {
  const uint8_t* data;  // K rows of `ld` bytes
  bool is_signed;       // int8 (and int4) rather than uint8 (uint4)
  int64_t ld;
  int64_t cols;  // N: the row length of scales and zero points
  int64_t block_rows;
  const float* scales;
  const uint8_t* zero_points;  // same signedness as data, a byte each; null: zero
  // 8: a byte per weight. 4: two per byte, column j of a row in byte j / 2, the low nibble first;
  // rows start on a byte (ld bytes apart) and the columns a kernel is asked for start at an even
  // one.
  int bits = 8;
};

// MatMulNBits' 4-bit weight (com.microsoft), one row per output column: row n holds K weights in
// k_blocks blocks of block_size, packed two a byte, the low nibble first ([N, k_blocks, block_size
// / 2] bytes; the last block's padding past K is read but multiplied by zeros, see below). The
// weight at (n, k) is (q - z) * s with s = scales[n * k_blocks + k / block_size] and z the 4-bit
// value at position k / block_size of row n of zero_points (ceil(k_blocks / 2) bytes a row, the low
// nibble first), or 8 when zero_points is null.
struct Blocked4BitRows {
  const uint8_t* data;
  int64_t k_blocks;
  int64_t block_size;  // a power of two, at least 16
  const float* scales;
  const uint8_t* zero_points;
};

// What a convolution's GEMM applies to each row of C (an output channel) as it stores it, in the
// order and roundings of the separate passes it replaces (kernel.h's ChannelEpilogue): the row's
// bias added, then y * scale + shift (one rounding, as scale_shift_f32 on an ISA with FMA), then
// Relu (NaN and -0 to +0) or Clip (v < lo ? lo : v, then > hi ? hi : that). Null pointers skip
// their step.
struct RowEpilogue {
  // The activations unary_f32 has of the same names, with its bits.
  enum class Activation { kNone, kRelu, kClip, kLeakyRelu, kHardSigmoid, kHardSwish };
  const float* bias = nullptr;   // one per row
  const float* scale = nullptr;  // one per row, with shift
  const float* shift = nullptr;
  Activation activation = Activation::kNone;
  float lo = 0, hi = 0;       // Clip's bounds
  float alpha = 0, beta = 0;  // LeakyRelu's alpha; HardSigmoid's alpha and beta
};

// The 1x1 convolution (stride 1, no padding) whose output a depthwise kernel reads in place of x
// (depthwise_conv2d_block_f32): that output is computed band by band into the kernel's scratch and
// never stored whole. Output channel c of the call (its row c) sums x's channels_in planes (of the
// depthwise call's in_plane floats each) times weights[c * channels_in + k], in k order from zero,
// then is finished by `e` (its row c) as the GEMM of the separate convolution finishes it.
struct PointwiseSource {
  const float* x = nullptr;
  int64_t channels_in = 0;
  const float* weights = nullptr;
  RowEpilogue e;
};

// Tiles per call of winograd3x3_f32, and the layout of its filters: U[xi][m][c] (xi = 4a + b, a
// 4 x 4 element of the transformed 3x3 filter G g G^T of output channel m, input channel c; G =
// [1 0 0; 1/2 1/2 1/2; 1/2 -1/2 1/2; 0 0 1]), 16 * M * C floats, each a float sum of the 9 taps
// times their coefficients (by the active ISA's GEMM).
inline constexpr int64_t kWinogradTiles = 64;
int64_t WinogradWeightsSize(int64_t M, int64_t C);
void PackWinogradWeights(const float* w, int64_t M, int64_t C, float* u);

// An LSTM's recurrence weights R (4H x H, gates i, o, f, c as ONNX orders them) reordered for
// lstm_step_f32: hidden units in blocks of kLstmUnitBlock, block p holding, for k = 0..H-1, the 4 x
// kLstmUnitBlock weights R[g * H + p * kLstmUnitBlock + u][k] (gate g, unit u), zero past unit H:
// a step then streams R once, front to back, with each unit's four gate sums side by side.
inline constexpr int64_t kLstmUnitBlock = 16;
int64_t LstmPackedWeightsSize(int64_t H);
void PackLstmWeights(const float* R, int64_t H, float* packed);

// The batch entries one LSTM step updates (lstm_step_f32), `count` of them: entry r reads its
// hidden state h_prev[r] (H values) and projected input xw[r] (4H values, i, o, f, c, biases
// included), updates its cell state c[r] and writes its new hidden state to h_out[r] (H values
// each; h_out must not overlap any entry's h_prev).
struct LstmStepRows {
  int64_t count;
  const float* const* h_prev;
  const float* const* xw;
  float* const* c;
  float* const* h_out;
};

struct VectorKernels {
  Isa isa;

  // C = alpha * op(A) * op(B) + beta * C; row-major, contiguous. A is M x K (K x M when trans_a), B
  // is K x N (N x K when trans_b). beta == 0 ignores C's old contents.
  void (*gemm_f32)(bool trans_a, bool trans_b, int64_t M, int64_t N, int64_t K, float alpha,
                   const float* A, const float* B, float beta, float* C);
  void (*gemm_f64)(bool trans_a, bool trans_b, int64_t M, int64_t N, int64_t K, double alpha,
                   const double* A, const double* B, double beta, double* C);
  // The same on submatrices: consecutive stored rows of A, B and C start lda, ldb and ldc elements
  // apart (at least their stored row length: K or M for A, N or K for B, N for C). With lda, ldb
  // and ldc equal to those lengths the result has the same bits as gemm_f32/gemm_f64.
  void (*gemm_ld_f32)(bool trans_a, bool trans_b, int64_t M, int64_t N, int64_t K, float alpha,
                      const float* A, int64_t lda, const float* B, int64_t ldb, float beta,
                      float* C, int64_t ldc);
  void (*gemm_ld_f64)(bool trans_a, bool trans_b, int64_t M, int64_t N, int64_t K, double alpha,
                      const double* A, int64_t lda, const double* B, int64_t ldb, double beta,
                      double* C, int64_t ldc);
  // C = A * B (no transposes, leading dimensions as gemm_ld_f32, whose bits the product has) with
  // row i of C finished by `e` (its entries at i) while in registers: the output of a convolution
  // is written once instead of written, read and written again. Null where the ISA has no such
  // kernel (AVX-512 and AVX2 have).
  void (*gemm_epilogue_f32)(int64_t M, int64_t N, int64_t K, const float* A, int64_t lda,
                            const float* B, int64_t ldb, float* C, int64_t ldc,
                            const RowEpilogue& e);
  // Columns [o0, o1) of C (M x out_h * out_w, rows ldc apart, C at column 0) = A (M x channels *
  // kernel_h * kernel_w, rows lda apart) * the column matrix `cols`, rows finished by *e when
  // given: the bits of gemm_epilogue_f32 (gemm_ld_f32 without e) on those columns of the stored
  // matrix. The input plane must have fewer than 2^31 elements. Null where the ISA has no such
  // kernel (AVX-512 and AVX2 have).
  void (*conv_gemm_f32)(int64_t M, const float* A, int64_t lda, const ConvColumns& cols, int64_t o0,
                        int64_t o1, float* C, int64_t ldc, const RowEpilogue* e);
  // Output rows [oh0, oh1) of a 2-D convolution of an input with few channels (a stem: `channels`
  // planes of in_h x in_w at x, one group) by M filters (w: M x channels x kernel_h x kernel_w),
  // into M planes of out_h x out_w at y, each channel finished by `e` (its row): what
  // gemm_epilogue_f32 computes over the column matrix, without building it, each output summed in
  // tap order (any split of the rows gives the same bits). Null where the ISA
  // has no such kernel (AVX-512 and AVX2 have).
  void (*conv_few_channels_f32)(const float* x, int64_t channels, const Window2d& win,
                                const float* w, int64_t M, const RowEpilogue& e, int64_t oh0,
                                int64_t oh1, float* y);
  // Output channels [m0, m1) of tiles [t0, t1) (at most kWinogradTiles of them) of a 3x3
  // convolution at stride 1 without dilation, one group, by Winograd's F(2x2, 3x3): tile t covers
  // output rows 2 (t / tiles_w) + {0, 1} and columns 2 (t % tiles_w) + {0, 1}, tiles_w = (out_w +
  // 1) / 2, its parts past the plane dropped. `channels` planes of in_h x in_w at x; u: the M
  // filters as PackWinogradWeights lays them out; Y's M planes of out_h x out_w at y, each channel
  // finished by *e (its row) when given. Sums other than the direct convolution's, rounded on a
  // scale of the tile's whole 4 x 4 input times the filters; a tile's outputs do not depend on the
  // channels a call computes, and given the same tiles [t0, t1), not on anything else. Null where
  // the ISA has no such kernel (AVX-512 and AVX2 have).
  void (*winograd3x3_f32)(const float* x, int64_t channels, const Window2d& win, const float* u,
                          int64_t M, const RowEpilogue* e, int64_t t0, int64_t t1, int64_t m0,
                          int64_t m1, float* y);
  // B (K x N, rows ldb apart) copied for packed_gemm_f32 into strips of gemm_b_strip columns
  // (the last zero-padded), each K x gemm_b_strip contiguous: CeilDiv(N, gemm_b_strip) *
  // gemm_b_strip * K floats at `packed`, 64-byte aligned. False (nothing written) for an N that
  // packed_gemm_f32 declines. Null where the ISA has no such kernel (AVX2 and AVX-512 have).
  int64_t gemm_b_strip;
  bool (*pack_gemm_b_f32)(int64_t K, int64_t N, const float* B, int64_t ldb, float* packed);
  // C = A * B, e as gemm_epilogue_f32, from B packed by pack_gemm_b_f32 over K_packed rows:
  // packed_b names row k0 of the strip holding column j0 (j0 a multiple of gemm_b_strip), and the
  // product takes B's columns j0.. and rows k0..k0 + K. The bits of gemm_ld_f32 / gemm_epilogue_f32
  // on the stored B; false (nothing done) when K is 0 or N's last columns would take another
  // order of sums there (dot products: N % 8 of 1 or 2 on AVX2, N % 16 of 1 to 4 on AVX-512).
  bool (*packed_gemm_f32)(int64_t M, int64_t N, int64_t K, const float* A, int64_t lda,
                          const float* packed_b, int64_t K_packed, float* C, int64_t ldc,
                          const RowEpilogue* e);

  // C (M x N) = A (M x K) * B (K x N, or N x K when trans_b) for 1 <= M <= kSkinnyMaxRows,
  // row-major with leading dimensions; `accumulate` adds the product to C. B is streamed once, and
  // an element of C does not depend on which other columns a call computes, so any split of N gives
  // the same bits.
  void (*skinny_gemm_f32)(bool trans_b, bool accumulate, int64_t M, int64_t N, int64_t K,
                          const float* A, int64_t lda, const float* B, int64_t ldb, float* C,
                          int64_t ldc);
  // The same with columns [col0, col0 + N) of a quantized B, dequantized a few rows at a time in
  // L1: the bits of skinny_gemm_f32 on DequantizeLinear's output.
  void (*skinny_gemm_quantized_f32)(int64_t M, int64_t N, int64_t K, const float* A, int64_t lda,
                                    const QuantizedMatrix& B, int64_t col0, float* C, int64_t ldc);
  // C (M x N) = A * W^T for 1 <= M <= kSkinnyMaxRows and rows [row0, row0 + N) of W (MatMulNBits'
  // weight: a dot product per column of C, W streamed once and never stored as floats). A's rows
  // (lda apart) hold k_blocks * block_size values, zeros past the weight's K. Summed per block,
  // sum((q - z) * a) in the ISA's vector lanes and then times s, the lanes added at the end: not
  // the order of a float GEMM over dequantized weights (so not its bits), but as accurate. A column
  // of C does not depend on the others computed with it.
  void (*skinny_gemm_4bit_rows_f32)(int64_t M, int64_t N, const float* A, int64_t lda,
                                    const Blocked4BitRows& W, int64_t row0, float* C, int64_t ldc);

  // One step of an LSTM with ONNX's default activations and no peepholes, clip or input_forget,
  // for unit blocks [block0, block1) (hidden units block * kLstmUnitBlock.., the last block
  // shorter when H is not a multiple): gates = xw + h_prev * R^T (packed_r from PackLstmWeights),
  // c = sigmoid(f) * c + sigmoid(i) * tanh(c~), h_out = sigmoid(o) * tanh(c). The gates never
  // leave registers; R is read once per step for up to a few entries. A unit's values do not
  // depend on which blocks a call covers, so any split of the blocks gives the same bits.
  void (*lstm_step_f32)(int64_t H, const float* packed_r, const LstmStepRows& rows, int64_t block0,
                        int64_t block1);

  // out[i] = a[i] op b[i] over n elements, one side possibly a scalar (see Operands). out may alias
  // a or b when that side is a vector.
  void (*binary_f32)(BinaryOp op, Operands form, const float* a, const float* b, float* out,
                     int64_t n);
  // y[i] = f(x[i]); y may alias x.
  void (*unary_f32)(UnaryOp op, const float* x, float* y, int64_t n, float p0, float p1);
  // y[i] = x[i] * scale + shift (inference BatchNormalization per channel, bias per channel), one
  // rounding (a fused multiply-add) on ISAs with FMA, two on the baseline; y may alias x.
  void (*scale_shift_f32)(const float* x, float scale, float shift, float* y, int64_t n);

  // sums[r] = the sum of row r's n elements, accumulated in double.
  void (*row_sums_f32)(const float* x, int64_t rows, int64_t n, double* sums);
  // Softmax (or LogSoftmax) of each of `rows` rows of n elements; y may alias x.
  void (*softmax_rows_f32)(const float* x, float* y, int64_t rows, int64_t n, bool log);
  // y = (x - mean) / sqrt(var + epsilon) * scale + bias per row of n elements (statistics summed in
  // double); scale and bias have n elements (bias may be null). mean/inv_std_dev receive one value
  // per row when not null.
  void (*layer_norm_rows_f32)(const float* x, const float* scale, const float* bias, float* y,
                              int64_t rows, int64_t n, float epsilon, float* mean,
                              float* inv_std_dev);

  // DynamicQuantizeLinear's range: *min = min(0, x[0..n)), *max = max(0, x[0..n)), NaN ignored.
  void (*quantization_range_f32)(const float* x, int64_t n, float* min, float* max);
  // y[i] = saturate(round_half_even(x[i] / scale) + zero_point) into [0, 255], NaN to 0, in float
  // as DynamicQuantizeLinear writes it.
  void (*quantize_u8_f32)(const float* x, int64_t n, float scale, float zero_point, uint8_t* y);
  // C (M x N, int32, rows ldc apart) = (A - za) * (B - zb) for A (M x K, contiguous) and B (K x N,
  // rows ldb apart) of 8-bit integers, row-major, za one value per row of A or one for all, zb one
  // per column of B or one for all; exact modulo 2^32 (an int32 accumulator's wrapping). AVX-512
  // VNNI multiplies bytes; AVX2 (and AVX-512 without VNNI) widens them to int16. Null on the
  // baseline: callers keep a portable path.
  void (*gemm_8bit_s32)(int64_t M, int64_t N, int64_t K, const Int8Operand& A, const Int8Operand& B,
                        int64_t ldb, int32_t* C, int64_t ldc);

  // One channel of a depthwise convolution: y = sum over the window of x * w, plus bias (zero
  // padding).
  void (*depthwise_conv2d_f32)(const float* x, const float* w, float bias, const Window2d& win,
                               float* y);
  // Up to depthwise_block_channels channels of a depthwise convolution at once (see
  // simd/depthwise_blocked.cc), output rows [oh0, oh1): channel c's input plane at x + c *
  // in_plane, its weights (kernel_h * kernel_w) at w + c * kernel_h * kernel_w, its output plane at
  // y + c * out_plane. Each output is summed in depthwise_conv2d_f32's order, from e.bias[c] (when
  // given) then the taps, and finished by the rest of `e` (channel c as its row c). With `source`
  // (else null) the input planes are that 1x1 convolution's output channels, computed here, and x
  // is unused. Null, with depthwise_block_channels 0, on the baseline.
  void (*depthwise_conv2d_block_f32)(const float* x, int64_t in_plane, const float* w,
                                     const RowEpilogue& e, int64_t channels, const Window2d& win,
                                     int64_t oh0, int64_t oh1, float* y, int64_t out_plane,
                                     const PointwiseSource* source);
  int64_t depthwise_block_channels;
  // dst[i] = src[i * stride] for i < n (stride >= 1): an im2col row of a strided convolution.
  void (*gather_strided_f32)(const float* src, int64_t stride, int64_t n, float* dst);
  // The same for bytes: an im2col row of a quantized convolution (ConvInteger).
  void (*gather_strided_u8)(const uint8_t* src, int64_t stride, int64_t n, uint8_t* dst);
  // One channel of max / average pooling (average divides by the window cells inside the input, or
  // by the whole kernel when count_include_pad).
  void (*max_pool2d_f32)(const float* x, const Window2d& win, float* y);
  void (*average_pool2d_f32)(const float* x, const Window2d& win, bool count_include_pad, float* y);
};

// The table for ActiveIsa().
const VectorKernels& Vec();
// The table of a given ISA (which must not exceed DetectedIsa()).
const VectorKernels& VecFor(Isa isa);

}  // namespace onnx_opt::interpreter

#endif  // ONNX_OPT_INTERPRETER_CPU_VECTOR_KERNELS_H_
