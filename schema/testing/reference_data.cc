#include "schema/testing/reference_data.h"

#include <sys/stat.h>

#include <climits>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace onnx_opt::schema::testing {
namespace {

// A file of this package that tests list in `data`; its real path leads back to the workspace.
constexpr std::string_view kMarker = "schema/testing/reference_data.h";

std::string Getenv(const char* name) {
  const char* v = std::getenv(name);
  return v == nullptr ? "" : v;
}

bool IsDirectory(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// The workspace root, found through the runfiles symlink of kMarker; "" outside Bazel.
std::string WorkspaceRoot() {
  const std::string srcdir = Getenv("TEST_SRCDIR");
  const std::string workspace = Getenv("TEST_WORKSPACE");
  if (srcdir.empty() || workspace.empty()) return "";
  const std::string marker = srcdir + "/" + workspace + "/" + std::string(kMarker);
  char resolved[PATH_MAX];
  if (realpath(marker.c_str(), resolved) == nullptr) return "";
  std::string_view path = resolved;
  if (!path.ends_with(kMarker)) return "";
  path.remove_suffix(kMarker.size());
  return std::string(path);  // keeps the trailing slash
}

}  // namespace

std::optional<std::string> ReferenceDir() {
  const std::string dir = Getenv(kReferenceDirEnv);
  if (dir.empty()) return std::nullopt;
  if (dir[0] == '/' || IsDirectory(dir)) return dir;
  const std::string root = WorkspaceRoot();
  if (!root.empty()) return root + dir;
  return dir;  // reading will fail and say where it looked
}

std::string MissingReferenceMessage() {
  return absl::StrCat(
      "\n**********************************************************************\n", "*** ",
      kReferenceDirEnv, " is not set: SKIPPING the comparison with the ONNX\n",
      "*** reference data. Run with ", kReferenceDirEnv, "=../shared/reference (or an\n",
      "*** absolute path) to check the schema tables.\n",
      "**********************************************************************");
}

absl::StatusOr<std::string> ReadReferenceFile(std::string_view name) {
  const std::optional<std::string> dir = ReferenceDir();
  if (!dir.has_value()) return absl::FailedPreconditionError(MissingReferenceMessage());
  const std::string path = *dir + "/" + std::string(name);
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return absl::NotFoundError(absl::StrCat("cannot read ", path, " (", kReferenceDirEnv, "=",
                                            Getenv(kReferenceDirEnv), ")"));
  }
  std::ostringstream contents;
  contents << in.rdbuf();
  return contents.str();
}

}  // namespace onnx_opt::schema::testing
