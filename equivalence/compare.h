// The one comparator: whether a computed output is what was expected. Used by --verify,
// onnx-compare, the Python module, the converter's proofs and every test that checks numbers (the
// conformance tests included), so that "equal" means one thing everywhere.
//
// Rules, per element of a tensor (`expected` is the reference):
//   - kind, element type and shape must agree;
//   - integers, booleans and strings exactly (bit for bit, never through a float);
//   - NaN matches only NaN; an infinity matches only the same infinity; a finite expected value is
//     never matched by an infinite or NaN result;
//   - finite floats (and each part of a complex number) match when
//       |actual - expected| <= atol + rtol * max(|expected|, scale)
//     with scale the root mean square of the expected tensor's finite elements when
//     Tolerances::output_scale is set (rounding errors scale with the output, not the element),
//     else 0;
//   - or, for a lossy rewrite (Tolerances::lossy), finite floats by the whole output's relative L2
//     error, cosine similarity and max abs error (equivalence/equivalence_options.h).
#ifndef ONNX_OPT_EQUIVALENCE_COMPARE_H_
#define ONNX_OPT_EQUIVALENCE_COMPARE_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "equivalence/equivalence_options.h"
#include "interpreter/value.h"

namespace onnx_opt::equivalence {

struct OutputDifference {
  std::string output;  // name of the output
  bool equal = true;
  std::string detail;  // why not
  // Over the elements finite on both sides (the worst tensor of a sequence or map; the worst run).
  double max_abs_error = 0;
  double max_rel_error = 0;
  double rel_l2_error = 0;  // ||actual - expected|| / ||expected||
  double cosine = 1;        // <actual, expected> / (||actual|| ||expected||)
};

// Compares one value; `diff.output` is set to `name`.
OutputDifference CompareValue(const std::string& name, const interpreter::RuntimeValue& expected,
                              const interpreter::RuntimeValue& actual,
                              const Tolerances& tolerances);

// Compares two run results output by output; a missing or extra output is a difference.
std::vector<OutputDifference> CompareOutputs(const std::vector<std::string>& names,
                                             const std::vector<interpreter::RuntimeValue>& expected,
                                             const std::vector<interpreter::RuntimeValue>& actual,
                                             const Tolerances& tolerances);

// The first difference as "output 'y' differs: ...", or OK.
absl::Status FirstDifference(const std::vector<OutputDifference>& diffs);

}  // namespace onnx_opt::equivalence

#endif  // ONNX_OPT_EQUIVALENCE_COMPARE_H_
