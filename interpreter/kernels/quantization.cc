// Quantization: QuantizeLinear / DequantizeLinear (per-tensor, per-axis and blocked; int8/uint8,
// int16/uint16, int4/uint4, int2/uint2 and float8 with saturate), DynamicQuantizeLinear,
// QLinearMatMul, QLinearConv.
#include <algorithm>
#include <cmath>
#include <type_traits>
#include <vector>

#include "interpreter/cpu/vector_kernels.h"
#include "interpreter/kernels/batched_matmul.h"
#include "interpreter/kernels/common.h"
#include "ir/numeric/float16.h"

namespace onnx_opt::interpreter {
namespace {

using absl::OkStatus;
using absl::Status;
using absl::StatusOr;

// Offsets of the scale element for each element of x: per-tensor, per-axis or blocked.
// The zero point is read at the scale's offsets: it must have the scale's shape (a smaller one was
// read past its end). A one-element pair may differ in rank ([] and [1]).
Status CheckZeroPointFitsScale(const KernelContext& ctx, const Tensor& zp, const Tensor& scale) {
  if (!zp.is_defined() || zp.dims() == scale.dims() || (zp.size() == 1 && scale.size() == 1))
    return OkStatus();
  return ctx.Error(absl::StrCat("zero point of shape ", DimsToString(zp.dims()),
                                " does not match scale of shape ", DimsToString(scale.dims())));
}

// With `check_only`, only the checks (an empty vector when they pass).
StatusOr<std::vector<int64_t>> ScaleIndex(const KernelContext& ctx, const Tensor& x,
                                          const Tensor& scale, bool check_only = false) {
  std::vector<int64_t> out(check_only ? 0 : x.size(), 0);
  if (scale.size() == 1 && scale.rank() <= 1) return out;
  ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(ctx.GetInt("axis", 1), x.rank()));
  const int64_t block = ctx.GetInt("block_size", 0);
  if (scale.rank() == 1 && block == 0) {
    if (scale.dim(0) != x.dim(axis)) return ctx.Error("scale length does not match the axis");
    if (check_only) return out;
    const int64_t inner = DimProduct(x.dims(), axis + 1, x.rank());
    for (int64_t i = 0; i < x.size(); ++i) out[i] = (i / inner) % x.dim(axis);
    return out;
  }
  if (scale.rank() != x.rank() || block <= 0) return ctx.Error("unsupported scale shape");
  // Blocked: the scale has x's dims but ceil(x / block_size) on the axis; any smaller one was read
  // past its end.
  for (int64_t d = 0; d < x.rank(); ++d) {
    const int64_t want = d == axis ? (x.dim(d) == 0 ? 0 : (x.dim(d) - 1) / block + 1) : x.dim(d);
    if (scale.dim(d) != want) {
      return ctx.Error(absl::StrCat("y_scale has shape ", DimsToString(scale.dims()),
                                    "; x of shape ", DimsToString(x.dims()), " with block_size ",
                                    block, " on axis ", axis, " needs dim ", want, " on axis ", d));
    }
  }
  if (check_only) return out;
  const std::vector<int64_t> xs = Strides(x.dims()), ss = Strides(scale.dims());
  for (int64_t i = 0; i < x.size(); ++i) {
    int64_t rem = i, off = 0;
    for (int64_t d = 0; d < x.rank(); ++d) {
      int64_t c = rem / xs[d];
      rem %= xs[d];
      if (d == axis) c /= block;
      off += c * ss[d];
    }
    out[i] = off;
  }
  return out;
}

std::pair<double, double> IntRange(DataType t) {
  switch (t) {
    case DataType::kUint8:
      return {0, 255};
    case DataType::kInt8:
      return {-128, 127};
    case DataType::kUint16:
      return {0, 65535};
    case DataType::kInt16:
      return {-32768, 32767};
    case DataType::kUint4:
      return {0, 15};
    case DataType::kInt4:
      return {-8, 7};
    case DataType::kUint2:
      return {0, 3};
    case DataType::kInt2:
      return {-2, 1};
    case DataType::kInt32:
      return {-2147483648.0, 2147483647.0};
    default:
      return {0, 0};
  }
}

Status QuantizeKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x0, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(const Tensor* s0, ctx.TensorInput(1));
  ASSIGN_OR_RETURN(Tensor x, CastTensor(*x0, DataType::kDouble));
  ASSIGN_OR_RETURN(Tensor scale, CastTensor(*s0, DataType::kDouble));
  DataType out_type = DataType::kUint8;
  Tensor zp;
  if (ctx.has_input(2)) {
    out_type = ctx.input(2).dtype();
    ASSIGN_OR_RETURN(zp, CastTensor(ctx.input(2), DataType::kDouble));
  }
  if (const int64_t od = ctx.GetInt("output_dtype", 0)) out_type = static_cast<DataType>(od);
  const bool saturate = ctx.GetInt("saturate", 1) != 0;
  RETURN_IF_ERROR(CheckZeroPointFitsScale(ctx, zp, scale));
  ASSIGN_OR_RETURN(std::vector<int64_t> si, ScaleIndex(ctx, x, scale));
  Tensor q(DataType::kDouble, x.dims());
  double* pq = q.mutable_data<double>();
  const bool is_float = ir::IsFloatingPoint(out_type);
  const auto [lo, hi] = IntRange(out_type);
  for (int64_t i = 0; i < x.size(); ++i) {
    const double z = zp.is_defined() ? zp.data<double>()[si[i]] : 0;
    double v = x.data<double>()[i] / scale.data<double>()[si[i]];
    if (x0->dtype() != DataType::kDouble) {  // float32 division, as the reference computes it
      v = static_cast<float>(x.data<double>()[i]) / static_cast<float>(scale.data<double>()[si[i]]);
    }
    if (is_float) {
      pq[i] = v + z;
    } else {
      pq[i] = std::clamp(std::nearbyint(v) + z, lo, hi);
    }
  }
  ASSIGN_OR_RETURN(Tensor out, CastTensor(q, out_type, saturate));
  ctx.set_output(0, std::move(out));
  return OkStatus();
}

