#include "tools/cli/args.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace onnx_opt::cli {

const OptionSpec* Args::FindLong(const std::string& name) const {
  for (const OptionSpec& s : specs_) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

const OptionSpec* Args::FindShort(const std::string& name) const {
  for (const OptionSpec& s : specs_) {
    if (!s.short_name.empty() && s.short_name == name) return &s;
  }
  return nullptr;
}

absl::Status Args::Parse(int argc, char** argv) {
  bool only_positional = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (only_positional || arg == "-" || arg.empty() || arg[0] != '-') {
      positional_.push_back(arg);
      continue;
    }
    if (arg == "--") {
      only_positional = true;
      continue;
    }
    const bool is_long = arg.rfind("--", 0) == 0;
    std::string body = arg.substr(is_long ? 2 : 1);
    std::optional<std::string> inline_value;
    if (const size_t eq = body.find('='); eq != std::string::npos) {
      inline_value = body.substr(eq + 1);
      body = body.substr(0, eq);
    }
    const OptionSpec* spec = is_long ? FindLong(body) : FindShort(body);
    if (spec == nullptr) return absl::InvalidArgumentError(absl::StrCat("unknown option '", arg, "'"));
    if (!spec->repeated && values_.count(spec->name) > 0) {
      return absl::InvalidArgumentError(absl::StrCat("option --", spec->name, " given twice"));
    }
    if (!spec->takes_value) {
      if (inline_value.has_value()) {
        return absl::InvalidArgumentError(absl::StrCat("option --", spec->name, " takes no value"));
      }
      values_[spec->name].push_back("");
      continue;
    }
    if (!inline_value.has_value()) {
      if (i + 1 >= argc) {
        return absl::InvalidArgumentError(absl::StrCat("option --", spec->name, " needs a value"));
      }
      inline_value = argv[++i];
    }
    values_[spec->name].push_back(*inline_value);
  }
  return absl::OkStatus();
}

std::optional<std::string> Args::Get(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end() || it->second.empty()) return std::nullopt;
  return it->second.back();
}

std::vector<std::string> Args::GetAll(const std::string& name) const {
  auto it = values_.find(name);
  return it == values_.end() ? std::vector<std::string>{} : it->second;
}

std::string Args::OptionsHelp() const {
  std::vector<std::pair<std::string, std::string>> rows;
  size_t width = 0;
  for (const OptionSpec& s : specs_) {
    std::string left = s.short_name.empty() ? "    " : absl::StrCat("-", s.short_name, ", ");
    absl::StrAppend(&left, "--", s.name);
    if (s.takes_value) absl::StrAppend(&left, "=", s.value_name.empty() ? "VALUE" : s.value_name);
    width = std::max(width, left.size());
    rows.emplace_back(left, s.help);
  }
  std::string out;
  for (const auto& [left, help] : rows) {
    absl::StrAppend(&out, "  ", left, std::string(width - left.size() + 2, ' '), help, "\n");
  }
  return out;
}

}  // namespace onnx_opt::cli
