// Helpers for the contrib kernels' tests: run a model written in the ONNX text syntax (after the
// checker accepted it), and compare a contrib operator with its decomposition into standard ops.
#ifndef ONNX_OPT_INTERPRETER_TESTING_CONTRIB_TEST_UTIL_H_
#define ONNX_OPT_INTERPRETER_TESTING_CONTRIB_TEST_UTIL_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "equivalence/compare.h"
#include "gtest/gtest.h"
#include "interpreter/evaluator.h"
#include "interpreter/testing/test_util.h"
#include "ir/text/parser.h"
#include "schema/checker/checker.h"

namespace onnx_opt::interpreter::contrib::testing {

using interpreter::testing::F;
using interpreter::testing::I64;
using interpreter::testing::RandomFloats;

inline Tensor I32(std::vector<int64_t> dims, std::vector<int32_t> v) {
  return Tensor::FromVector<int32_t>(DataType::kInt32, std::move(dims), v);
}
inline Tensor U8(std::vector<int64_t> dims, std::vector<uint8_t> v) {
  return Tensor::FromVector<uint8_t>(DataType::kUint8, std::move(dims), v);
}
// n floats of `dims` in [-1, 1), the same for the same seed.
inline Tensor RandomF(std::vector<int64_t> dims, uint32_t seed, float scale = 1.0f) {
  return F(dims, RandomFloats(NumElements(dims), -scale, scale, seed));
}

// `graph` in a model importing opset 23 and com.microsoft 1.
inline std::string Model(const std::string& graph) {
  return absl::StrCat(R"(<ir_version: 10, opset_import: ["" : 23, "com.microsoft" : 1]>)", "\n",
                      graph);
}

// Parses and checks a model, then runs it on `inputs` (by position).
inline absl::StatusOr<std::vector<RuntimeValue>> RunModel(const std::string& text,
                                                          std::vector<RuntimeValue> inputs) {
  absl::StatusOr<std::unique_ptr<ir::Model>> m = ir::text::ParseModel(text);
  if (!m.ok()) return m.status();
  schema::checker::CheckResult check = schema::checker::Check(**m);
  if (!check.errors.empty())
    return absl::InvalidArgumentError(absl::StrCat("checker: ", check.errors[0]));
  Evaluator ev(**m);
  return ev.Run(std::move(inputs));
}

// Runs both models on the same inputs and expects equal outputs by the one comparator (float32
// tolerances unless given).
inline void ExpectSameOutputs(const std::string& contrib_model, const std::string& standard_model,
                              const std::vector<RuntimeValue>& inputs,
                              equivalence::Tolerances tol = {}) {
  absl::StatusOr<std::vector<RuntimeValue>> got = RunModel(contrib_model, inputs);
  ASSERT_TRUE(got.ok()) << got.status();
  absl::StatusOr<std::vector<RuntimeValue>> want = RunModel(standard_model, inputs);
  ASSERT_TRUE(want.ok()) << want.status();
  std::vector<std::string> names;
  for (size_t i = 0; i < want->size(); ++i) names.push_back(absl::StrCat("output ", i));
  absl::Status s =
      equivalence::FirstDifference(equivalence::CompareOutputs(names, *want, *got, tol));
  EXPECT_TRUE(s.ok()) << s;
}

// Expects a run to fail with an error whose message contains `what`.
inline void ExpectError(const std::string& model, const std::vector<RuntimeValue>& inputs,
                        const std::string& what) {
  absl::StatusOr<std::vector<RuntimeValue>> got = RunModel(model, inputs);
  ASSERT_FALSE(got.ok()) << "expected an error containing '" << what << "'";
  EXPECT_NE(std::string(got.status().message()).find(what), std::string::npos) << got.status();
}

}  // namespace onnx_opt::interpreter::contrib::testing

#endif  // ONNX_OPT_INTERPRETER_TESTING_CONTRIB_TEST_UTIL_H_
