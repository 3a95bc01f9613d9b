// Gather(DequantizeLinear(x, scale[, zero point]), indices) on axis 0 of a constant quantized table
// (an embedding quantize-weights wrote): only the rows the indices name are dequantized. Every
// output element is (x - z) * s of its own table element, so gathering the quantized rows with
// their scale and zero-point rows and dequantizing those gives the values of the two nodes run
// apart. The table is never held in float: on a 32000 x 2048 int4 embedding that was 262 MB built
// on every single run (200 ms). Declined (the evaluator runs both nodes) for a Gather on another
// axis, indices out of range (Gather reports them), and blocks along the gathered axis.
#include <cstdint>
#include <cstring>
#include <optional>
#include <vector>

#include "interpreter/kernel.h"
#include "interpreter/kernels/common.h"

namespace onnx_opt::interpreter {
namespace {

// Rows `rows` of `t` (dims [V, ...], one byte or more per element) as a tensor [rows.size(), ...].
Tensor GatherRows(const Tensor& t, const std::vector<int64_t>& rows) {
  std::vector<int64_t> dims(t.dims().begin(), t.dims().end());
  const int64_t inner = DimProduct(dims, 1, static_cast<int64_t>(dims.size()));
  dims[0] = static_cast<int64_t>(rows.size());
  Tensor out = Tensor::Uninitialized(t.dtype(), dims);
  const int64_t bytes = inner * StorageSize(t.dtype());
  const char* from = t.raw();
  char* to = out.mutable_raw();
  for (size_t r = 0; r < rows.size(); ++r)
    if (bytes > 0) std::memcpy(to + r * bytes, from + rows[r] * bytes, bytes);
  return out;
}

// Rows of a packed 4-bit [V, N] weight unpacked to a byte each (sign-extended for int4), as
// Tensor::FromIr holds 4-bit tensors.
Tensor GatherPackedRows(const PackedFourBitWeight& w, const std::vector<int64_t>& rows) {
  Tensor out = Tensor::Uninitialized(w.dtype, {static_cast<int64_t>(rows.size()), w.cols});
  uint8_t* to = out.mutable_data<uint8_t>();
  const bool is_signed = w.dtype == DataType::kInt4;
  for (size_t r = 0; r < rows.size(); ++r) {
    const uint8_t* row = w.data + rows[r] * (w.cols / 2);
    for (int64_t j = 0; j < w.cols; ++j) {
      uint8_t v = (row[j / 2] >> (4 * (j % 2))) & 15;
      if (is_signed && (v & 8)) v |= 0xF0;
      *to++ = v;
    }
  }
  return out;
}

}  // namespace

absl::StatusOr<std::optional<QuantizedGatherInputs>> GatherQuantizedRows(
    const KernelContext& gather_ctx, const KernelContext& dequantize_ctx,
    const PackedFourBitWeight* packed) {
  if (!gather_ctx.has_input(1) || (packed == nullptr && !dequantize_ctx.has_input(0)) ||
      !dequantize_ctx.has_input(1))
    return std::nullopt;
  std::vector<int64_t> x_dims;
  if (packed != nullptr) {
    x_dims = {packed->rows, packed->cols};
  } else {
    x_dims = dequantize_ctx.input(0).dims();
  }
  const int64_t rank = static_cast<int64_t>(x_dims.size());
  const int64_t gather_axis = gather_ctx.GetInt("axis", 0);
  if (rank < 1 || (gather_axis != 0 && gather_axis != -rank)) return std::nullopt;
  const Tensor& indices = gather_ctx.input(1);
  if (indices.dtype() != DataType::kInt64 && indices.dtype() != DataType::kInt32)
    return std::nullopt;
  ASSIGN_OR_RETURN(std::vector<int64_t> rows, gather_ctx.IntsInput(1));
  const int64_t V = x_dims[0];
  for (int64_t& i : rows) {
    if (i < 0) i += V;
    if (i < 0 || i >= V) return std::nullopt;
  }

  // Which scale (and zero point) rows go with the gathered rows: none (one for the whole table, or
  // one per entry of another axis), one per row (per-axis on axis 0), or the rows of a table of
  // blocks along another axis.
  const Tensor& scale = dequantize_ctx.input(1);
  const Tensor* zero = dequantize_ctx.has_input(2) ? &dequantize_ctx.input(2) : nullptr;
  const int64_t block = dequantize_ctx.GetInt("block_size", 0);
  int64_t axis = dequantize_ctx.GetInt("axis", 1);
  if (axis < 0) axis += rank;
  bool gather_scales;
  if (scale.size() == 1 && scale.rank() <= 1) {
    gather_scales = false;
  } else if (block == 0 && scale.rank() == 1 && axis >= 0 && axis < rank &&
             scale.dim(0) == x_dims[axis]) {
    gather_scales = axis == 0;
  } else if (block > 0 && axis > 0 && axis < rank && scale.rank() == rank && scale.dim(0) == V) {
    gather_scales = true;
  } else {
    return std::nullopt;
  }
  if (zero != nullptr && zero->dims() != scale.dims()) return std::nullopt;

  QuantizedGatherInputs out;
  out.x = packed != nullptr ? GatherPackedRows(*packed, rows)
                            : GatherRows(dequantize_ctx.input(0), rows);
  out.scale = gather_scales ? GatherRows(scale, rows) : scale;
  if (zero != nullptr) out.zero = gather_scales ? GatherRows(*zero, rows) : *zero;
  out.output_dims = indices.dims();
  out.output_dims.insert(out.output_dims.end(), x_dims.begin() + 1, x_dims.end());
  return out;
}

}  // namespace onnx_opt::interpreter
