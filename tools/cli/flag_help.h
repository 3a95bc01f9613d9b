// What a tool's --help prints: its usage text, then its flags (those defined in tools/ that the
// binary links, its own file first), then the few of gflags' and glog's flags worth knowing.
// gflags' own --help would list every flag of every library (--helpfull still does).
//
// A flag's help text may start with the name of its value and a colon ("FILE: where to write
// ..."); it is printed as --output=FILE.
#ifndef ONNX_OPT_TOOLS_CLI_FLAG_HELP_H_
#define ONNX_OPT_TOOLS_CLI_FLAG_HELP_H_

#include <string>

#include "tools/cli/command_line.h"

namespace onnx_opt::cli {

std::string HelpText(const Tool& tool);

}  // namespace onnx_opt::cli

#endif  // ONNX_OPT_TOOLS_CLI_FLAG_HELP_H_
