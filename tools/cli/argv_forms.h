// Today's command-line forms that gflags does not read, rewritten into ones it does before parsing:
// short aliases (-o FILE is --output FILE, -h is --help) and flags given several times
// (--dim N=1 --dim M=2), which gflags would reduce to the last one, joined into one comma list
// (--dim=N=1,M=2).
#ifndef ONNX_OPT_TOOLS_CLI_ARGV_FORMS_H_
#define ONNX_OPT_TOOLS_CLI_ARGV_FORMS_H_

#include <map>
#include <string>
#include <vector>

namespace onnx_opt::cli {

struct ArgvForms {
  std::map<std::string, std::string> aliases;  // "o" -> "output": -o and --o mean --output
  std::vector<std::string> joined;             // flags whose repeats are joined with commas
};

// `args` without the program name. Arguments after "--" are left alone, and so is anything that
// does not name one of `forms`' flags.
std::vector<std::string> RewriteArgv(const std::vector<std::string>& args, const ArgvForms& forms);

}  // namespace onnx_opt::cli

#endif  // ONNX_OPT_TOOLS_CLI_ARGV_FORMS_H_
