// One line on the vector kernels the interpreter runs (interpreter/cpu/isa.h), for --version and
// onnx-run --time.
#ifndef ONNX_OPT_TOOLS_CLI_VECTOR_KERNELS_H_
#define ONNX_OPT_TOOLS_CLI_VECTOR_KERNELS_H_

#include <string>

namespace onnx_opt::cli {

// "vector kernels: avx2 (CPU supports avx512)".
std::string DescribeVectorKernels();

}  // namespace onnx_opt::cli

#endif  // ONNX_OPT_TOOLS_CLI_VECTOR_KERNELS_H_
