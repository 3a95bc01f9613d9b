// The version every tool of this checkout reports (`onnx-run --version`). One place: bump it here.
#ifndef ONNX_OPT_TOOLS_CLI_VERSION_H_
#define ONNX_OPT_TOOLS_CLI_VERSION_H_

namespace onnx_opt::cli {

inline constexpr char kVersion[] = "0.1.0";

}  // namespace onnx_opt::cli

#endif  // ONNX_OPT_TOOLS_CLI_VERSION_H_
