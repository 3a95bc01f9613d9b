#include "tools/cli/tolerance_flag.h"

#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

DEFINE_string(tolerance, "",
              "RTOL[,ATOL]: float32 tolerance of the comparison of outputs (default 1e-4,1e-5; "
              "ATOL defaults to "
              "RTOL/10)");

DEFINE_string(
    lossy_tolerance, "",
    "REL_L2[,MIN_COSINE[,MAX_ABS]]: judge float outputs as a whole, by their relative L2 error, "
    "cosine "
    "similarity and max abs error (default for lossy passes: float16-weights 1e-2,0.9999)");

namespace onnx_opt::cli {
namespace {

std::optional<double> ParseNumber(const std::string& part) {
  char* end = nullptr;
  const double v = std::strtod(part.c_str(), &end);
  if (part.empty() || *end != '\0' || !(v >= 0)) return std::nullopt;
  return v;
}

}  // namespace

absl::StatusOr<equivalence::Tolerance> ParseTolerance(const std::string& text) {
  const size_t comma = text.find(',');
  auto parse = [](const std::string& part) -> std::optional<double> {
    std::optional<double> v = ParseNumber(part);
    return v && std::isfinite(*v) ? v : std::nullopt;
  };
  std::optional<double> rtol = parse(text.substr(0, comma));
  std::optional<double> atol = comma == std::string::npos
                                   ? (rtol ? std::optional<double>(*rtol / 10) : std::nullopt)
                                   : parse(text.substr(comma + 1));
  if (!rtol || !atol) {
    return absl::InvalidArgumentError(
        absl::StrCat("expected RTOL[,ATOL] as non-negative numbers, got '", text, "'"));
  }
  return equivalence::Tolerance{*rtol, *atol};
}

absl::StatusOr<equivalence::LossyTolerance> ParseLossyTolerance(const std::string& text) {
  const std::vector<std::string> parts = absl::StrSplit(text, ',');
  equivalence::LossyTolerance t;
  double* fields[] = {&t.max_rel_l2, &t.min_cosine, &t.max_abs};
  bool ok = parts.size() <= 3;
  for (size_t i = 0; ok && i < parts.size(); ++i) {
    std::optional<double> v = ParseNumber(parts[i]);
    ok = v.has_value() && (i != 1 || *v <= 1);
    if (ok) *fields[i] = *v;
  }
  if (!ok) {
    return absl::InvalidArgumentError(
        absl::StrCat("expected REL_L2[,MIN_COSINE[,MAX_ABS]] as non-negative numbers (MIN_COSINE "
                     "at most 1), got '",
                     text, "'"));
  }
  return t;
}

bool ToleranceGiven() { return !gflags::GetCommandLineFlagInfoOrDie("tolerance").is_default; }

absl::Status ApplyToleranceFlag(equivalence::Tolerances& tolerances) {
  if (ToleranceGiven()) {
    absl::StatusOr<equivalence::Tolerance> t = ParseTolerance(FLAGS_tolerance);
    if (!t.ok())
      return absl::InvalidArgumentError(absl::StrCat("--tolerance: ", t.status().message()));
    tolerances.float32 = *t;
  }
  if (!gflags::GetCommandLineFlagInfoOrDie("lossy_tolerance").is_default) {
    absl::StatusOr<equivalence::LossyTolerance> lossy = ParseLossyTolerance(FLAGS_lossy_tolerance);
    if (!lossy.ok())
      return absl::InvalidArgumentError(
          absl::StrCat("--lossy-tolerance: ", lossy.status().message()));
    tolerances.lossy = *lossy;
  }
  return absl::OkStatus();
}

}  // namespace onnx_opt::cli
