#include "tools/cli/tolerance_flag.h"

#include <cmath>
#include <cstdlib>
#include <optional>

#include "absl/strings/str_cat.h"

DEFINE_string(tolerance, "",
              "RTOL[,ATOL]: float32 tolerance of the comparison of outputs (default 1e-4,1e-5; ATOL defaults to "
              "RTOL/10)");

namespace onnx_opt::cli {

absl::StatusOr<verify::Tolerance> ParseTolerance(const std::string& text) {
  const size_t comma = text.find(',');
  auto parse = [](const std::string& part) -> std::optional<double> {
    char* end = nullptr;
    const double v = std::strtod(part.c_str(), &end);
    if (part.empty() || *end != '\0' || !(v >= 0) || !std::isfinite(v)) return std::nullopt;
    return v;
  };
  std::optional<double> rtol = parse(text.substr(0, comma));
  std::optional<double> atol = comma == std::string::npos ? (rtol ? std::optional<double>(*rtol / 10) : std::nullopt)
                                                          : parse(text.substr(comma + 1));
  if (!rtol || !atol) {
    return absl::InvalidArgumentError(absl::StrCat("expected RTOL[,ATOL] as non-negative numbers, got '", text, "'"));
  }
  return verify::Tolerance{*rtol, *atol};
}

bool ToleranceGiven() { return !gflags::GetCommandLineFlagInfoOrDie("tolerance").is_default; }

absl::Status ApplyToleranceFlag(verify::Tolerances& tolerances) {
  if (!ToleranceGiven()) return absl::OkStatus();
  absl::StatusOr<verify::Tolerance> t = ParseTolerance(FLAGS_tolerance);
  if (!t.ok()) return absl::InvalidArgumentError(absl::StrCat("--tolerance: ", t.status().message()));
  tolerances.float32 = *t;
  return absl::OkStatus();
}

}  // namespace onnx_opt::cli
