// Quantization: QuantizeLinear, DequantizeLinear, QLinearMatMul.
//
//   opset 13: axis (per-axis quantization; before: a scalar scale only).
//   opset 19: float8 types; QuantizeLinear saturate (only for float8 outputs).
//   opset 21: int16/uint16/int4/uint4, blocked quantization (block_size, default 0: none),
//             QuantizeLinear output_dtype (0: from the zero point, or uint8).
//   opset 23: float4e2m1; QuantizeLinear precision (0: the scale's type); DequantizeLinear
//             output_dtype (0: the scale's type).
//   opset 24/25: float8e8m0 scales; 2-bit types.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "converter/adapter_util.h"
#include "converter/families.h"

namespace onnx_opt::converter {
namespace {

// Before opset 13 the scale (and zero point) must be scalars: axis then has no effect.
absl::Status AxisNeedsScalarScale(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  std::optional<ir::Shape> s = ctx.ShapeOf(n.input(1));
  bool scalar = false;
  if (s.has_value()) {
    scalar = true;
    for (const ir::Dim& d : s->dims()) scalar = scalar && d.is_known() && d.value() == 1;
    scalar = scalar && s->rank() <= 1;
  }
  if (!scalar)
    return ctx.Error(
        "per-axis quantization (a non-scalar scale) has no equivalent before opset 13");
  n.RemoveAttribute("axis");
  return absl::OkStatus();
}

absl::Status QuantizeOutputDtypeDown(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  const int64_t dtype = IntAttr(ctx, "output_dtype", 0);
  n.RemoveAttribute("output_dtype");
  if (dtype == 0 || n.has_input(2) || dtype == static_cast<int64_t>(ir::DataType::kUint8))
    return absl::OkStatus();
  // The output type must come from a zero point: add zeros of that type shaped like the scale.
  std::optional<std::vector<int64_t>> shape = ctx.StaticShape(n.input(1));
  if (!shape.has_value())
    return ctx.Error("output_dtype without a zero point needs the scale's shape to be known");
  int64_t count = 1;
  for (int64_t d : *shape) count *= d;
  ctx.SetInput(2, ctx.AddConstant(TypedTensor(static_cast<ir::DataType>(dtype), *shape,
                                              std::vector<double>(count, 0.0)),
                                  "zero_point"));
  return absl::OkStatus();
}

absl::Status DequantizeOutputDtypeDown(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  const int64_t dtype = IntAttr(ctx, "output_dtype", 0);
  if (dtype != 0) {
    std::optional<ir::DataType> scale = ctx.ElemType(n.input(1));
    if (!scale.has_value() || static_cast<int64_t>(*scale) != dtype) {
      return ctx.Error(
          "output_dtype different from the scale's type has no equivalent before opset 23");
    }
  }
  n.RemoveAttribute("output_dtype");
  return absl::OkStatus();
}

}  // namespace

void RegisterQuantizationAdapters(AdapterRegistry& registry) {
  Registrar r(registry);
  for (const char* op : {"QuantizeLinear", "DequantizeLinear"}) {
    r.Both(op, 10, 13, AdapterKind::kAttribute, "opset 13 added axis for per-axis quantization",
           Nothing(), AxisNeedsScalarScale);
    r.Compatible(op, 23, 24, "float8e8m0 scales added");
    r.Compatible(op, 24, 25, "int2/uint2 added");
  }
  r.Both("QuantizeLinear", 13, 19, AdapterKind::kAttribute,
         "QuantizeLinear-19 added float8 types and saturate (only for float8 outputs)", Nothing(),
         DropAttr("saturate"));
  r.Compatible("DequantizeLinear", 13, 19, "float8 types and float16/bfloat16 scales added");
  r.Both("QuantizeLinear", 19, 21, AdapterKind::kAttribute,
         "QuantizeLinear-21 added 16/4-bit types, block_size and output_dtype", Nothing(),
         Seq({DropAttrIfDefault("block_size"), QuantizeOutputDtypeDown}));
  r.Both("DequantizeLinear", 19, 21, AdapterKind::kAttribute,
         "DequantizeLinear-21 added 16/4-bit types and block_size", Nothing(),
         DropAttrIfDefault("block_size"));
  r.Both("QuantizeLinear", 21, 23, AdapterKind::kAttribute,
         "QuantizeLinear-23 added float4e2m1 and precision", Nothing(),
         DropAttrIfDefault("precision"));
  r.Both("DequantizeLinear", 21, 23, AdapterKind::kAttribute,
         "DequantizeLinear-23 added float4e2m1 and output_dtype", Nothing(),
         DequantizeOutputDtypeDown);
  r.Compatible("QLinearMatMul", 10, 21, "float8 types and float16/bfloat16 scales added");
}

}  // namespace onnx_opt::converter
