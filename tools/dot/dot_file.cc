#include "tools/dot/dot_file.h"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

#include "absl/strings/str_cat.h"
#include "ir/status_macros.h"

extern char** environ;

namespace onnx_opt::tools {
namespace {

absl::Status WriteText(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out)
    return absl::PermissionDeniedError(
        absl::StrCat("cannot write ", path, ": ", std::strerror(errno)));
  return absl::OkStatus();
}

// Runs `dot -TFORMAT -o PATH SOURCE` and waits for it.
absl::Status RunDot(const std::string& format, const std::string& source, const std::string& path) {
  std::vector<std::string> args = {"dot", "-T" + format, "-o", path, source};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  if (const int err = posix_spawnp(&pid, "dot", nullptr, nullptr, argv.data(), environ); err != 0) {
    return absl::FailedPreconditionError(
        absl::StrCat("rendering ", path, " needs Graphviz's dot on the PATH (", std::strerror(err),
                     "; Debian: apt-get install graphviz), or write a .dot file instead"));
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return absl::FailedPreconditionError(
        absl::StrCat("dot failed to render ", path, " (see its message above)"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status WriteDotFile(const std::string& path, const std::string& dot) {
  const std::string extension = std::filesystem::path(path).extension().string();
  if (extension != ".svg" && extension != ".png" && extension != ".pdf")
    return WriteText(path, dot);
  const std::string source = path + ".dot.tmp";
  RETURN_IF_ERROR(WriteText(source, dot));
  absl::Status rendered = RunDot(extension.substr(1), source, path);
  std::remove(source.c_str());
  return rendered;
}

}  // namespace onnx_opt::tools
