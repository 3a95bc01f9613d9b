#ifndef ONNX_OPT_SCHEMA_VERSION_TABLE_H_
#define ONNX_OPT_SCHEMA_VERSION_TABLE_H_

// Which IR version goes with which opsets: ONNX's release table. The converter uses it to set
// ir_version when it changes a model's opset, the checker to reject a model whose ir_version is too
// old for its opset imports.

#include <cstdint>
#include <string_view>

#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace onnx_opt::schema {

// Domain name of the training column. ONNX's table calls it "ai.onnx.training" although the
// training operators live in "ai.onnx.preview.training"; we keep ONNX's name and do not alias.
inline constexpr std::string_view kTrainingReleaseDomain = "ai.onnx.training";

// One ONNX release: its IR version and the newest opset of each domain it shipped.
struct Release {
  std::string_view name;  // "1.16.0"
  int64_t ir_version;
  int64_t onnx_opset;      // ai.onnx
  int64_t ml_opset;        // ai.onnx.ml
  int64_t training_opset;  // ai.onnx.training; 0 before the domain existed
};

// Every release, oldest first.
absl::Span<const Release> Releases();

// The opset of `domain` ("" or "ai.onnx", "ai.onnx.ml", "ai.onnx.training") that `release` shipped,
// 0 when it shipped none or the domain is not a column of the table.
int64_t OpsetInRelease(const Release& release, std::string_view domain);

// The smallest IR version of a release that includes `opset` of `domain`. A release includes every
// opset up to the one it shipped, so opset 3 of ai.onnx (never the newest of any release) needs
// IR 3, as does opset 5. NotFound for a domain without a column or an opset newer than every
// release; InvalidArgument for opset < 1.
absl::StatusOr<int64_t> MinIrVersionForOpset(std::string_view domain, int64_t opset);

// The newest opset of `domain` that some release with IR version <= `ir_version` shipped: the
// highest opset a model of that IR version may import. NotFound when no such release shipped
// the domain.
absl::StatusOr<int64_t> MaxOpsetForIrVersion(std::string_view domain, int64_t ir_version);

}  // namespace onnx_opt::schema

#endif  // ONNX_OPT_SCHEMA_VERSION_TABLE_H_
