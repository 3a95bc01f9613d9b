#include "ir/text/float_conversions.h"

#include <cmath>
#include <string>

#include "absl/strings/str_cat.h"
#include "ir/numeric/float4.h"
#include "ir/numeric/float8.h"
#include "ir/numeric/narrow_float.h"

namespace onnx_opt::ir::text {

absl::StatusOr<uint32_t> CheckedFloatToNarrowFloat(DataType type, float value) {
  const std::string type_name = DataTypeName(type);
  if (!IsNarrowFloat(type))
    return absl::InvalidArgumentError(absl::StrCat(type_name, " is not a narrow float type"));
  if (std::isnan(value) && !NarrowFloatHasNaN(type)) {
    return absl::InvalidArgumentError(absl::StrCat(type_name, " cannot represent NaN"));
  }
  if (type == DataType::kFloat8E8M0 && !std::isnan(value) &&
      (std::signbit(value) || value == 0.0f)) {
    return absl::InvalidArgumentError(
        absl::StrCat(type_name, " cannot represent zero or negative values (", value, ")"));
  }
  const float max_finite = NarrowFloatMax(type);
  if (!NarrowFloatHasInfinity(type) && std::fabs(value) > max_finite) {  // also infinity
    return absl::InvalidArgumentError(absl::StrCat("value ", value, " is out of range for ",
                                                   type_name, " (largest finite value ", max_finite,
                                                   ")"));
  }
  if (type == DataType::kFloat8E8M0) return FloatToFloat8E8M0(value, false, E8M0Rounding::kNearest);
  // In range: saturation never applies, and e5m2 overflows to infinity.
  return FloatToNarrowFloat(type, value, /*saturate=*/false);
}

}  // namespace onnx_opt::ir::text
