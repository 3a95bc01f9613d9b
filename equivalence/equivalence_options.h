// How two models are compared (equivalence/equivalence.h): tolerances per float width, the seed of
// the random inputs and the sizes of their symbolic dims. A header of its own so that options
// structs (converter::ConvertOptions, the tools' requests) can carry it without including the
// interpreter.
#ifndef ONNX_OPT_EQUIVALENCE_EQUIVALENCE_OPTIONS_H_
#define ONNX_OPT_EQUIVALENCE_EQUIVALENCE_OPTIONS_H_

#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace onnx_opt::equivalence {

// An element y' of a floating-point output matches the expected y when
//   |y' - y| <= atol + rtol * max(|y|, rms)
// where rms is the root mean square of the expected tensor's finite values (equivalence/compare.h).
// The rms term is there because rounding errors scale with the magnitudes a value was computed
// from, not with the value itself: in a deep network's output of scale 1, an element that comes out
// near 0 carries the same absolute rounding error as the others (numpy's isclose, without it, fails
// such elements).
struct Tolerance {
  double rtol = 1e-4;
  double atol = 1e-5;
};

// A lossy rewrite (float16 weights, quantized weights) moves every element a little: it is judged
// by error figures of whole outputs instead, over the elements finite on both sides (infinities and
// NaN must still match exactly):
//   relative L2 error  ||got - expected|| / ||expected||,
//   cosine similarity  <got, expected> / (||got|| ||expected||),
//   max abs error      max |got - expected|.
struct LossyTolerance {
  double max_rel_l2 = 1e-2;
  double min_cosine = 0.9999;
  double max_abs = std::numeric_limits<double>::infinity();
};

struct Tolerances {
  Tolerance float32;                  // float, and complex64
  Tolerance float64 = {1e-9, 1e-12};  // double, complex128
  Tolerance float16 = {1e-2, 1e-3};   // float16, bfloat16, float8, float4
  // Judge each element at the output's scale too (the rms term above). Off: numpy's isclose.
  bool output_scale = true;
  // Set: float outputs are judged by these whole-output figures instead of element by element.
  std::optional<LossyTolerance> lossy;

  // What ONNX's backend node tests allow: rtol 1e-3, atol 1e-7 for every float type, per element.
  static Tolerances Conformance() {
    const Tolerance t{1e-3, 1e-7};
    return Tolerances{t, t, t, false, std::nullopt};
  }
};

struct EquivalenceOptions {
  Tolerances tolerances;
  uint64_t seed = 1;
  // Sizes for symbolic dims by name (--dim); whole shapes for named inputs (--shape), overriding
  // the declared ones.
  std::map<std::string, int64_t> dims;
  std::map<std::string, std::vector<int64_t>> shapes;
  // The size of every other symbolic or unknown dim. Unset (the default), verification chooses: all
  // at 2, then, when the model is small, again with the symbols at 3 and 4 in turn (so that two
  // symbols mixed up show too); a model that refuses sizes other than 1 is run at 1, with a note.
  std::optional<int64_t> default_dim;
};

}  // namespace onnx_opt::equivalence

#endif  // ONNX_OPT_EQUIVALENCE_EQUIVALENCE_OPTIONS_H_
