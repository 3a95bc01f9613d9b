#include "tools/verification.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "interpreter/data_value.h"
#include "ir/io/model_io.h"

namespace onnx_opt::tools {
namespace {

absl::StatusOr<int64_t> ParseInt(const std::string& text, const std::string& what) {
  char* end = nullptr;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || v < 0) {
    return absl::InvalidArgumentError(absl::StrCat(what, ": '", text, "' is not a non-negative integer"));
  }
  return v;
}

}  // namespace

std::vector<cli::OptionSpec> InputOptionSpecs() {
  return {
      {"inputs", "", true, false, "DIR", "verify on input_0.pb, input_1.pb, ... from DIR instead of random inputs"},
      {"seed", "", true, false, "S", "seed for random inputs (default 1)"},
      {"dim", "", true, true, "NAME=VALUE", "size of symbolic dim NAME in random inputs (default 1)"},
      {"shape", "", true, true, "INPUT=D0,D1,...", "shape of a random input, overriding the declared one"},
  };
}

absl::Status ParseInputOptions(const cli::Args& args, optimizer::EquivalenceOptions& options) {
  if (std::optional<std::string> seed = args.Get("seed")) {
    absl::StatusOr<int64_t> v = ParseInt(*seed, "--seed");
    if (!v.ok()) return v.status();
    options.seed = static_cast<uint64_t>(*v);
  }
  for (const std::string& dim : args.GetAll("dim")) {
    std::vector<std::string> parts = absl::StrSplit(dim, absl::MaxSplits('=', 1));
    if (parts.size() != 2 || parts[0].empty()) {
      return absl::InvalidArgumentError(absl::StrCat("--dim expects NAME=VALUE, got '", dim, "'"));
    }
    absl::StatusOr<int64_t> v = ParseInt(parts[1], "--dim " + parts[0]);
    if (!v.ok()) return v.status();
    options.dims[parts[0]] = *v;
  }
  for (const std::string& shape : args.GetAll("shape")) {
    std::vector<std::string> parts = absl::StrSplit(shape, absl::MaxSplits('=', 1));
    if (parts.size() != 2 || parts[0].empty()) {
      return absl::InvalidArgumentError(absl::StrCat("--shape expects INPUT=D0,D1,..., got '", shape, "'"));
    }
    std::vector<int64_t> dims;
    if (!parts[1].empty()) {
      for (const std::string& d : std::vector<std::string>(absl::StrSplit(parts[1], ','))) {
        absl::StatusOr<int64_t> v = ParseInt(d, "--shape " + parts[0]);
        if (!v.ok()) return v.status();
        dims.push_back(*v);
      }
    }
    options.shapes[parts[0]] = dims;
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<interpreter::RuntimeValue>> MakeInputs(const ir::Model& original,
                                                                 const std::string& inputs_dir,
                                                                 const optimizer::EquivalenceOptions& options) {
  if (inputs_dir.empty()) return optimizer::MakeRandomInputs(original, options);
  std::vector<interpreter::RuntimeValue> inputs;
  {
    const std::vector<ir::Value*>& graph_inputs = original.graph().inputs();
    for (size_t i = 0; i < graph_inputs.size(); ++i) {
      const std::string path = absl::StrCat(inputs_dir, "/input_", i, ".pb");
      if (!std::filesystem::exists(path)) {
        if (graph_inputs[i]->is_initializer()) break;  // the rest keep their defaults
        return absl::NotFoundError(absl::StrCat("no ", path, " for graph input '", graph_inputs[i]->name(), "'"));
      }
      absl::StatusOr<ir::io::DataValue> data =
          ir::io::LoadDataValueFile(path, ir::io::DataValueKindOf(graph_inputs[i]->type()));
      if (!data.ok()) return data.status();
      absl::StatusOr<interpreter::RuntimeValue> v = interpreter::FromDataValue(*data);
      if (!v.ok()) return v.status();
      inputs.push_back(std::move(*v));
    }
  }
  return inputs;
}

absl::StatusOr<Reference> MakeReference(const ir::Model& original, const std::string& inputs_dir,
                                        const optimizer::EquivalenceOptions& options) {
  Reference ref;
  absl::StatusOr<std::vector<interpreter::RuntimeValue>> inputs = MakeInputs(original, inputs_dir, options);
  if (!inputs.ok()) return inputs.status();
  ref.inputs = std::move(*inputs);
  absl::StatusOr<std::vector<interpreter::RuntimeValue>> outputs = optimizer::RunModel(original, ref.inputs);
  if (!outputs.ok()) {
    return absl::Status(outputs.status().code(),
                        absl::StrCat("cannot verify: the interpreter cannot run the input model: ",
                                     outputs.status().message()));
  }
  ref.outputs = std::move(*outputs);
  return ref;
}

std::string DescribeMatch(const std::vector<optimizer::OutputDifference>& report) {
  double abs_err = 0, rel_err = 0;
  for (const auto& d : report) {
    abs_err = std::max(abs_err, d.max_abs_error);
    rel_err = std::max(rel_err, d.max_rel_error);
  }
  return absl::StrFormat("%d output%s equal (max abs error %.3g, max rel error %.3g)", report.size(),
                         report.size() == 1 ? "" : "s", abs_err, rel_err);
}

}  // namespace onnx_opt::tools