// float32 (float16) output from 8-bit or narrower integers with float32 (float16) scales: quantized
// weights, computed in float without widening x, the scale index or y to double (which took ~28
// bytes per element). The same bits as the general path: (x - z) is a small integer, so its
// product with the scale is exact in float for a float16 scale (at most 9 + 11 significant bits)
// and rounds once for a float32 one, either way.
bool DequantizesInFloat(const KernelContext& ctx, const Tensor& x, const Tensor& scale) {
  const DataType t = x.dtype();
  const bool narrow = t == DataType::kInt8 || t == DataType::kUint8 || t == DataType::kInt4 ||
                      t == DataType::kUint4;
  const DataType st = scale.dtype();
  const int64_t od = ctx.GetInt("output_dtype", 0);
  return narrow && (st == DataType::kFloat || st == DataType::kFloat16) &&
         (od == 0 || od == static_cast<int64_t>(st)) &&
         (!ctx.has_input(2) || ctx.input(2).dtype() == t);
}

template <typename Out>
Status DequantizeInFloatTo(KernelContext& ctx, const Tensor& x, const Tensor& scale) {
  const Tensor& zp = ctx.has_input(2) ? ctx.input(2) : Tensor();
  RETURN_IF_ERROR(CheckZeroPointFitsScale(ctx, zp, scale));
  const bool is_signed = x.dtype() == DataType::kInt8 || x.dtype() == DataType::kInt4;
  // Sub-byte elements are stored a byte each, sign-extended (interpreter/tensor.h).
  auto value = [is_signed](const Tensor& t, int64_t i) -> int32_t {
    return is_signed ? t.data<int8_t>()[i] : t.data<uint8_t>()[i];
  };
  constexpr bool kHalf = std::is_same_v<Out, uint16_t>;
  Tensor y = Tensor::Uninitialized(kHalf ? DataType::kFloat16 : DataType::kFloat, x.dims());
  Out* py = y.mutable_data<Out>();
  // float16 scales widened once (they are a block's or a channel's, few beside x).
  std::vector<float> widened;
  const float* ps;
  if constexpr (kHalf) {
    widened.resize(scale.size());
    for (int64_t i = 0; i < scale.size(); ++i)
      widened[i] = ir::HalfToFloat(scale.data<uint16_t>()[i]);
    ps = widened.data();
  } else {
    ps = scale.data<float>();
  }
  auto store = [](float v) -> Out {
    if constexpr (kHalf) {
      return ir::FloatToHalf(v);
    } else {
      return v;
    }
  };
  const bool has_zp = zp.is_defined();
  if (scale.size() == 1 && scale.rank() <= 1) {
    const int32_t z = has_zp ? value(zp, 0) : 0;
    for (int64_t i = 0; i < x.size(); ++i)
      py[i] = store(static_cast<float>(value(x, i) - z) * ps[0]);
  } else {
    // Per axis or blocked: x as [outer, n, inner] around the axis; the scale as [outer, n / block,
    // inner] (per axis: [n], block 1, outer ignored). ScaleIndex's checks first, on a one-row
    // probe.
    ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(ctx.GetInt("axis", 1), x.rank()));
    const int64_t block = ctx.GetInt("block_size", 0);
    RETURN_IF_ERROR(ScaleIndex(ctx, x, scale, /*check_only=*/true).status());
    const int64_t n = x.dim(axis), inner = DimProduct(x.dims(), axis + 1, x.rank());
    const int64_t outer = n * inner == 0 ? 0 : x.size() / (n * inner);
    const bool per_axis = scale.rank() == 1 && block == 0;
    const int64_t step = per_axis ? 1 : block, blocks = per_axis ? n : scale.dim(axis);
    for (int64_t o = 0; o < outer; ++o) {
      for (int64_t a = 0; a < n; ++a) {
        const int64_t srow = per_axis ? a : (o * blocks + a / step) * inner;
        const int64_t xrow = (o * n + a) * inner;
        for (int64_t k = 0; k < inner; ++k) {
          const int64_t si = per_axis ? srow : srow + k;
          const int32_t z = has_zp ? value(zp, si) : 0;
          py[xrow + k] = store(static_cast<float>(value(x, xrow + k) - z) * ps[si]);
        }
      }
    }
  }
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

