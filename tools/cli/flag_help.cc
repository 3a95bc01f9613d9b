#include "tools/cli/flag_help.h"

#include <algorithm>
#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gflags/gflags.h"

namespace onnx_opt::cli {
namespace {

struct FlagRow {
  std::string name;
  std::string value_name;  // empty: a boolean
  std::string help;
};

// gflags' and glog's flags that every tool's --help mentions, in our words.
std::vector<FlagRow> CommonFlags() {
  return {
      {"help", "", "print this help (-h)"},
      {"helpfull", "", "print every flag, gflags' and glog's included"},
      {"version", "",
       "print the version, git revision, build mode and the vector kernels' instruction set"},
      {"flagfile", "FILE", "read more flags from FILE, one a line as on the command line"},
      {"v", "N", "log detail: 1 traces every pass (or conversion step) and its rewrite count"},
  };
}

bool IsOurs(const gflags::CommandLineFlagInfo& flag) {
  return flag.filename.rfind("tools/", 0) == 0;
}

FlagRow RowOf(const gflags::CommandLineFlagInfo& flag) {
  // Typed as users type them: --fold-size-limit (gflags takes dashes for the underscores).
  std::string name = flag.name;
  std::replace(name.begin(), name.end(), '_', '-');
  FlagRow row{name, "", flag.description};
  if (flag.type != "bool") {
    // "FILE: where to write" -> value FILE.
    const size_t colon = row.help.find(": ");
    const std::string head = row.help.substr(0, colon);
    const bool named =
        colon != std::string::npos && !head.empty() &&
        std::none_of(head.begin(), head.end(), [](char c) { return c >= 'a' && c <= 'z'; }) &&
        head.find(' ') == std::string::npos;
    if (named) {
      row.value_name = head;
      row.help = row.help.substr(colon + 2);
    } else {
      row.value_name = flag.type == "string" ? "VALUE" : flag.type == "double" ? "X" : "N";
    }
    if (!flag.default_value.empty() && flag.default_value != "0" &&
        row.help.find("default") == std::string::npos) {
      absl::StrAppend(&row.help, " (default ", flag.default_value, ")");
    }
  }
  return row;
}

// The tool's own flags, then the shared ones it links, each group sorted by name.
std::vector<FlagRow> ToolFlags(const Tool& tool) {
  std::vector<gflags::CommandLineFlagInfo> all;
  gflags::GetAllFlags(&all);
  std::stable_partition(all.begin(), all.end(), [&](const gflags::CommandLineFlagInfo& f) {
    return f.filename == tool.source_file;
  });
  std::vector<FlagRow> rows;
  for (const gflags::CommandLineFlagInfo& flag : all) {
    if (IsOurs(flag)) rows.push_back(RowOf(flag));
  }
  return rows;
}

std::string FormatRows(const std::vector<FlagRow>& rows,
                       const std::map<std::string, std::string>& aliases) {
  std::vector<std::string> lefts;
  size_t width = 0;
  for (const FlagRow& row : rows) {
    std::string left = "    ";
    for (const auto& [alias, name] : aliases) {
      if (name == row.name) left = absl::StrCat("-", alias, ", ");
    }
    absl::StrAppend(&left, "--", row.name, row.value_name.empty() ? "" : "=", row.value_name);
    width = std::max(width, left.size());
    lefts.push_back(std::move(left));
  }
  // Help texts wrap at word boundaries to fit kLineWidth, continuing under their first line.
  constexpr size_t kLineWidth = 100;
  const size_t indent = 2 + width + 2;
  std::string out;
  for (size_t i = 0; i < rows.size(); ++i) {
    std::string line = absl::StrCat("  ", lefts[i], std::string(width - lefts[i].size() + 2, ' '));
    bool first_word = true;
    for (absl::string_view word : absl::StrSplit(rows[i].help, ' ', absl::SkipEmpty())) {
      if (!first_word && line.size() + 1 + word.size() > kLineWidth) {
        absl::StrAppend(&out, line, "\n");
        line = std::string(indent, ' ');
        first_word = true;
      }
      absl::StrAppend(&line, first_word ? "" : " ", word);
      first_word = false;
    }
    absl::StrAppend(&out, line, "\n");
  }
  return out;
}

}  // namespace

std::string HelpText(const Tool& tool) {
  return absl::StrCat(tool.usage, "\nflags:\n", FormatRows(ToolFlags(tool), tool.forms.aliases),
                      "\ncommon flags (gflags and glog):\n", FormatRows(CommonFlags(), {}));
}

}  // namespace onnx_opt::cli
