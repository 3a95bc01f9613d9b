// Test helpers for passes: a model in ONNX text syntax goes in, a pipeline runs, and the test
// checks the resulting graph and that the interpreter computes the same outputs before and after.
#ifndef ONNX_OPT_PASSES_TESTING_PASS_TEST_UTIL_H_
#define ONNX_OPT_PASSES_TESTING_PASS_TEST_UTIL_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "equivalence/equivalence.h"
#include "ir/model.h"
#include "optimizer/pass_manager.h"

namespace onnx_opt::passes::testing {

struct PassTestRun {
  std::unique_ptr<ir::Model> before;  // the model as parsed
  std::unique_ptr<ir::Model> after;   // the same text, parsed again and rewritten
  optimizer::PipelineResult result;
};

// Parses `text` twice and runs `pipeline` on the second copy (structural verification on).
absl::StatusOr<PassTestRun> RunPipelineOnText(const std::string& text, const std::string& pipeline,
                                              const optimizer::PassOptions& options = {});

// The op types of the main graph's nodes, in order ("Conv", "com.x::Op").
std::vector<std::string> OpTypes(const ir::Graph& graph);

// The main graph of `model` printed in text syntax, and the same for a graph given as model text
// (parsed and printed again, so spacing does not matter).
std::string PrintedGraph(const ir::Model& model);
std::string CanonicalGraphText(const std::string& model_text);

// Runs both models on the same seeded random inputs and compares the outputs.
absl::Status ExpectSameOutputs(const ir::Model& before, const ir::Model& after,
                               const equivalence::EquivalenceOptions& options = {});

}  // namespace onnx_opt::passes::testing

// EXPECT that an absl::Status is OK, printing it when it is not.
#define EXPECT_OK(expr)                    \
  do {                                     \
    const ::absl::Status status_ = (expr); \
    EXPECT_TRUE(status_.ok()) << status_;  \
  } while (0)

#endif  // ONNX_OPT_PASSES_TESTING_PASS_TEST_UTIL_H_
