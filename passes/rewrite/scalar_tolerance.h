// The one rule by which a pattern decides that a constant "is" a given number.
#ifndef ONNX_OPT_PASSES_REWRITE_SCALAR_TOLERANCE_H_
#define ONNX_OPT_PASSES_REWRITE_SCALAR_TOLERANCE_H_

namespace onnx_opt::passes::rewrite {

// True when `actual` equals `wanted` up to |actual - wanted| <= 1e-6 * max(1, |wanted|).
// Exporters compute constants such as 1/6 or 1/sqrt(2) in double and store them as float32, whose
// rounding error (relative 6e-8) this absorbs; anything coarser is a different function, not a
// spelling of the same one. The max(1, ...) makes small wanted values (0, 0.5) compare absolutely.
bool NearScalar(double actual, double wanted);

}  // namespace onnx_opt::passes::rewrite

#endif  // ONNX_OPT_PASSES_REWRITE_SCALAR_TOLERANCE_H_
