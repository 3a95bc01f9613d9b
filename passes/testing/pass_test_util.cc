#include "passes/testing/pass_test_util.h"

#include "ir/status_macros.h"
#include "ir/text/parser.h"
#include "ir/text/printer.h"

namespace onnx_opt::passes::testing {

absl::StatusOr<PassTestRun> RunPipelineOnText(const std::string& text, const std::string& pipeline,
                                              const optimizer::PassOptions& options) {
  PassTestRun run;
  ASSIGN_OR_RETURN(std::unique_ptr<ir::Model> before, ir::text::ParseModel(text));
  ASSIGN_OR_RETURN(std::unique_ptr<ir::Model> after, ir::text::ParseModel(text));
  run.before = std::move(before);
  run.after = std::move(after);
  optimizer::PassManagerOptions pm_options;
  pm_options.pass_options = options;
  optimizer::PassManager manager(pm_options);
  ASSIGN_OR_RETURN(optimizer::PipelineResult result, manager.Run(*run.after, pipeline));
  run.result = std::move(result);
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
  if (!model.ok())
    return std::string("unparsable expectation: ") + std::string(model.status().message());
  return PrintedGraph(**model);
}

absl::Status ExpectSameOutputs(const ir::Model& before, const ir::Model& after,
                               const equivalence::EquivalenceOptions& options) {
  return equivalence::CheckEquivalent(before, after, options);
}

}  // namespace onnx_opt::passes::testing
