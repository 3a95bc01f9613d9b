// How two models are compared (verify/equivalence.h): tolerances per float width, the seed of the
// random inputs and the sizes of their symbolic dims. A header of its own so that options structs
// (converter::ConvertOptions, the tools' requests) can carry it without including the interpreter.
#ifndef ONNX_OPT_VERIFY_EQUIVALENCE_OPTIONS_H_
#define ONNX_OPT_VERIFY_EQUIVALENCE_OPTIONS_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace onnx_opt::verify {

// An element y' of a floating-point output matches the expected y when
//   |y' - y| <= atol + rtol * max(|y|, rms)
// where rms is the root mean square of the expected tensor's finite values. The rms term is there
// because rounding errors scale with the magnitudes a value was computed from, not with the value
// itself: in a deep network's output of scale 1, an element that comes out near 0 carries the
// same absolute rounding error as the others (numpy's isclose, without it, fails such elements).
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

}  // namespace onnx_opt::verify

#endif  // ONNX_OPT_VERIFY_EQUIVALENCE_OPTIONS_H_
