// Numerical equivalence: run two models on the same inputs and compare every output.
//   same kind, element type and shape; integers, booleans and strings exactly; floats by
//   |a - b| <= atol + rtol * |b| with NaN matching NaN (b is the reference).
#ifndef ONNX_OPT_VERIFY_EQUIVALENCE_H_
#define ONNX_OPT_VERIFY_EQUIVALENCE_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "interpreter/value.h"
#include "ir/model.h"
#include "verify/equivalence_options.h"

namespace onnx_opt::verify {

// Random inputs for `model`'s graph inputs, in order, from the declared types: floats uniform in
// [-1, 1), integers in [0, 4), booleans fair. Inputs with an initializer keep it (left out).
absl::StatusOr<std::vector<interpreter::RuntimeValue>> MakeRandomInputs(const ir::Model& model,
                                                                       const EquivalenceOptions& options);

struct OutputDifference {
  std::string output;       // name of the output
  bool equal = true;
  std::string detail;       // why not, or the error figures
  double max_abs_error = 0;
  double max_rel_error = 0;
};

// Compares two run results output by output (`expected` is the reference).
std::vector<OutputDifference> CompareOutputs(const std::vector<std::string>& names,
                                             const std::vector<interpreter::RuntimeValue>& expected,
                                             const std::vector<interpreter::RuntimeValue>& actual,
                                             const EquivalenceOptions& options);

// Runs a model on inputs.
absl::StatusOr<std::vector<interpreter::RuntimeValue>> RunModel(
    const ir::Model& model, const std::vector<interpreter::RuntimeValue>& inputs);

// Runs `model` on `inputs` and compares with `expected`; OK when all outputs match, else an error
// naming the first output that differs and its worst element.
absl::Status CheckOutputs(const ir::Model& model, const std::vector<interpreter::RuntimeValue>& inputs,
                          const std::vector<interpreter::RuntimeValue>& expected,
                          const EquivalenceOptions& options, std::vector<OutputDifference>* report = nullptr);

// Both models on the same random inputs (seeded), compared.
absl::Status CheckEquivalent(const ir::Model& original, const ir::Model& rewritten,
                             const EquivalenceOptions& options = {},
                             std::vector<OutputDifference>* report = nullptr);

}  // namespace onnx_opt::verify

#endif  // ONNX_OPT_VERIFY_EQUIVALENCE_H_
