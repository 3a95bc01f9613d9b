#include "tools/cli/glog_user_at_start.h"

#include <cstdlib>

namespace onnx_opt::cli {
namespace {

bool user_set_at_start = false;
bool user_restored = false;

void SetUserAtStart(int /*argc*/, char** /*argv*/, char** /*envp*/) {
  if (std::getenv("USER") != nullptr) return;
  user_set_at_start = ::setenv("USER", "", /*overwrite=*/0) == 0;
}

}  // namespace

void RestoreUserAfterStart() {
  if (!user_set_at_start || user_restored) return;
  user_restored = true;
  const char* user = std::getenv("USER");
  if (user != nullptr && *user == '\0') ::unsetenv("USER");
}

bool UserWasSetAtStart() { return user_set_at_start; }

}  // namespace onnx_opt::cli

// Only an executable has a .preinit_array; this library is linked only into executables.
__attribute__((section(".preinit_array"), used)) static void (*const kSetUserAtStart)(int, char**, char**) =
    &onnx_opt::cli::SetUserAtStart;
