// GatherBlockQuantized (com.microsoft): Gather of a block-quantized table, dequantized. data is
// int4, uint4 (one value per element), uint8 (bits 2, 4 or 8; values below 8 bits packed along the
// last dim, low bits first, and gather_axis 0) or a float8/float4 type (no zero points; block_size
// 0 = the whole quantize_axis; scale dims of 1 broadcast). scales has data's (unpacked) rank with
// ceil(dim / block_size) along quantize_axis. Output = (q - zero_point) * scale, zero points of
// data's type (packed like it), default 0 for int4/uint4 and 2^(bits - 1) for uint8. An index
// outside
// [-s, s) gives zeros, as documented.
#include <string>

#include "interpreter/kernels/common.h"
#include "interpreter/kernels/contrib/contrib.h"
#include "ir/numeric/narrow_float.h"

namespace onnx_opt::interpreter::contrib {
namespace {

using absl::Status;
using absl::StatusOr;

bool IsFloatQuantized(DataType t) {
  return t == DataType::kFloat8E4M3FN || t == DataType::kFloat8E4M3FNUZ ||
         t == DataType::kFloat8E5M2 || t == DataType::kFloat8E5M2FNUZ || t == DataType::kFloat4E2M1;
}

// The quantized values of `t` as ints in its logical (unpacked) shape `dims`.
std::vector<int32_t> Values(const Tensor& t, int64_t bits, const std::vector<int64_t>& dims) {
  const int64_t n = NumElements(dims);
  std::vector<int32_t> v(n);
  if (t.dtype() == DataType::kInt4) {
    for (int64_t i = 0; i < n; ++i) v[i] = t.data<int8_t>()[i];
  } else if (t.dtype() == DataType::kUint4 || bits == 8) {
    for (int64_t i = 0; i < n; ++i) v[i] = t.data<uint8_t>()[i];
  } else {  // uint8 packed along the last dim
    const int64_t last = dims.back(), per = 8 / bits, bytes = (last + per - 1) / per;
    for (int64_t i = 0; i < n; ++i) {
      const int64_t row = i / last, col = i % last;
      v[i] =
          (t.data<uint8_t>()[row * bytes + col / per] >> ((col % per) * bits)) & ((1 << bits) - 1);
    }
  }
  return v;
}

Status GatherBlockQuantizedKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* data, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(std::vector<int64_t> indices, ctx.IntsInput(1));
  ASSIGN_OR_RETURN(Tensor scales, FloatInput(ctx, 2, "scales"));
  const DataType qt = data->dtype();
  const bool fp = IsFloatQuantized(qt);
  const int64_t bits = qt == DataType::kUint8 ? ctx.GetInt("bits", 4) : (fp ? 0 : 4);
  if (!fp && qt != DataType::kInt4 && qt != DataType::kUint4 && qt != DataType::kUint8) {
    return ctx.Error(
        absl::StrCat("input 'data' must be int4, uint4, uint8 or a float8/float4 type, got ",
                     data->ShapeString()));
  }
  if (qt == DataType::kUint8 && bits != 2 && bits != 4 && bits != 8)
    return ctx.Error(absl::StrCat("bits ", bits, " is not 2, 4 or 8"));
  if (data->rank() == 0) return ctx.Error("input 'data' must have rank 1 or more");
  // Logical shape of data.
  std::vector<int64_t> dims = data->dims();
  if (qt == DataType::kUint8 && bits < 8) dims.back() *= 8 / bits;
  const int64_t r = static_cast<int64_t>(dims.size());
  ASSIGN_OR_RETURN(int64_t gaxis, NormalizeAxis(ctx.GetInt("gather_axis", 0), r));
  ASSIGN_OR_RETURN(int64_t qaxis, NormalizeAxis(ctx.GetInt("quantize_axis", 1), r));
  if (qt == DataType::kUint8 && gaxis != 0)
    return ctx.Error("gather_axis must be 0 for uint8 data");
  int64_t block = ctx.GetInt("block_size", 128);
  if (block == 0 && fp) block = dims[qaxis];
  if (block <= 0)
    return ctx.Error(absl::StrCat("block_size ", block, " must be positive for integer data"));
  // scales: dims of data, ceil(dim / block) along quantize_axis; float data may broadcast dims
  // of 1.
  if (scales.rank() != r)
    return ctx.Error(
        absl::StrCat("input 'scales' must have rank ", r, ", got ", DimsToString(scales.dims())));
  for (int64_t d = 0; d < r; ++d) {
    const int64_t want = d == qaxis ? (dims[d] + block - 1) / block : dims[d];
    if (scales.dim(d) != want && !(fp && d != qaxis && scales.dim(d) == 1)) {
      return ctx.Error(absl::StrCat("input 'scales' has shape ", DimsToString(scales.dims()),
                                    "; dim ", d, " should be ", want));
    }
  }
  std::vector<float> fvalues;
  std::vector<int32_t> q, zp;
  if (fp) {
    Tensor f = WidenToFloat(*data);
    fvalues = f.ToVector<float>();
    if (ctx.has_input(3)) return ctx.Error("float8/float4 data takes no zero points");
  } else {
    q = Values(*data, bits, dims);
    if (ctx.has_input(3)) {
      ASSIGN_OR_RETURN(const Tensor* z, ctx.TensorInput(3));
      std::vector<int64_t> zdims = scales.dims();
      std::vector<int64_t> zstored = zdims;
      if (qt == DataType::kUint8 && bits < 8) zstored.back() = (zstored.back() * bits + 7) / 8;
      if (z->dtype() != qt || z->dims() != zstored) {
        return ctx.Error(absl::StrCat("input 'zero_points' must be ", ir::DataTypeName(qt), " ",
                                      DimsToString(zstored), ", got ", z->ShapeString()));
      }
      if (qt == DataType::kUint8 && bits < 8) {
        const int64_t per = 8 / bits, last = zdims.back(), bytes = zstored.back();
        zp.resize(NumElements(zdims));
        for (size_t i = 0; i < zp.size(); ++i) {
          const int64_t row = i / last, col = i % last;
          zp[i] = (z->data<uint8_t>()[row * bytes + col / per] >> ((col % per) * bits)) &
                  ((1 << bits) - 1);
        }
      } else {
        zp = Values(*z, bits, zdims);
      }
    }
  }
  const int32_t default_zp = qt == DataType::kUint8 ? 1 << (bits - 1) : 0;
  const std::vector<int64_t> data_strides = Strides(dims), scale_strides = Strides(scales.dims());
  const int64_t outer = DimProduct(dims, 0, gaxis), axis_len = dims[gaxis],
                inner = DimProduct(dims, gaxis + 1, r);
  const int64_t count = static_cast<int64_t>(indices.size());
  std::vector<int64_t> out_dims(dims.begin(), dims.begin() + gaxis);
  const std::vector<int64_t>& idims = ctx.input(1).dims();
  out_dims.insert(out_dims.end(), idims.begin(), idims.end());
  out_dims.insert(out_dims.end(), dims.begin() + gaxis + 1, dims.end());
  Tensor y(DataType::kFloat, out_dims);  // zeros where an index is out of range
  float* py = y.mutable_data<float>();
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t j = 0; j < count; ++j) {
      int64_t idx = indices[j];
      if (idx < 0) idx += axis_len;
      if (idx < 0 || idx >= axis_len) continue;
      for (int64_t i = 0; i < inner; ++i) {
        const int64_t lin = (o * axis_len + idx) * inner + i;
        int64_t s_lin = 0, rem = lin;
        for (int64_t d = 0; d < r; ++d) {
          int64_t c = rem / data_strides[d];
          rem %= data_strides[d];
          if (d == qaxis) c /= block;
          if (scales.dim(d) == 1) c = 0;
          s_lin += c * scale_strides[d];
        }
        const float scale = scales.data<float>()[s_lin];
        float v;
        if (fp) {
          v = fvalues[lin] * scale;
        } else {
          const int32_t z = zp.empty() ? default_zp : zp[s_lin];
          v = static_cast<float>(q[lin] - z) * scale;
        }
        py[(o * count + j) * inner + i] = v;
      }
    }
  }
  return SetFloatOutput(ctx, 0, std::move(y), ctx.input(2).dtype());
}

}  // namespace

void RegisterGatherBlockQuantizedKernels(KernelRegistry& r) {
  r.Register(kMsDomain, "GatherBlockQuantized", 1, GatherBlockQuantizedKernel);
}

}  // namespace onnx_opt::interpreter::contrib
