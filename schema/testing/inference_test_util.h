// Test helpers: parse a model in the ONNX text syntax, infer it, and read back value types.
#ifndef ONNX_OPT_SCHEMA_TESTING_INFERENCE_TEST_UTIL_H_
#define ONNX_OPT_SCHEMA_TESTING_INFERENCE_TEST_UTIL_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "ir/model.h"
#include "schema/inference/inference.h"

namespace onnx_opt::schema::inference::testing {

struct Inferred {
  std::unique_ptr<ir::Model> model;
  absl::Status status;
  std::vector<std::string> warnings;

  // The value named `name` anywhere in the model (main graph first, then subgraphs), or null.
  const ir::Value* Find(std::string_view name) const;
  // Its type as Type::ToString() spells it ("tensor(float)[N,?]", "unknown"), or "<no value>".
  std::string Type(std::string_view name) const;
};

// Parses a whole model and infers it. A parse error fails the current test (the returned model is
// then null).
Inferred InferModel(std::string_view text, InferOptions options = {});

// Wraps a graph in a model importing the default domain at `opset`.
Inferred InferGraph(std::string_view graph, int opset = 21, InferOptions options = {});

// The inferred type of `value` in `graph` (see InferGraph), or "WARNING: ..." when inference
// warned (so that an unexpected warning shows up in the failing expectation).
std::string TypeOf(std::string_view graph, std::string_view value = "Y", int opset = 21);

// The warnings of inferring `graph`, joined with "; " ("" when there are none).
std::string WarningsOf(std::string_view graph, int opset = 21);

}  // namespace onnx_opt::schema::inference::testing

#endif  // ONNX_OPT_SCHEMA_TESTING_INFERENCE_TEST_UTIL_H_
