// Writes DOT text to a file: as text (FILE.dot, FILE.gv, anything else), or rendered by Graphviz's
// `dot` when the name ends in .svg, .png or .pdf.
#ifndef ONNX_OPT_TOOLS_DOT_DOT_FILE_H_
#define ONNX_OPT_TOOLS_DOT_DOT_FILE_H_

#include <string>

#include "absl/status/status.h"

namespace onnx_opt::tools {

// A rendering that cannot run (no `dot` on the PATH) or fails is FailedPrecondition, with what to
// install or do instead.
absl::Status WriteDotFile(const std::string& path, const std::string& dot);

}  // namespace onnx_opt::tools

#endif  // ONNX_OPT_TOOLS_DOT_DOT_FILE_H_
