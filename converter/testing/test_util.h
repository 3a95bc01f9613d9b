// Helpers for adapter tests: parse a model in the ONNX text syntax, convert it, compare it with the
// expected text, and check numerically (with the interpreter, on random inputs) that both compute
// the same outputs.
#ifndef ONNX_OPT_CONVERTER_TEST_UTIL_H_
#define ONNX_OPT_CONVERTER_TEST_UTIL_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "ir/model.h"

namespace onnx_opt::converter::testing {

// Parses and verifies (fails the test on error; returns null then).
std::unique_ptr<ir::Model> ParseText(std::string_view text);

// Converts ai.onnx to `opset` (types from inference are off unless `infer`).
absl::StatusOr<std::unique_ptr<ir::Model>> ConvertTo(const ir::Model& m, int64_t opset,
                                                     bool infer = false);

// The model printed in the text syntax.
std::string Print(const ir::Model& m);

// Converts `before` to `opset` and expects the result to equal `after` structurally (ir_version
// and opset imports included), to pass the checker, and to compute what `before` computes on random
// inputs (when `numeric`).
void ExpectConversion(std::string_view before, int64_t opset, std::string_view after,
                      bool numeric = true);

// Expects converting `before` to `opset` to fail with a message containing `message_part`.
void ExpectRefusal(std::string_view before, int64_t opset, std::string_view message_part);

// Converts up and back down (or down and back up) and checks outputs at each stage.
void ExpectRoundTrip(std::string_view model, int64_t other_opset);

}  // namespace onnx_opt::converter::testing

#endif  // ONNX_OPT_CONVERTER_TEST_UTIL_H_
