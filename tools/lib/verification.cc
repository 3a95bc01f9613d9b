#include "tools/lib/verification.h"

#include <algorithm>
#include <filesystem>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "interpreter/data_value.h"
#include "ir/io/model_io.h"
#include "ir/status_macros.h"

namespace onnx_opt::tools {
namespace {

const std::string& NameOf(const ir::io::DataValue& data) {
  return data.kind == ir::io::DataValue::Kind::kTensor ? data.tensor.name() : data.name;
}

// Reads a file as the kind of `guess`, or, when the value inside is named after another graph input
// of another kind, again as that one's.
absl::StatusOr<ir::io::DataValue> LoadInputFile(
    const std::string& path, const ir::Value* guess,
    const absl::flat_hash_map<std::string, const ir::Value*>& by_name) {
  const auto kind_of = [](const ir::Value* v) {
    return v != nullptr ? ir::io::DataValueKindOf(v->type()) : ir::io::DataValue::Kind::kTensor;
  };
  ASSIGN_OR_RETURN(ir::io::DataValue data, ir::io::LoadDataValueFile(path, kind_of(guess)));
  if (auto it = by_name.find(NameOf(data));
      it != by_name.end() && kind_of(it->second) != kind_of(guess)) {
    return ir::io::LoadDataValueFile(path, kind_of(it->second));
  }
  return data;
}

absl::Status InFile(const std::string& path, const absl::Status& s) {
  return absl::Status(s.code(), absl::StrCat(path, ": ", s.message()));
}

absl::Status Bind(const std::string& path, const ir::io::DataValue& data,
                  interpreter::RuntimeValue& value) {
  absl::StatusOr<interpreter::RuntimeValue> v = interpreter::FromDataValue(data);
  if (!v.ok()) return InFile(path, v.status());
  value = *std::move(v);
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::vector<interpreter::RuntimeValue>> MakeInputs(
    const ir::Model& model, const std::string& inputs_dir,
    const equivalence::EquivalenceOptions& options) {
  if (inputs_dir.empty()) return equivalence::MakeRandomInputs(model, options);
  const std::vector<ir::Value*>& graph_inputs = model.graph().inputs();
  absl::flat_hash_map<std::string, const ir::Value*> by_name;
  absl::flat_hash_map<const ir::Value*, size_t> position;
  std::vector<const ir::Value*> fed;  // the inputs input_K.pb stand for, in order
  for (size_t i = 0; i < graph_inputs.size(); ++i) {
    by_name[graph_inputs[i]->name()] = graph_inputs[i];
    position[graph_inputs[i]] = i;
    if (!graph_inputs[i]->is_initializer()) fed.push_back(graph_inputs[i]);
  }
  // Files named after an input bind to it; the others to the fed inputs left, in order.
  std::vector<std::pair<std::string, ir::io::DataValue>> unnamed;
  std::vector<interpreter::RuntimeValue> values(graph_inputs.size());
  std::vector<bool> bound(graph_inputs.size(), false);
  for (size_t k = 0;; ++k) {
    const std::string path = absl::StrCat(inputs_dir, "/input_", k, ".pb");
    if (!std::filesystem::exists(path)) break;
    absl::StatusOr<ir::io::DataValue> loaded =
        LoadInputFile(path, k < fed.size() ? fed[k] : nullptr, by_name);
    if (!loaded.ok()) return InFile(path, loaded.status());
    ir::io::DataValue& data = *loaded;
    auto it = by_name.find(NameOf(data));
    if (it == by_name.end()) {
      unnamed.emplace_back(path, std::move(data));
      continue;
    }
    const size_t i = position.at(it->second);
    if (bound[i])
      return absl::InvalidArgumentError(
          absl::StrCat(path, ": a second value for input '", NameOf(data), "'"));
    RETURN_IF_ERROR(Bind(path, data, values[i]));
    bound[i] = true;
  }
  size_t next = 0;
  for (auto& [path, data] : unnamed) {
    while (next < fed.size() && bound[position.at(fed[next])]) ++next;
    if (next == fed.size()) {
      return absl::InvalidArgumentError(
          absl::StrCat(path, ": more input files than graph inputs without an initializer"));
    }
    const size_t i = position.at(fed[next]);
    RETURN_IF_ERROR(Bind(path, data, values[i]));
    bound[i] = true;
  }
  for (const ir::Value* v : fed) {
    if (!bound[position.at(v)]) {
      return absl::NotFoundError(
          absl::StrCat("no input file in ", inputs_dir, " for graph input '", v->name(),
                       "' (input_K.pb is the K-th graph input without an initializer, ",
                       "or the input its value is named after)"));
    }
  }
  // Inputs after the last one given keep their initializers.
  size_t needed = 0;
  for (size_t i = 0; i < bound.size(); ++i) {
    if (bound[i]) needed = i + 1;
  }
  values.resize(needed);
  return values;
}

absl::StatusOr<equivalence::References> MakeReferences(
    const ir::Model& original, const std::string& inputs_dir,
    const equivalence::EquivalenceOptions& options) {
  absl::StatusOr<equivalence::References> refs = [&]() -> absl::StatusOr<equivalence::References> {
    if (inputs_dir.empty()) return equivalence::MakeReferences(original, options);
    ASSIGN_OR_RETURN(std::vector<interpreter::RuntimeValue> inputs,
                     MakeInputs(original, inputs_dir, options));
    return equivalence::ReferenceOn(original, std::move(inputs));
  }();
  if (!refs.ok()) {
    return absl::Status(refs.status().code(),
                        absl::StrCat("cannot verify: ", refs.status().message()));
  }
  return refs;
}

absl::Status Verify(const ir::Model& model, const equivalence::References& references,
                    const equivalence::Tolerances& tolerances, Verification& summary) {
  summary.ran = true;
  summary.sizes.clear();
  for (const equivalence::Reference& r : references.runs) {
    if (!r.sizes.empty()) summary.sizes.push_back(r.sizes);
  }
  summary.notes = references.notes;
  return equivalence::CheckOutputs(model, references, tolerances, &summary.differences);
}

std::string DescribeMatch(const Verification& verification) {
  const std::vector<equivalence::OutputDifference>& report = verification.differences;
  double abs_err = 0, rel_err = 0;
  for (const auto& d : report) {
    abs_err = std::max(abs_err, d.max_abs_error);
    rel_err = std::max(rel_err, d.max_rel_error);
  }
  const std::string at = verification.sizes.empty()
                             ? ""
                             : absl::StrCat(" at ", absl::StrJoin(verification.sizes, " and at "));
  if (verification.lossy) {
    // Lossy: the whole-output figures it was judged by, worst over the outputs.
    double rel_l2 = 0, cosine = 1;
    for (const auto& d : report) {
      rel_l2 = std::max(rel_l2, d.rel_l2_error);
      cosine = std::min(cosine, d.cosine);
    }
    return absl::StrFormat(
        "%d output%s within the lossy tolerance%s (relative L2 error %.3g <= %.3g, cosine "
        "similarity %.6f >= %.6f, "
        "max abs error %.3g)",
        report.size(), report.size() == 1 ? "" : "s", at, rel_l2, verification.lossy->max_rel_l2,
        cosine, verification.lossy->min_cosine, abs_err);
  }
  return absl::StrFormat("%d output%s equal%s (max abs error %.3g, max rel error %.3g)",
                         report.size(), report.size() == 1 ? "" : "s", at, abs_err, rel_err);
}

}  // namespace onnx_opt::tools
