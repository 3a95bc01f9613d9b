// This ISA's table of vector kernels (the name of the ISA comes from the build: isa_library).
#include "interpreter/cpu/simd/simd.h"

namespace onnx_opt::interpreter::ONNX_OPT_SIMD_NS {

const VectorKernels& Table() {
  static constexpr VectorKernels kTable {
    .isa = ONNX_OPT_SIMD_ISA, .gemm_f32 = GemmF32, .gemm_f64 = GemmF64, .gemm_ld_f32 = GemmLdF32,
    .gemm_ld_f64 = GemmLdF64,
#if defined(__AVX2__)
    .gemm_epilogue_f32 = GemmEpilogueF32, .conv_gemm_f32 = ConvGemmF32,
    .conv_few_channels_f32 = ConvFewChannelsF32, .winograd3x3_f32 = Winograd3x3F32,
#else
    .gemm_epilogue_f32 = nullptr, .conv_gemm_f32 = nullptr, .conv_few_channels_f32 = nullptr,
    .winograd3x3_f32 = nullptr,
#endif
#if defined(__AVX2__)
    .gemm_b_strip = kGemmBStrip, .pack_gemm_b_f32 = PackGemmBF32, .packed_gemm_f32 = PackedGemmF32,
#else
    .gemm_b_strip = 0, .pack_gemm_b_f32 = nullptr, .packed_gemm_f32 = nullptr,
#endif
    .skinny_gemm_f32 = SkinnyGemmF32, .skinny_gemm_quantized_f32 = SkinnyGemmQuantizedF32,
    .skinny_gemm_4bit_rows_f32 = SkinnyGemm4BitRowsF32, .lstm_step_f32 = LstmStepF32,
    .binary_f32 = BinaryF32, .unary_f32 = UnaryF32, .scale_shift_f32 = ScaleShiftF32,
    .row_sums_f32 = RowSumsF32, .softmax_rows_f32 = SoftmaxRowsF32,
    .layer_norm_rows_f32 = LayerNormRowsF32, .quantization_range_f32 = QuantizationRangeF32,
    .quantize_u8_f32 = QuantizeU8F32,
#if defined(__AVX2__)
    .gemm_8bit_s32 = Gemm8BitS32,  // AVX-512's is replaced by VecFor when the CPU lacks VNNI
#else
    .gemm_8bit_s32 = nullptr,
#endif
        .depthwise_conv2d_f32 = DepthwiseConv2dF32,
#if defined(__AVX2__)
    .depthwise_conv2d_block_f32 = DepthwiseConv2dBlockF32,
    .depthwise_block_channels = kDepthwiseBlockChannels,
#else
    .depthwise_conv2d_block_f32 = nullptr, .depthwise_block_channels = 0,
#endif
    .gather_strided_f32 = GatherStridedF32, .gather_strided_u8 = GatherStridedU8,
    .max_pool2d_f32 = MaxPool2dF32, .average_pool2d_f32 = AveragePool2dF32,
  };
  return kTable;
}

}  // namespace onnx_opt::interpreter::ONNX_OPT_SIMD_NS
