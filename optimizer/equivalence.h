// Numerical equivalence: run two models on the same inputs and compare every output.
//   same kind, element type and shape; integers, booleans and strings exactly; floats by
//   |a - b| <= atol + rtol * |b| with NaN matching NaN (b is the reference).
#ifndef ONNX_OPT_OPTIMIZER_EQUIVALENCE_H_
#define ONNX_OPT_OPTIMIZER_EQUIVALENCE_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "interpreter/value.h"
#include "ir/model.h"

namespace onnx_opt::optimizer {

struct Tolerance {
  double rtol = 1e-4;
  double atol = 1e-5;
};

struct EquivalenceOptions {
  Tolerance float32;                     // float, and complex64
  Tolerance float64 = {1e-9, 1e-12};     // double, complex128
  Tolerance float16 = {1e-2, 1e-3};      // float16, bfloat16, float8, float4
  uint64_t seed = 1;
  // Values for symbolic dims by name; other symbolic and unknown dims become `default_dim`.
  std::map<std::string, int64_t> dims;
  // Whole shapes for named inputs (override the declared ones).
  std::map<std::string, std::vector<int64_t>> shapes;
  int64_t default_dim = 1;
};

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

}  // namespace onnx_opt::optimizer

#endif  // ONNX_OPT_OPTIMIZER_EQUIVALENCE_H_