Status DequantizeInFloat(KernelContext& ctx, const Tensor& x, const Tensor& scale) {
  if (scale.dtype() == DataType::kFloat16) return DequantizeInFloatTo<uint16_t>(ctx, x, scale);
  return DequantizeInFloatTo<float>(ctx, x, scale);
}

Status DequantizeKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x0, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(const Tensor* s0, ctx.TensorInput(1));
  if (DequantizesInFloat(ctx, *x0, *s0)) return DequantizeInFloat(ctx, *x0, *s0);
  ASSIGN_OR_RETURN(Tensor x, CastTensor(*x0, DataType::kDouble));
  ASSIGN_OR_RETURN(Tensor scale, CastTensor(*s0, DataType::kDouble));
  Tensor zp;
  if (ctx.has_input(2)) {
    ASSIGN_OR_RETURN(zp, CastTensor(ctx.input(2), DataType::kDouble));
  }
  RETURN_IF_ERROR(CheckZeroPointFitsScale(ctx, zp, scale));
  ASSIGN_OR_RETURN(std::vector<int64_t> si, ScaleIndex(ctx, x, scale));
  Tensor y(DataType::kDouble, x.dims());
  for (int64_t i = 0; i < x.size(); ++i) {
    const double z = zp.is_defined() ? zp.data<double>()[si[i]] : 0;
    y.mutable_data<double>()[i] = (x.data<double>()[i] - z) * scale.data<double>()[si[i]];
  }
  DataType out_type = s0->dtype();
  if (const int64_t od = ctx.GetInt("output_dtype", 0)) out_type = static_cast<DataType>(od);
  ASSIGN_OR_RETURN(Tensor out, CastTensor(y, out_type));
  ctx.set_output(0, std::move(out));
  return OkStatus();
}

