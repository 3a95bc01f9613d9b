// Helpers for kernel unit tests: build a one-node graph, run it, read results.
#ifndef ONNX_OPT_INTERPRETER_TEST_UTIL_H_
#define ONNX_OPT_INTERPRETER_TEST_UTIL_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "interpreter/evaluator.h"
#include "ir/graph.h"

namespace onnx_opt::interpreter::testing {

// A graph with one node `op` (domain ""), inputs named in0..inN-1, `num_outputs` outputs.
struct OneNode {
  std::unique_ptr<ir::Graph> graph = std::make_unique<ir::Graph>("test");
  ir::Node* node = nullptr;

  OneNode(const std::string& op, size_t num_inputs, size_t num_outputs = 1) {
    std::vector<ir::Value*> ins;
    for (size_t i = 0; i < num_inputs; ++i) ins.push_back(graph->AddInput("in" + std::to_string(i)));
    std::vector<std::string> outs;
    for (size_t i = 0; i < num_outputs; ++i) outs.push_back("out" + std::to_string(i));
    node = graph->AddNode(op, ins, outs);
    for (size_t i = 0; i < num_outputs; ++i) graph->AddOutput(node->output(i));
  }
  absl::StatusOr<std::vector<RuntimeValue>> Run(std::vector<RuntimeValue> inputs, int64_t opset = 21) {
    Evaluator ev(*graph, {{"", opset}});
    return ev.Run(std::move(inputs));
  }
};

inline Tensor F(std::vector<int64_t> dims, std::vector<float> v) {
  return Tensor::FromVector<float>(ir::DataType::kFloat, std::move(dims), v);
}
inline Tensor I64(std::vector<int64_t> dims, std::vector<int64_t> v) {
  return Tensor::FromVector<int64_t>(ir::DataType::kInt64, std::move(dims), v);
}

}  // namespace onnx_opt::interpreter::testing

#endif  // ONNX_OPT_INTERPRETER_TEST_UTIL_H_
