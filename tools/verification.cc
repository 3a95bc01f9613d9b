#include "tools/verification.h"

#include <algorithm>
#include <filesystem>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "interpreter/data_value.h"
#include "ir/io/model_io.h"
#include "ir/status_macros.h"

namespace onnx_opt::tools {

absl::StatusOr<std::vector<interpreter::RuntimeValue>> MakeInputs(const ir::Model& original,
                                                                 const std::string& inputs_dir,
                                                                 const verify::EquivalenceOptions& options) {
  if (inputs_dir.empty()) return verify::MakeRandomInputs(original, options);
  std::vector<interpreter::RuntimeValue> inputs;
  {
    const std::vector<ir::Value*>& graph_inputs = original.graph().inputs();
    for (size_t i = 0; i < graph_inputs.size(); ++i) {
      const std::string path = absl::StrCat(inputs_dir, "/input_", i, ".pb");
      if (!std::filesystem::exists(path)) {
        if (graph_inputs[i]->is_initializer()) break;  // the rest keep their defaults
        return absl::NotFoundError(absl::StrCat("no ", path, " for graph input '", graph_inputs[i]->name(), "'"));
      }
      ASSIGN_OR_RETURN(ir::io::DataValue data,
                       ir::io::LoadDataValueFile(path, ir::io::DataValueKindOf(graph_inputs[i]->type())));
      ASSIGN_OR_RETURN(interpreter::RuntimeValue v, interpreter::FromDataValue(data));
      inputs.push_back(std::move(v));
    }
  }
  return inputs;
}

absl::StatusOr<Reference> MakeReference(const ir::Model& original, const std::string& inputs_dir,
                                        const verify::EquivalenceOptions& options) {
  Reference ref;
  ASSIGN_OR_RETURN(std::vector<interpreter::RuntimeValue> inputs, MakeInputs(original, inputs_dir, options));
  ref.inputs = std::move(inputs);
  absl::StatusOr<std::vector<interpreter::RuntimeValue>> outputs = verify::RunModel(original, ref.inputs);
  if (!outputs.ok()) {
    return absl::Status(outputs.status().code(),
                        absl::StrCat("cannot verify: the interpreter cannot run the input model: ",
                                     outputs.status().message()));
  }
  ref.outputs = std::move(*outputs);
  return ref;
}

std::string DescribeMatch(const std::vector<verify::OutputDifference>& report) {
  double abs_err = 0, rel_err = 0;
  for (const auto& d : report) {
    abs_err = std::max(abs_err, d.max_abs_error);
    rel_err = std::max(rel_err, d.max_rel_error);
  }
  return absl::StrFormat("%d output%s equal (max abs error %.3g, max rel error %.3g)", report.size(),
                         report.size() == 1 ? "" : "s", abs_err, rel_err);
}

}  // namespace onnx_opt::tools
