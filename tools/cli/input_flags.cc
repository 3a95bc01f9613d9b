#include "tools/cli/input_flags.h"

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "ir/status_macros.h"

DEFINE_string(inputs, "",
              "DIR: run on input_0.pb, input_1.pb, ... from DIR instead of random inputs "
              "(input_K.pb is the K-th "
              "graph input without an initializer, or the input its value is named after)");
DEFINE_uint64(seed, 1, "S: seed for random inputs");
DEFINE_string(
    dim, "",
    "NAME=VALUE,...: sizes of symbolic dims in random inputs (left free: 1 in onnx-run; "
    "verification "
    "and onnx-compare run them at 2, then at 3 and 4); a comma list, or the flag repeated "
    "(--dim N=2 --dim M=3)");
DEFINE_string(
    shape, "",
    "INPUT=D0,D1,...: shape of a random input, overriding the declared one; more inputs follow in "
    "the list (--shape=x=1,3,y=2) or with the flag repeated");

namespace onnx_opt::cli {
namespace {

absl::StatusOr<int64_t> ParseSize(const std::string& text, const std::string& what) {
  int64_t v = 0;
  if (!absl::SimpleAtoi(text, &v) || v < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, ": '", text, "' is not a non-negative integer"));
  }
  return v;
}

// "NAME=VALUE" entries of a comma list; for --shape a part without '=' continues the entry before
// it.
absl::StatusOr<std::vector<std::pair<std::string, std::vector<std::string>>>> SplitEntries(
    const std::string& list, const std::string& flag, const std::string& form) {
  std::vector<std::pair<std::string, std::vector<std::string>>> entries;
  for (const std::string& part : std::vector<std::string>(absl::StrSplit(list, ','))) {
    const size_t eq = part.find('=');
    if (eq == std::string::npos) {
      if (entries.empty() || flag == "--dim") {
        return absl::InvalidArgumentError(
            absl::StrCat(flag, " expects ", form, ", got '", list, "'"));
      }
      entries.back().second.push_back(part);
      continue;
    }
    if (eq == 0)
      return absl::InvalidArgumentError(
          absl::StrCat(flag, " expects ", form, ", got '", list, "'"));
    entries.push_back({part.substr(0, eq), {}});
    if (eq + 1 < part.size() || flag == "--dim")
      entries.back().second.push_back(part.substr(eq + 1));
  }
  return entries;
}

}  // namespace

std::vector<std::string> RepeatedInputFlags() { return {"dim", "shape"}; }

absl::Status ApplyInputFlags(equivalence::EquivalenceOptions& options) {
  options.seed = FLAGS_seed;
  if (!FLAGS_dim.empty()) {
    ASSIGN_OR_RETURN(auto dims, SplitEntries(FLAGS_dim, "--dim", "NAME=VALUE[,NAME=VALUE...]"));
    for (const auto& [name, values] : dims) {
      ASSIGN_OR_RETURN(int64_t v, ParseSize(values[0], "--dim " + name));
      options.dims[name] = v;
    }
  }
  if (!FLAGS_shape.empty()) {
    ASSIGN_OR_RETURN(auto shapes, SplitEntries(FLAGS_shape, "--shape", "INPUT=D0,D1,..."));
    for (const auto& [name, values] : shapes) {
      std::vector<int64_t> dims;
      for (const std::string& d : values) {
        ASSIGN_OR_RETURN(int64_t v, ParseSize(d, "--shape " + name));
        dims.push_back(v);
      }
      options.shapes[name] = dims;
    }
  }
  return absl::OkStatus();
}

}  // namespace onnx_opt::cli
