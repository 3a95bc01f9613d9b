// Numerical equivalence: run two models on the same inputs and compare every output with the one
// comparator (equivalence/compare.h). Random inputs come from the declared types; symbolic dims the
// user left free are run at sizes other than 1 (EquivalenceOptions::default_dim), so that a rewrite
// that is right only at batch 1 shows.
#ifndef ONNX_OPT_EQUIVALENCE_EQUIVALENCE_H_
#define ONNX_OPT_EQUIVALENCE_EQUIVALENCE_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "equivalence/compare.h"
#include "equivalence/equivalence_options.h"
#include "interpreter/value.h"
#include "ir/model.h"

namespace onnx_opt::equivalence {

// Random inputs for `model`'s graph inputs, from the declared types: floats uniform in [-1, 1),
// integers in [0, 4), booleans fair; free dims at `options.default_dim` (1 when unset). The vector
// lines up with the graph inputs: an input with an initializer gets an empty value (keep the
// initializer), and trailing ones are left out.
absl::StatusOr<std::vector<interpreter::RuntimeValue>> MakeRandomInputs(
    const ir::Model& model, const EquivalenceOptions& options);

// What a model computes on one set of inputs.
struct Reference {
  std::string
      sizes;  // the free dims' sizes, "N=2, S=2" (empty when there were none, or for given inputs)
  std::vector<interpreter::RuntimeValue> inputs;
  std::vector<interpreter::RuntimeValue> outputs;
};

// The runs of the original model a rewrite is compared with, and what the reader should know about
// them (a size that had to be 1). The names are the original's graph inputs and outputs: a model
// whose inputs differ is fed by name, and one that names the same outputs in another order is
// compared by name.
struct References {
  std::vector<std::string> input_names;
  std::vector<std::string> output_names;
  std::vector<Reference> runs;
  std::vector<std::string> notes;
};

// Runs `original` on random inputs at the sizes verification chooses
// (EquivalenceOptions::default_dim).
absl::StatusOr<References> MakeReferences(const ir::Model& original,
                                          const EquivalenceOptions& options);
// Runs `original` on the given inputs.
absl::StatusOr<References> ReferenceOn(const ir::Model& original,
                                       std::vector<interpreter::RuntimeValue> inputs);

// Runs a model on inputs (lined up with the graph inputs, as MakeRandomInputs makes them).
absl::StatusOr<std::vector<interpreter::RuntimeValue>> RunModel(
    const ir::Model& model, const std::vector<interpreter::RuntimeValue>& inputs);

// Runs `model` on every reference's inputs and compares with its outputs; OK when all match, else
// an error naming the first output that differs, its worst element and the sizes it differed at (or
// why the model did not run, or an input of it the original does not have). `report` gets one entry
// per output, over all runs, once the model has run at every size.
absl::Status CheckOutputs(const ir::Model& model, const References& references,
                          const Tolerances& tolerances,
                          std::vector<OutputDifference>* report = nullptr);

// Both models on the same random inputs (MakeReferences), compared.
absl::Status CheckEquivalent(const ir::Model& original, const ir::Model& rewritten,
                             const EquivalenceOptions& options = {},
                             std::vector<OutputDifference>* report = nullptr);

}  // namespace onnx_opt::equivalence

#endif  // ONNX_OPT_EQUIVALENCE_EQUIVALENCE_H_
