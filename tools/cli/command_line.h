// The tools' command lines, parsed by gflags: flags are DEFINE_*d in the tool's file and in the
// libraries of shared flags it links (runtime_options, input_flags, logging), positional arguments
// (models, "-" for stdin/stdout) come back in order. --help prints the tool's usage and its own
// flags; --helpfull, --helpxml, --flagfile and the like are gflags' own.
#ifndef ONNX_OPT_TOOLS_CLI_COMMAND_LINE_H_
#define ONNX_OPT_TOOLS_CLI_COMMAND_LINE_H_

#include <optional>
#include <string>
#include <vector>

#include "gflags/gflags.h"
#include "tools/cli/argv_forms.h"

// gflags' --version; a tool prints cli::VersionText when it is set.
DECLARE_bool(version);

namespace onnx_opt::cli {

struct Tool {
  std::string name;   // "onnx-opt": the prefix of every message
  std::string usage;  // what --help prints before the flags
  // The tool's own file (__FILE__): its flags are listed first in --help.
  std::string source_file;
  // -o, -h and repeated flags (argv_forms.h); -h is always --help.
  ArgvForms forms;
};

struct ParsedCommandLine {
  std::vector<std::string> positional;
  // Set when the tool should end now: 0 after --help (or gflags' --helpfull and the like), 2 after
  // a usage error (an unknown flag, a value of the wrong type, a missing value), already reported.
  std::optional<int> exit_status;
};

// Parses argv into the FLAGS_ variables and sets up logging (logging.h). gflags alone exits 1 on a
// bad flag; the tools promise 2 for every usage error, so flags are checked against gflags'
// registry before gflags parses them. (Errors inside a --flagfile are gflags' own and still
// exit 1.)
ParsedCommandLine ParseCommandLine(int argc, char** argv, const Tool& tool);

// Prints "TOOL: MESSAGE" and where to find the flags on stderr; returns 2, the usage-error status.
int UsageError(const Tool& tool, const std::string& message);

}  // namespace onnx_opt::cli

#endif  // ONNX_OPT_TOOLS_CLI_COMMAND_LINE_H_
