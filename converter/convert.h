// The version converter: moves a model to other opsets of ai.onnx and ai.onnx.ml, one opset step at
// a time, up or down.
//
// At each step, every node of the domain (main graph, If/Loop/Scan bodies at any depth, and
// model-local function bodies, which keep their own opset imports) whose operator's schema in force
// differs between the two opsets is rewritten by the adapter registered for
// (domain, op, from since_version, to since_version) (see adapter.h); a node whose operator has no
// adapter for the change, or whose adapter cannot express it, stops the conversion with an error
// naming the node, the op and the versions. Custom domains are left untouched.
//
// A node that cannot be expressed at the target opset but whose outputs are compile-time constants
// (e.g. a Range over constants below opset 11) is replaced by its values, computed with the
// interpreter.
//
// The input model is never modified: the conversion works on a copy (ir/clone.h) that is
// returned only when every step succeeded.
//
// ir_version: going up, it becomes at least what the target opsets need (never lower than before).
// Going down, it is lowered to the larger of what the target opsets need and what the model's
// content needs (ir_requirements.h), never below; so a model downgraded for an old runtime does
// not claim a newer IR than it uses, and nothing it holds becomes inexpressible.
#ifndef ONNX_OPT_CONVERTER_CONVERT_H_
#define ONNX_OPT_CONVERTER_CONVERT_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "equivalence/equivalence_options.h"
#include "ir/model.h"

namespace onnx_opt::converter {

struct ConvertOptions {
  // Target opset of ai.onnx (unset: keep the model's).
  std::optional<int64_t> onnx_opset;
  // Target opset of ai.onnx.ml (unset: keep the model's).
  std::optional<int64_t> ml_opset;
  // Run type and shape inference on a scratch copy first, so that adapters know the types and
  // ranks of intermediate values (type restrictions, Softmax-13 axis rewrites, negative axes).
  // The converted model's declared types are not changed by this.
  bool infer_types = true;
  // Lower ir_version on a downgrade (see above); off: never lower it.
  bool lower_ir_version = true;
  // Run the original and the converted model with the interpreter on the same random inputs
  // (equivalence/equivalence.h: symbolic dims from `verify_options.dims`) and fail when any output
  // differs or either model does not run.
  bool verify = false;
  equivalence::EquivalenceOptions verify_options;
  // Called before each opset step of each graph scope (main graph, function bodies), with the
  // number of nodes the step will look at: a tool's progress lines.
  std::function<void(const std::string& domain, int64_t from, int64_t to, int64_t nodes)>
      before_step;
};

struct ConvertReport {
  std::optional<int64_t> onnx_from, onnx_to, ml_from, ml_to;
  int64_t ir_from = 0;
  int64_t ir_to = 0;
  std::string ir_reason;        // why ir_version is what it is
  int64_t nodes_adapted = 0;    // nodes whose operator version changed (summed over steps)
  int64_t nodes_rewritten = 0;  // of those, nodes whose adapter changed something
  int64_t nodes_folded = 0;  // nodes replaced by their constant values (not expressible otherwise)
  std::vector<std::string> warnings;  // e.g. type inference problems
};

// The converted copy, or an error naming the first node that could not be converted.
absl::StatusOr<std::unique_ptr<ir::Model>> ConvertModel(const ir::Model& model,
                                                        const ConvertOptions& options,
                                                        ConvertReport* report = nullptr);

// Converts the model it is given, without a copy (the cheapest way when the caller has no further
// use for the input): the converted model, or an error, in which case the model is gone.
// options.verify is not available here (there is no original left to compare with).
absl::StatusOr<std::unique_ptr<ir::Model>> ConvertOwnedModel(std::unique_ptr<ir::Model> model,
                                                             const ConvertOptions& options,
                                                             ConvertReport* report = nullptr);

// Converts `model` in place: all or nothing (on error the model is unchanged).
absl::Status ConvertModelInPlace(ir::Model& model, const ConvertOptions& options,
                                 ConvertReport* report = nullptr);

// The ai.onnx opset a model imports (IR < 3 models without imports: 1), if any.
std::optional<int64_t> OnnxOpsetOf(const ir::Model& model);

// Converts down one step at a time from the model's ai.onnx opset while it succeeds. Returns the
// lowest model reached (the input's copy when not even one step works) and, in `refusal`, why the
// next step down failed ("" when opset 1 was reached).
struct LowestResult {
  std::unique_ptr<ir::Model> model;
  int64_t opset = 0;
  std::string refusal;
};
absl::StatusOr<LowestResult> ConvertToLowestOpset(const ir::Model& model,
                                                  const ConvertOptions& options = {});

}  // namespace onnx_opt::converter

#endif  // ONNX_OPT_CONVERTER_CONVERT_H_
