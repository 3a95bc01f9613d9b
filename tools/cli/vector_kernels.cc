#include "tools/cli/vector_kernels.h"

#include "absl/strings/str_cat.h"
#include "interpreter/cpu/isa.h"

namespace onnx_opt::cli {

std::string DescribeVectorKernels() {
  // (Debian's abseil takes absl::string_view, not std::string_view.)
  return absl::StrCat(
      "vector kernels: ", std::string(interpreter::IsaName(interpreter::ActiveIsa())),
      " (CPU supports ", std::string(interpreter::IsaName(interpreter::DetectedIsa())), ")");
}

}  // namespace onnx_opt::cli
