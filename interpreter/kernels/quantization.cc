// Quantization: QuantizeLinear / DequantizeLinear (per-tensor, per-axis and blocked; int8/uint8,
// int16/uint16, int4/uint4, int2/uint2 and float8 with saturate), DynamicQuantizeLinear,
// QLinearMatMul, QLinearConv.
#include <algorithm>
#include <cmath>

#include "interpreter/cpu/vector_kernels.h"
#include "interpreter/kernels/common.h"

namespace onnx_opt::interpreter {
namespace {

using absl::OkStatus;
using absl::Status;
using absl::StatusOr;

// Offsets of the scale element for each element of x: per-tensor, per-axis or blocked.
StatusOr<std::vector<int64_t>> ScaleIndex(const KernelContext& ctx, const Tensor& x, const Tensor& scale) {
  std::vector<int64_t> out(x.size(), 0);
  if (scale.size() == 1 && scale.rank() <= 1) return out;
  ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(ctx.GetInt("axis", 1), x.rank()));
  const int64_t block = ctx.GetInt("block_size", 0);
  if (scale.rank() == 1 && block == 0) {
    if (scale.dim(0) != x.dim(axis)) return ctx.Error("scale length does not match the axis");
    const int64_t inner = DimProduct(x.dims(), axis + 1, x.rank());
    for (int64_t i = 0; i < x.size(); ++i) out[i] = (i / inner) % x.dim(axis);
    return out;
  }
  if (scale.rank() != x.rank() || block <= 0) return ctx.Error("unsupported scale shape");
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
    case DataType::kUint8: return {0, 255};
    case DataType::kInt8: return {-128, 127};
    case DataType::kUint16: return {0, 65535};
    case DataType::kInt16: return {-32768, 32767};
    case DataType::kUint4: return {0, 15};
    case DataType::kInt4: return {-8, 7};
    case DataType::kUint2: return {0, 3};
    case DataType::kInt2: return {-2, 1};
    case DataType::kInt32: return {-2147483648.0, 2147483647.0};
    default: return {0, 0};
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

Status DequantizeKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x0, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(const Tensor* s0, ctx.TensorInput(1));
  ASSIGN_OR_RETURN(Tensor x, CastTensor(*x0, DataType::kDouble));
  ASSIGN_OR_RETURN(Tensor scale, CastTensor(*s0, DataType::kDouble));
  Tensor zp;
  if (ctx.has_input(2)) {
    ASSIGN_OR_RETURN(zp, CastTensor(ctx.input(2), DataType::kDouble));
  }
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
// (in double, (x_max - x_min) / 255 rounds differently for about a quarter of all ranges, which moves
// the zero point or single elements by one step):
//   x_min = min(0, min(x)), x_max = max(0, max(x)), y_scale = (x_max - x_min) / (qmax - qmin),
//   y_zero_point = round(saturate(qmin - x_min / y_scale)), y = saturate(round(x / y_scale) + y_zero_point),
// rounding half to even. An all-zero x would give 0 / 0; y_scale is then 1 (y and y_zero_point 0), as in
// onnxruntime and ONNX's reference implementation.
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
  float x_min = 0.0f, x_max = 0.0f;
  Vec().quantization_range_f32(px, x.size(), &x_min, &x_max);
  const float scale = x_max == x_min ? 1.0f : (x_max - x_min) / (kQmax - kQmin);
  const float zero_point = std::nearbyint(saturate(kQmin - x_min / scale));
  Tensor y = Tensor::Uninitialized(DataType::kUint8, x.dims());
  Vec().quantize_u8_f32(px, x.size(), scale, zero_point, y.mutable_data<uint8_t>());
  ctx.set_output(0, std::move(y));
  ctx.set_output(1, Tensor::Scalar<float>(DataType::kFloat, scale));
  ctx.set_output(2, Tensor::Scalar<uint8_t>(DataType::kUint8, static_cast<uint8_t>(zero_point)));
  return OkStatus();
}

// Dequantized copy of input i with scale/zero-point inputs si, zi (per-tensor or per-row/col).
StatusOr<Tensor> Dequant(const KernelContext& ctx, size_t i, size_t si, size_t zi, int axis_hint) {
  ASSIGN_OR_RETURN(Tensor x, CastTensor(ctx.input(i), DataType::kDouble));
  ASSIGN_OR_RETURN(Tensor s, CastTensor(ctx.input(si), DataType::kDouble));
  ASSIGN_OR_RETURN(Tensor z, CastTensor(ctx.input(zi), DataType::kDouble));
  double* p = x.mutable_data<double>();
  const int64_t ax = axis_hint < 0 ? x.rank() + axis_hint : axis_hint;
  const int64_t inner = DimProduct(x.dims(), ax + 1, x.rank());
  for (int64_t k = 0; k < x.size(); ++k) {
    const int64_t c = s.size() == 1 ? 0 : (k / inner) % x.dim(ax);
    p[k] = (p[k] - z.data<double>()[z.size() == 1 ? 0 : c]) * s.data<double>()[c];
  }
  return x;
}

Status QLinearMatMulKernel(KernelContext& ctx) {
  for (size_t i = 0; i < 8; ++i) {
    if (!ctx.has_input(i)) return ctx.Error("QLinearMatMul needs 8 inputs");
  }
  ASSIGN_OR_RETURN(Tensor a, Dequant(ctx, 0, 1, 2, -2));
  ASSIGN_OR_RETURN(Tensor b, Dequant(ctx, 3, 4, 5, -1));
  // y = a @ b (2-D or batched with equal batch dims)
  const int64_t M = a.dim(a.rank() - 2), K = a.dim(a.rank() - 1), N = b.dim(b.rank() - 1);
  const int64_t batch = a.size() / (M * K);
  std::vector<int64_t> dims = a.dims();
  dims.back() = N;
  Tensor y(DataType::kDouble, dims);
  const int64_t bstride = b.rank() > 2 ? K * N : 0;
  for (int64_t t = 0; t < batch; ++t) {
    for (int64_t i = 0; i < M; ++i) {
      for (int64_t j = 0; j < N; ++j) {
        double acc = 0;
        for (int64_t k = 0; k < K; ++k) acc += a.data<double>()[t * M * K + i * K + k] * b.data<double>()[t * bstride + k * N + j];
        y.mutable_data<double>()[t * M * N + i * N + j] = acc;
      }
    }
  }
  // Output scale/zero point are per-tensor (or per-column).
  ASSIGN_OR_RETURN(Tensor s, CastTensor(ctx.input(6), DataType::kDouble));
  ASSIGN_OR_RETURN(Tensor z, CastTensor(ctx.input(7), DataType::kDouble));
  const auto [lo, hi] = IntRange(ctx.input(7).dtype());
  for (int64_t k = 0; k < y.size(); ++k) {
    const int64_t c = s.size() == 1 ? 0 : k % N;
    y.mutable_data<double>()[k] =
        std::clamp(std::nearbyint(y.data<double>()[k] / s.data<double>()[c]) + z.data<double>()[z.size() == 1 ? 0 : c], lo, hi);
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
