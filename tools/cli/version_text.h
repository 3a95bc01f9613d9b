// What `--version` prints: the tool and its version (version.h), the git revision it was built from
// when the build was stamped (bazel build --stamp
// --workspace_status_command=tools/cli/workspace_status.sh), the build mode, and the instruction
// set the interpreter's vector kernels use.
#ifndef ONNX_OPT_TOOLS_CLI_VERSION_TEXT_H_
#define ONNX_OPT_TOOLS_CLI_VERSION_TEXT_H_

#include <string>
#include <string_view>

namespace onnx_opt::cli {

// "onnx-opt 0.1.0\ngit revision: 1a2b3c4\nbuild: opt\nvector kernels: avx2 (CPU supports
// avx512)\n".
std::string VersionText(std::string_view tool);

// "1a2b3c4", or "unknown" in an unstamped build.
std::string_view GitRevision();

// "opt", "fastbuild" or "dbg" (Bazel's compilation mode).
std::string_view BuildMode();

}  // namespace onnx_opt::cli

#endif  // ONNX_OPT_TOOLS_CLI_VERSION_TEXT_H_
