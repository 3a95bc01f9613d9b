#ifndef ONNX_OPT_SCHEMA_DEFS_RELEASES_H_
#define ONNX_OPT_SCHEMA_DEFS_RELEASES_H_

#include "absl/types/span.h"
#include "schema/version_table.h"

namespace onnx_opt::schema::defs {

// The rows of the release table (releases.cc); use schema::Releases().
absl::Span<const Release> ReleaseRows();

}  // namespace onnx_opt::schema::defs

#endif  // ONNX_OPT_SCHEMA_DEFS_RELEASES_H_