// The spec's formulas, every step in float32 as ONNX's function body and onnxruntime compute them
// (in double, (x_max - x_min) / 255 rounds differently for about a quarter of all ranges, which
// moves the zero point or single elements by one step):
//   x_min = min(0, min(x)), x_max = max(0, max(x)), y_scale = (x_max - x_min) / (qmax - qmin),
//   y_zero_point = round(saturate(qmin - x_min / y_scale)), y = saturate(round(x / y_scale) +
//   y_zero_point),
// rounding half to even. An all-zero x would give 0 / 0; y_scale is then 1 (y and y_zero_point 0),
// as in onnxruntime and ONNX's reference implementation.
Status DynamicQuantizeKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x0, ctx.TensorInput(0));
  Tensor xf;
  if (x0->dtype() != DataType::kFloat) {
    ASSIGN_OR_RETURN(xf, CastTensor(*x0, DataType::kFloat));
  }
  const Tensor& x = x0->dtype() == DataType::kFloat ? *x0 : xf;
  const float* px = x.data<float>();
  constexpr float kQmin = 0.0f, kQmax = 255.0f;
  // NaN maps to qmin instead of reaching a float -> uint8 conversion.
  const auto saturate = [](float v) { return v >= kQmax ? kQmax : (v > kQmin ? v : kQmin); };
  // Both passes on the threads: the range of each fixed chunk, then the smallest and largest of
  // those (exact in any order), then the values quantized elementwise.
  constexpr int64_t kRangeChunk = int64_t{1} << 15;
  const VectorKernels& vec = Vec();
  const int64_t n = x.size(), chunks = CeilDiv(n, kRangeChunk);
  std::vector<float> chunk_min(static_cast<size_t>(chunks)), chunk_max(static_cast<size_t>(chunks));
  ParallelItems(chunks, kRangeChunk, [&](int64_t begin, int64_t end) {
    for (int64_t c = begin; c < end; ++c) {
      const int64_t i0 = c * kRangeChunk;
      vec.quantization_range_f32(px + i0, std::min(kRangeChunk, n - i0), &chunk_min[c],
                                 &chunk_max[c]);
    }
  });
  float x_min = 0.0f, x_max = 0.0f;
  for (int64_t c = 0; c < chunks; ++c) {
    x_min = std::min(x_min, chunk_min[c]);
    x_max = std::max(x_max, chunk_max[c]);
  }
  const float scale = x_max == x_min ? 1.0f : (x_max - x_min) / (kQmax - kQmin);
  const float zero_point = std::nearbyint(saturate(kQmin - x_min / scale));
  Tensor y = Tensor::Uninitialized(DataType::kUint8, x.dims());
  uint8_t* py = y.mutable_data<uint8_t>();
  ParallelItems(n, 1, [&](int64_t begin, int64_t end) {
    vec.quantize_u8_f32(px + begin, end - begin, scale, zero_point, py + begin);
  });
  ctx.set_output(0, std::move(y));
  ctx.set_output(1, Tensor::Scalar<float>(DataType::kFloat, scale));
  ctx.set_output(2, Tensor::Scalar<uint8_t>(DataType::kUint8, static_cast<uint8_t>(zero_point)));
  return OkStatus();
}

