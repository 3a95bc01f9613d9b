#include "tools/cli/argv_forms.h"

#include <algorithm>
#include <optional>

namespace onnx_opt::cli {
namespace {

// A flag argument split as gflags splits it: up to two dashes, then NAME or NAME=VALUE.
struct FlagArg {
  std::string name;
  std::optional<std::string> value;
};

std::optional<FlagArg> SplitFlag(const std::string& arg) {
  if (arg.size() < 2 || arg[0] != '-' || arg == "--") return std::nullopt;
  const std::string body = arg.substr(arg[1] == '-' ? 2 : 1);
  const size_t eq = body.find('=');
  if (eq == std::string::npos) return FlagArg{body, std::nullopt};
  return FlagArg{body.substr(0, eq), body.substr(eq + 1)};
}

}  // namespace

std::vector<std::string> RewriteArgv(const std::vector<std::string>& args, const ArgvForms& forms) {
  std::vector<std::string> out;
  // Where each joined flag's one argument is in `out`, once seen.
  std::map<std::string, size_t> joined_at;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--") {
      out.insert(out.end(), args.begin() + i, args.end());
      break;
    }
    std::optional<FlagArg> flag = SplitFlag(args[i]);
    if (!flag) {
      out.push_back(args[i]);
      continue;
    }
    const auto alias = forms.aliases.find(flag->name);
    if (alias != forms.aliases.end()) flag->name = alias->second;
    const bool joined =
        std::find(forms.joined.begin(), forms.joined.end(), flag->name) != forms.joined.end();
    if (!joined) {
      // Only aliases change: anything else (a value like -1 included) reaches gflags as written.
      out.push_back(alias == forms.aliases.end()
                        ? args[i]
                        : "--" + flag->name + (flag->value ? "=" + *flag->value : ""));
      continue;
    }
    if (!flag->value) {
      if (i + 1 >= args.size()) {  // gflags reports the missing value
        out.push_back("--" + flag->name);
        continue;
      }
      flag->value = args[++i];
    }
    if (auto at = joined_at.find(flag->name); at != joined_at.end()) {
      out[at->second] += "," + *flag->value;
    } else {
      joined_at[flag->name] = out.size();
      out.push_back("--" + flag->name + "=" + *flag->value);
    }
  }
  return out;
}

}  // namespace onnx_opt::cli
