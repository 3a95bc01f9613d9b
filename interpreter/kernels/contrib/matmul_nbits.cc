// MatMulNBits (com.microsoft): Y = A @ dequantize(B)^T (+ bias). B holds the [N, K] weight in
// blocks of block_size along K: uint8 [N, k_blocks, block_size * bits / 8], `bits`-bit values
// packed low bits first. The weight at (n, k) is (q - zero_point) * scale with the scale (and zero
// point) of block k / block_size of row n, or of group g_idx[k] when g_idx is given. Zero points
// are uint8 packed the same way ([N, ceil(k_blocks * bits / 8)]) or of A's type ([N, k_blocks]);
// without them 2^(bits - 1). Bits 2, 4 and 8. Computed in float: accuracy_level (how onnxruntime
// may quantize A) is not applied.
//
// Decode steps (M <= kSkinnyMaxRows rows of A) with 4-bit weights, packed or no zero points and
// blocks in order (no g_idx, or one that is k / block_size) read the packed weight in place
// (SkinnyGemm4BitRows: at memory speed, no float copy of the weight); they sum in another order
// than the general path below (dequantize the whole weight, then GEMM), so their results differ
// from it by a few roundings. The rest takes the general path.
#include <algorithm>
#include <string>

#include "interpreter/kernels/common.h"
#include "interpreter/kernels/contrib/contrib.h"
#include "interpreter/kernels/gemm.h"

