#include "tools/cli/command_line.h"

#include <cstdio>
#include <iostream>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "platform/process_start.h"
#include "tools/cli/flag_help.h"
#include "tools/cli/ir_slab_pools.h"
#include "tools/cli/logging.h"

// gflags' own.
DECLARE_bool(help);
DECLARE_bool(helpfull);
DECLARE_bool(helpshort);

namespace onnx_opt::cli {
namespace {

// Flags whose value names more flags (files, environment variables); gflags reads them itself.
bool ReadsMoreFlags(const std::string& name) {
  return name == "flagfile" || name == "fromenv" || name == "tryfromenv" || name == "undefok";
}

// What gflags would refuse in `args` (without the program name), walked the way gflags walks them:
// "-" and words without a dash are positional, "--" ends the flags, a flag that is not boolean
// takes
// "=VALUE" or the next argument, and --noNAME clears a boolean NAME.
absl::Status CheckFlags(const std::vector<std::string>& args) {
  // Values are tried by setting them, as gflags will, and put back afterwards.
  gflags::FlagSaver restore_flags;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--") break;
    if (arg.size() < 2 || arg[0] != '-') continue;
    std::string name = arg.substr(arg[1] == '-' ? 2 : 1);
    std::optional<std::string> value;
    if (const size_t eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
    }
    gflags::CommandLineFlagInfo info;
    if (!gflags::GetCommandLineFlagInfo(name.c_str(), &info)) {
      gflags::CommandLineFlagInfo negated;
      if (name.rfind("no", 0) == 0 && !value &&
          gflags::GetCommandLineFlagInfo(name.c_str() + 2, &negated) && negated.type == "bool") {
        continue;
      }
      return absl::InvalidArgumentError(absl::StrCat("unknown flag '", arg, "'"));
    }
    if (!value) {
      if (info.type == "bool") continue;
      if (i + 1 >= args.size())
        return absl::InvalidArgumentError(absl::StrCat("flag '", arg, "' needs a value"));
      value = args[++i];
    }
    if (ReadsMoreFlags(info.name)) continue;
    if (gflags::SetCommandLineOption(info.name.c_str(), value->c_str()).empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--", name, ": '", *value, "' is not a valid ", info.type, " value"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

ParsedCommandLine ParseCommandLine(int argc, char** argv, const Tool& tool) {
  ParsedCommandLine parsed;
  // stderr is unbuffered: every piece of a line (`std::cerr << a << b`) was a write of its own, a
  // system call each (~5 us here) and open to interleaving with other processes' output. Line
  // buffered, a line is one write; exit flushes what is left.
  std::setvbuf(stderr, nullptr, _IOLBF, BUFSIZ);
  std::cerr.unsetf(std::ios_base::unitbuf);  // std::cerr writes through to stderr's buffer
  platform::RestoreUserAfterStart();
  UseSlabPoolsForIr();
  gflags::SetUsageMessage(tool.usage);
  ArgvForms forms = tool.forms;
  forms.aliases.emplace("h", "help");
  std::vector<std::string> args =
      RewriteArgv(std::vector<std::string>(argv + 1, argv + argc), forms);
  if (absl::Status s = CheckFlags(args); !s.ok()) {
    parsed.exit_status = UsageError(tool, std::string(s.message()));
    return parsed;
  }
  std::vector<char*> pointers = {argv[0]};
  for (std::string& arg : args) pointers.push_back(arg.data());
  int count = static_cast<int>(pointers.size());
  char** rest = pointers.data();
  gflags::ParseCommandLineNonHelpFlags(&count, &rest, /*remove_flags=*/true);
  parsed.positional.assign(rest + 1, rest + count);
  if (FLAGS_help || FLAGS_helpshort) {
    std::cout << HelpText(tool);
    parsed.exit_status = 0;
    return parsed;
  }
  if (FLAGS_helpfull) {
    gflags::ShowUsageWithFlagsRestrict(argv[0], "");
    parsed.exit_status = 0;
    return parsed;
  }
  // --helpxml, --helpon=FILE, --helpmatch=S and --helppackage print and exit 1 (gflags' own
  // convention); --version is the tool's to print.
  if (!FLAGS_version) gflags::HandleCommandLineHelpFlags();
  InitLogging(tool.name);
  // Abseil checks every Mutex acquisition for lock-order cycles unless it was built with NDEBUG,
  // and Debian's is not: the bookkeeping was about 1% of converting a 700-node model. Tests keep it
  // on.
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
  return parsed;
}

int UsageError(const Tool& tool, const std::string& message) {
  std::cerr << tool.name << ": " << message << " (" << tool.name << " --help lists the flags)\n";
  return 2;
}

}  // namespace onnx_opt::cli
