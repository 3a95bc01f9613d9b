// Rotary position embedding of one head vector, shared by RotaryEmbedding and GroupQueryAttention.
#ifndef ONNX_OPT_INTERPRETER_KERNELS_CONTRIB_ROTARY_H_
#define ONNX_OPT_INTERPRETER_KERNELS_CONTRIB_ROTARY_H_

#include <cstdint>

namespace onnx_opt::interpreter::contrib {

// Rotates x[0, rot_dim) in place by the angles whose cosines and sines are cos[0, rot_dim / 2) and
// sin[...]; x[rot_dim, ...) is left alone. Not interleaved, element i pairs with i + rot_dim / 2
// (the first half real parts, the second imaginary); interleaved, element 2i pairs with 2i + 1.
inline void RotateHead(float* x, int64_t rot_dim, const float* cos, const float* sin,
                       bool interleaved) {
  const int64_t half = rot_dim / 2;
  for (int64_t i = 0; i < half; ++i) {
    const int64_t a = interleaved ? 2 * i : i, b = interleaved ? 2 * i + 1 : i + half;
    const float re = x[a], im = x[b];
    x[a] = re * cos[i] - im * sin[i];
    x[b] = im * cos[i] + re * sin[i];
  }
}

}  // namespace onnx_opt::interpreter::contrib

#endif  // ONNX_OPT_INTERPRETER_KERNELS_CONTRIB_ROTARY_H_