namespace onnx_opt::interpreter::contrib {
namespace {

using absl::Status;

// The `bits`-bit value at position i of a packed byte stream.
inline int32_t Unpack(const uint8_t* p, int64_t i, int64_t bits) {
  const int64_t bit = i * bits;
  return (p[bit / 8] >> (bit % 8)) & ((1 << bits) - 1);
}

// The general path: the whole weight dequantized to floats ([K, N]), then Y = A * W.
void Dequantized(int64_t K, int64_t N, int64_t bits, int64_t block, int64_t blocks, int64_t blob,
                 const std::vector<int64_t>& group, const Tensor& b, const Tensor& scales,
                 const Tensor* zp_packed, int64_t zp_row, const Tensor& zp_float, const float* a,
                 int64_t M, float* py) {
  std::vector<float> w(K * N);
  const uint8_t* pb = b.data<uint8_t>();
  const float* ps = scales.data<float>();
  const float default_zp = static_cast<float>(1 << (bits - 1));
  for (int64_t n = 0; n < N; ++n) {
    for (int64_t k = 0; k < K; ++k) {
      const int64_t g = group[k];
      const int32_t q = Unpack(pb + (n * blocks + k / block) * blob, k % block, bits);
      float zp = default_zp;
      if (zp_packed != nullptr)
        zp = static_cast<float>(Unpack(zp_packed->data<uint8_t>() + n * zp_row, g, bits));
      if (zp_float.is_defined()) zp = zp_float.data<float>()[n * blocks + g];
      w[k * N + n] = (static_cast<float>(q) - zp) * ps[n * blocks + g];
    }
  }
  Gemm<float>(false, false, M, N, K, 1.0f, a, w.data(), 0.0f, py);
}

Status MatMulNBitsKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(Tensor a, FloatInput(ctx, 0, "A"));
  ASSIGN_OR_RETURN(const Tensor* b, ctx.TensorInput(1));
  ASSIGN_OR_RETURN(Tensor scales, FloatInput(ctx, 2, "scales"));
  const int64_t K = ctx.GetInt("K", 0), N = ctx.GetInt("N", 0), bits = ctx.GetInt("bits", 4);
  const int64_t block = ctx.GetInt("block_size", 0);
  if (bits != 2 && bits != 4 && bits != 8)
    return ctx.Error(absl::StrCat("bits ", bits, " is not supported (2, 4 or 8)"));
  if (K <= 0 || N <= 0 || block < 16 || (block & (block - 1)) != 0) {
    return ctx.Error(absl::StrCat("attributes K (", K, ") and N (", N,
                                  ") must be positive and block_size (", block,
                                  ") a power of two of at least 16"));
  }
  if (ctx.GetInt("weight_prepacked", 0) != 0)
    return ctx.Error("prepacked weights (weight_prepacked) are not supported");
  const int64_t blocks = (K + block - 1) / block, blob = block * bits / 8;
  if (a.rank() == 0 || a.dim(a.rank() - 1) != K) {
    return ctx.Error(
        absl::StrCat("input 'A' must end in K = ", K, ", got ", DimsToString(a.dims())));
  }
  if (b->dtype() != DataType::kUint8 || b->size() != N * blocks * blob) {
    return ctx.Error(absl::StrCat("input 'B' must be uint8 [", N, ",", blocks, ",", blob, "], got ",
                                  b->ShapeString()));
  }
  if (scales.size() != N * blocks) {
    return ctx.Error(absl::StrCat("input 'scales' must have ", N, " x ", blocks, " elements, got ",
                                  DimsToString(scales.dims())));
  }
  // Zero points: packed bytes or floats, one per (n, group).
  const Tensor* zp_packed = nullptr;
  Tensor zp_float;
  int64_t zp_row = 0;
  if (ctx.has_input(3)) {
    ASSIGN_OR_RETURN(const Tensor* zp, ctx.TensorInput(3));
    if (zp->dtype() == DataType::kUint8) {
      zp_row = (blocks * bits + 7) / 8;
      if (zp->size() != N * zp_row) {
        return ctx.Error(absl::StrCat("input 'zero_points' (packed uint8) must have ", N, " x ",
                                      zp_row, " elements, got ", DimsToString(zp->dims())));
      }
      zp_packed = zp;
    } else {
      ASSIGN_OR_RETURN(zp_float, FloatInput(ctx, 3, "zero_points"));
      if (zp_float.size() != N * blocks) {
        return ctx.Error(absl::StrCat("input 'zero_points' must have ", N, " x ", blocks,
                                      " elements, got ", DimsToString(zp_float.dims())));
      }
    }
  }
  std::vector<int64_t> group(K);
  for (int64_t k = 0; k < K; ++k) group[k] = k / block;
  bool blocks_in_order = true;
  if (ctx.has_input(4)) {
    ASSIGN_OR_RETURN(std::vector<int64_t> g, ctx.IntsInput(4));
    if (static_cast<int64_t>(g.size()) != K)
      return ctx.Error(absl::StrCat("input 'g_idx' must have K = ", K, " elements"));
    for (int64_t k = 0; k < K; ++k) {
      if (g[k] < 0 || g[k] >= blocks)
        return ctx.Error(absl::StrCat("input 'g_idx' holds ", g[k], ", outside 0..", blocks - 1));
      blocks_in_order = blocks_in_order && g[k] == group[k];
      group[k] = g[k];
    }
  }
  Tensor bias;
  if (ctx.has_input(5)) {
    ASSIGN_OR_RETURN(bias, FloatInput(ctx, 5, "bias"));
    RETURN_IF_ERROR(ExpectVector(ctx, bias, "bias", N));
  }
  std::vector<int64_t> out_dims = a.dims();
  out_dims.back() = N;
  const int64_t M = a.size() / K;
  Tensor y = Tensor::Uninitialized(DataType::kFloat, out_dims);
  float* py = y.mutable_data<float>();
  if (bits == 4 && blocks_in_order && !zp_float.is_defined() && M >= 1 && M <= kSkinnyMaxRows) {
    const Blocked4BitRows w{b->data<uint8_t>(), blocks, block, scales.data<float>(),
                            zp_packed == nullptr ? nullptr : zp_packed->data<uint8_t>()};
    // The kernel reads whole blocks: A's rows are padded with zeros to blocks * block.
    const int64_t padded = blocks * block;
    std::vector<float> a_padded;
    const float* pa = a.data<float>();
    if (padded != K) {
      a_padded.assign(M * padded, 0.0f);
      for (int64_t m = 0; m < M; ++m)
        std::copy(pa + m * K, pa + (m + 1) * K, &a_padded[m * padded]);
      pa = a_padded.data();
    }
    SkinnyGemm4BitRows(M, N, pa, padded, w, py);
  } else {
    Dequantized(K, N, bits, block, blocks, blob, group, *b, scales, zp_packed, zp_row, zp_float,
                a.data<float>(), M, py);
  }
  if (bias.is_defined()) {
    for (int64_t i = 0; i < M * N; ++i) py[i] += bias.data<float>()[i % N];
  }
  return SetFloatOutput(ctx, 0, std::move(y), ctx.input(0).dtype());
}

}  // namespace

void RegisterMatMulNBitsKernels(KernelRegistry& r) {
  r.Register(kMsDomain, "MatMulNBits", 1, MatMulNBitsKernel);
}

}  // namespace onnx_opt::interpreter::contrib
