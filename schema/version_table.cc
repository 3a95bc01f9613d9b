#include "schema/version_table.h"

#include <algorithm>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "schema/defs/releases.h"
#include "schema/domains.h"

namespace onnx_opt::schema {
namespace {

// Debian's abseil has its own string_view type; convert at the StrCat boundary.
absl::string_view Sv(std::string_view s) { return absl::string_view(s.data(), s.size()); }

bool HasColumn(std::string_view domain) {
  return domain == kOnnxDomain || domain == kMlDomain || domain == kTrainingReleaseDomain;
}

absl::Status NoColumn(std::string_view domain) {
  return absl::NotFoundError(
      absl::StrCat("domain '", Sv(domain), "' is not in ONNX's release table (it lists ",
                   Sv(kOnnxDomain), ", ", Sv(kMlDomain), " and ", Sv(kTrainingReleaseDomain), ")"));
}

}  // namespace

absl::Span<const Release> Releases() { return defs::ReleaseRows(); }

int64_t OpsetInRelease(const Release& release, std::string_view domain) {
  domain = CanonicalDomain(domain);
  if (domain == kOnnxDomain) return release.onnx_opset;
  if (domain == kMlDomain) return release.ml_opset;
  if (domain == kTrainingReleaseDomain) return release.training_opset;
  return 0;
}

absl::StatusOr<int64_t> MinIrVersionForOpset(std::string_view domain, int64_t opset) {
  domain = CanonicalDomain(domain);
  if (!HasColumn(domain)) return NoColumn(domain);
  if (opset < 1) {
    return absl::InvalidArgumentError(absl::StrCat("opset ", opset, " of domain ", Sv(domain),
                                                   " is invalid (opsets start at 1)"));
  }
  // IR versions never decrease along the table, but take the minimum anyway rather than rely on it.
  int64_t best = 0;
  int64_t newest = 0;
  for (const Release& r : Releases()) {
    const int64_t shipped = OpsetInRelease(r, domain);
    newest = std::max(newest, shipped);
    if (shipped >= opset && (best == 0 || r.ir_version < best)) best = r.ir_version;
  }
  if (best == 0) {
    return absl::NotFoundError(absl::StrCat("no known ONNX release includes opset ", opset,
                                            " of domain ", Sv(domain), " (newest: ", newest, ")"));
  }
  return best;
}

absl::StatusOr<int64_t> MaxOpsetForIrVersion(std::string_view domain, int64_t ir_version) {
  domain = CanonicalDomain(domain);
  if (!HasColumn(domain)) return NoColumn(domain);
  int64_t best = 0;
  for (const Release& r : Releases()) {
    if (r.ir_version <= ir_version) best = std::max(best, OpsetInRelease(r, domain));
  }
  if (best == 0) {
    return absl::NotFoundError(absl::StrCat("no known ONNX release with IR version <= ", ir_version,
                                            " includes domain ", Sv(domain)));
  }
  return best;
}

}  // namespace onnx_opt::schema
