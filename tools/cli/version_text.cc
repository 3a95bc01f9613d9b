#include "tools/cli/version_text.h"

#include "absl/strings/str_cat.h"
#include "tools/cli/git_revision.h"
#include "tools/cli/vector_kernels.h"
#include "tools/cli/version.h"

namespace onnx_opt::cli {

std::string_view GitRevision() { return kGitRevision; }

// ONNX_OPT_BUILD_MODE comes from the BUILD file (a select on the compilation mode).
std::string_view BuildMode() { return ONNX_OPT_BUILD_MODE; }

std::string VersionText(std::string_view tool) {
  return absl::StrCat(std::string(tool), " ", kVersion,
                      "\ngit revision: ", std::string(GitRevision()),
                      "\nbuild: ", std::string(BuildMode()), "\n", DescribeVectorKernels(), "\n");
}

}  // namespace onnx_opt::cli
