#include "passes/testing/pass_test_util.h"

#include "ir/text/parser.h"
#include "ir/text/printer.h"

namespace onnx_opt::passes::testing {

absl::StatusOr<PassTestRun> RunPipelineOnText(const std::string& text, const std::string& pipeline,
                                              const optimizer::PassOptions& options) {
  PassTestRun run;
  absl::StatusOr<std::unique_ptr<ir::Model>> before = ir::text::ParseModel(text);
  if (!before.ok()) return before.status();
  absl::StatusOr<std::unique_ptr<ir::Model>> after = ir::text::ParseModel(text);
  if (!after.ok()) return after.status();
  run.before = std::move(*before);
  run.after = std::move(*after);
  optimizer::PassManagerOptions pm_options;
  pm_options.pass_options = options;
  optimizer::PassManager manager(pm_options);
  absl::StatusOr<optimizer::PipelineResult> result = manager.Run(*run.after, pipeline);
  if (!result.ok()) return result.status();
  run.result = std::move(*result);
  return run;
}

std::vector<std::string> OpTypes(const ir::Graph& graph) {
  std::vector<std::string> out;
  for (const ir::Node* n : graph.nodes()) out.push_back(n->QualifiedOpType());
  return out;
}

std::string PrintedGraph(const ir::Model& model) { return ir::text::PrintGraph(model.graph()); }

std::string CanonicalGraphText(const std::string& model_text) {
  absl::StatusOr<std::unique_ptr<ir::Model>> model = ir::text::ParseModel(model_text);
  if (!model.ok()) return std::string("unparsable expectation: ") + std::string(model.status().message());
  return PrintedGraph(**model);
}

absl::Status ExpectSameOutputs(const ir::Model& before, const ir::Model& after,
                               const optimizer::EquivalenceOptions& options) {
  return optimizer::CheckEquivalent(before, after, options);
}

}  // namespace onnx_opt::passes::testing
