// The shrink report of onnx-opt (--report, --report-json): what the model weighed before and after,
// where the bytes are (graph structure, tensor data, external data), which op types went away,
// which passes made the difference, and how far verification saw the outputs move.
#ifndef ONNX_OPT_TOOLS_LIB_SIZE_REPORT_H_
#define ONNX_OPT_TOOLS_LIB_SIZE_REPORT_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "equivalence/equivalence.h"
#include "ir/model.h"
#include "optimizer/pass_manager.h"

namespace onnx_opt::tools {

// Where a saved model's bytes are.
struct ModelBytes {
  int64_t file = 0;            // the .onnx file (or the serialized model, for standard streams)
  int64_t external_files = 0;  // the side files holding external data
  int64_t tensor_data = 0;     // data of initializers and tensor attributes, inline or external
  int64_t inline_tensor_data = 0;
  std::vector<std::string> external_files_named;  // the side files' names, sorted
  // The file minus its inline tensor data: nodes, names, attributes, types, doc strings, metadata.
  int64_t graph() const { return file - inline_tensor_data; }
  int64_t total() const { return file + external_files; }
};

// Measures `model`, which was loaded from (or saved to and loaded again from) a file of `file_size`
// bytes in `model_dir` (where its external data locations point; empty: none may be external).
absl::StatusOr<ModelBytes> MeasureModelBytes(const ir::Model& model, int64_t file_size,
                                             const std::string& model_dir);

// What one pass changed, summed over its runs.
struct PassContribution {
  std::string pass;
  int64_t runs = 0;
  int64_t rewrites = 0;
  int64_t nodes = 0;              // net change (negative: removed)
  int64_t initializer_bytes = 0;  // net change
  double seconds = 0;
};
std::vector<PassContribution> ContributionsOf(const optimizer::PipelineResult& result);

struct VerificationSummary {
  int64_t outputs = 0;
  double max_abs_error = 0;
  double max_rel_error = 0;
  equivalence::Tolerance float32_tolerance;
  // Set when the outputs were judged as wholes (a lossy pipeline): the bounds they met.
  std::optional<equivalence::LossyTolerance> lossy;
  // Per output: max abs error, relative L2 error and cosine similarity against the input model's.
  std::vector<equivalence::OutputDifference> per_output;
};

struct ShrinkReport {
  std::string input;
  std::string output;
  std::string pipeline;
  ModelBytes before;
  ModelBytes after;
  std::map<std::string, int64_t> ops_before;
  std::map<std::string, int64_t> ops_after;
  std::vector<PassContribution> passes;
  std::optional<VerificationSummary> verification;  // absent when not verified
};

VerificationSummary SummarizeVerification(const std::vector<equivalence::OutputDifference>& outputs,
                                          const std::optional<equivalence::LossyTolerance>& lossy,
                                          const equivalence::EquivalenceOptions& options);

std::string FormatReportTable(const ShrinkReport& report);
std::string FormatReportJson(const ShrinkReport& report);

}  // namespace onnx_opt::tools

#endif  // ONNX_OPT_TOOLS_LIB_SIZE_REPORT_H_
