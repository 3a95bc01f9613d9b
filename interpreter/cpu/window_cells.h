// Which cells of a pooling or convolution window fall inside a range, worked out instead of tried
// one by one: a window may be millions of cells wide while the input it covers is a handful, and a
// loop over its cells (most of them in the padding) would run for minutes.
#ifndef ONNX_OPT_INTERPRETER_CPU_WINDOW_CELLS_H_
#define ONNX_OPT_INTERPRETER_CPU_WINDOW_CELLS_H_

#include <algorithm>
#include <cstdint>

namespace onnx_opt::interpreter {

// The cells k in [0, kernel) whose position first + k * dilation lies in [lo, hi), as [*k_lo,
// *k_hi) (empty: *k_lo == *k_hi). dilation > 0.
inline void WindowCellsIn(int64_t first, int64_t dilation, int64_t kernel, int64_t lo, int64_t hi,
                          int64_t* k_lo, int64_t* k_hi) {
  // Floor division for a possibly negative numerator and a positive divisor.
  auto floor_div = [](int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); };
  int64_t begin = lo <= first ? 0 : -floor_div(first - lo, dilation);  // ceil((lo - first) / d)
  int64_t end = hi <= first ? 0 : floor_div(hi - 1 - first, dilation) + 1;
  begin = std::clamp<int64_t>(begin, 0, kernel);
  end = std::clamp<int64_t>(end, begin, kernel);
  *k_lo = begin;
  *k_hi = end;
}

}  // namespace onnx_opt::interpreter

#endif  // ONNX_OPT_INTERPRETER_CPU_WINDOW_CELLS_H_
