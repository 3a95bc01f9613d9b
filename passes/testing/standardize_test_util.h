// Helpers of standardize's tests (passes/standardize_test.cc,
// passes/standardize_attention_test.cc): contrib models in the ONNX text syntax, standardized,
// checked and run against the original.
#ifndef ONNX_OPT_PASSES_TESTING_STANDARDIZE_TEST_UTIL_H_
#define ONNX_OPT_PASSES_TESTING_STANDARDIZE_TEST_UTIL_H_

#include <string>
#include <vector>

#include "passes/standardize.h"

namespace onnx_opt::passes::testing {

// `n` deterministic values in [-scale, scale] as a text literal list.
std::string Values(int n, double phase, double scale = 0.5);
// `n` bytes as a literal list.
std::string Bytes(int n, int seed);
// A model header importing ai.onnx at `opset` and com.microsoft 1.
std::string Header(int opset = 23);
// Runs standardize on `text`; expects no contrib node left, `expected_ops` among the result's ops,
// the result valid and equal to the input.
void ExpectStandardized(const std::string& text, const std::vector<std::string>& expected_ops);
// The report of standardize on `text`.
StandardizeReport ReportOf(const std::string& text);

}  // namespace onnx_opt::passes::testing

#endif  // ONNX_OPT_PASSES_TESTING_STANDARDIZE_TEST_UTIL_H_
