#include "platform/process_start.h"

#include <cstdlib>
#include <cstring>

#include "platform/heap_tuning.h"

namespace onnx_opt::platform {
namespace {

bool user_set_at_start = false;
bool user_restored = false;

void SetUserForGlog() {
  if (std::getenv("USER") != nullptr) return;
  user_set_at_start = ::setenv("USER", "", /*overwrite=*/0) == 0;
}

bool AsksForVersion(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--version") == 0 || std::strcmp(argv[i], "-version") == 0)
      return true;
  }
  return false;
}

void StartProcess(int argc, char** argv, char** /*envp*/) {
  SetUserForGlog();
  if (!AsksForVersion(argc, argv)) TuneHeapForTool();
}

}  // namespace

void RestoreUserAfterStart() {
  if (!user_set_at_start || user_restored) return;
  user_restored = true;
  const char* user = std::getenv("USER");
  if (user != nullptr && *user == '\0') ::unsetenv("USER");
}

bool UserWasSetAtStart() { return user_set_at_start; }

}  // namespace onnx_opt::platform

__attribute__((section(".preinit_array"), used)) static void (*const kStartProcess)(
    int, char**, char**) = &onnx_opt::platform::StartProcess;