// Dequantized copy of input i with scale/zero-point inputs si, zi: per tensor, or one per entry of
// axis `axis_hint` (rows of a: -2, columns of b: -1), which a 1-D input does not have.
StatusOr<Tensor> Dequant(const KernelContext& ctx, size_t i, size_t si, size_t zi, int axis_hint) {
  ASSIGN_OR_RETURN(Tensor x, CastTensor(ctx.input(i), DataType::kDouble));
  ASSIGN_OR_RETURN(Tensor s, CastTensor(ctx.input(si), DataType::kDouble));
  ASSIGN_OR_RETURN(Tensor z, CastTensor(ctx.input(zi), DataType::kDouble));
  const int64_t ax = x.rank() + axis_hint;
  const int64_t per_axis = ax >= 0 && ax < x.rank() ? x.dim(ax) : 1;
  // Any other count was read past its end.
  if (s.size() < 1 || (s.size() != 1 && s.size() != per_axis) ||
      (z.size() != 1 && z.size() != s.size())) {
    return ctx.Error(
        absl::StrCat("inputs ", si, " and ", zi, " must hold 1 or ", per_axis, " values"));
  }
  double* p = x.mutable_data<double>();
  const int64_t inner = s.size() == 1 ? 1 : DimProduct(x.dims(), ax + 1, x.rank());
  for (int64_t k = 0; k < x.size(); ++k) {
    const int64_t c = s.size() == 1 ? 0 : (k / inner) % per_axis;
    p[k] = (p[k] - z.data<double>()[z.size() == 1 ? 0 : c]) * s.data<double>()[c];
  }
  return x;
}

// y = quantize(dequantize(a) @ dequantize(b)), numpy.matmul semantics (1-D operands, broadcast
// batch dims); the output scale and zero point are per tensor or per column.
Status QLinearMatMulKernel(KernelContext& ctx) {
  for (size_t i = 0; i < 8; ++i) {
    if (!ctx.has_input(i)) return ctx.Error("QLinearMatMul needs 8 inputs");
  }
  ASSIGN_OR_RETURN(Tensor a, Dequant(ctx, 0, 1, 2, -2));
  ASSIGN_OR_RETURN(Tensor b, Dequant(ctx, 3, 4, 5, -1));
  absl::StatusOr<Tensor> product = BatchedMatMul(a, b);
  if (!product.ok()) return ctx.Error(std::string(product.status().message()));
  Tensor& y = *product;
  const int64_t N = b.rank() == 1 ? 1 : b.dim(b.rank() - 1);
  ASSIGN_OR_RETURN(Tensor s, CastTensor(ctx.input(6), DataType::kDouble));
  ASSIGN_OR_RETURN(Tensor z, CastTensor(ctx.input(7), DataType::kDouble));
  const auto [lo, hi] = IntRange(ctx.input(7).dtype());
  if (s.size() < 1 || (s.size() != 1 && s.size() != N) || (z.size() != 1 && z.size() != s.size())) {
    return ctx.Error(absl::StrCat("y_scale and y_zero_point must hold 1 or ", N, " values"));
  }
  double* py = y.mutable_data<double>();
  for (int64_t k = 0; k < y.size(); ++k) {
    const int64_t c = s.size() == 1 ? 0 : k % N;
    py[k] = std::clamp(
        std::nearbyint(py[k] / s.data<double>()[c]) + z.data<double>()[z.size() == 1 ? 0 : c], lo,
        hi);
  }
  ASSIGN_OR_RETURN(Tensor out, CastTensor(y, ctx.input(7).dtype()));
  ctx.set_output(0, std::move(out));
  return OkStatus();
}

}  // namespace

void RegisterQuantizationKernels(KernelRegistry& r) {
  r.Register("", "QuantizeLinear", 10, QuantizeKernel);
  r.Register("", "DequantizeLinear", 10, DequantizeKernel);
  r.Register("", "DynamicQuantizeLinear", 11, DynamicQuantizeKernel);
  r.Register("", "QLinearMatMul", 10, QLinearMatMulKernel);
}

}  // namespace onnx_opt::interpreter
