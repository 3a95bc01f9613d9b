// A small command-line parser shared by the tools: long options (--name=value, --name value, --flag),
// short aliases (-o value), positional arguments, and "-" as a positional (stdin/stdout).
// Usage errors are reported as absl::InvalidArgumentError so tools can exit with code 2.
#ifndef ONNX_OPT_TOOLS_CLI_ARGS_H_
#define ONNX_OPT_TOOLS_CLI_ARGS_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"

namespace onnx_opt::cli {

struct OptionSpec {
  std::string name;         // long name without dashes: "output"
  std::string short_name;   // "o" or ""
  bool takes_value = true;  // false: a boolean flag
  bool repeated = false;    // may be given several times (--dim N=1 --dim M=2)
  std::string value_name;   // for help: "FILE"
  std::string help;
};

class Args {
 public:
  explicit Args(std::vector<OptionSpec> specs) : specs_(std::move(specs)) {}

  absl::Status Parse(int argc, char** argv);

  bool Has(const std::string& name) const { return values_.count(name) > 0; }
  std::optional<std::string> Get(const std::string& name) const;
  std::vector<std::string> GetAll(const std::string& name) const;
  const std::vector<std::string>& positional() const { return positional_; }

  // "  -o, --output=FILE   help text" lines for every option.
  std::string OptionsHelp() const;

 private:
  const OptionSpec* FindLong(const std::string& name) const;
  const OptionSpec* FindShort(const std::string& name) const;

  std::vector<OptionSpec> specs_;
  std::map<std::string, std::vector<std::string>> values_;
  std::vector<std::string> positional_;
};

}  // namespace onnx_opt::cli

#endif  // ONNX_OPT_TOOLS_CLI_ARGS_H_
