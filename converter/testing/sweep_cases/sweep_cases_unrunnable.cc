// Sweep cases the interpreter cannot run (image codecs; LinearAttention has no kernel yet): they
// are only checked, and converting them below the opset that introduced their operator must be
// refused with a message naming it.
#include "converter/testing/sweep_cases/sweep_cases.h"

namespace onnx_opt::converter {

REGISTER_SWEEP_CASES(unrunnable, {
                                     {"ImageDecoder-20", R"(
      <ir_version: 9, opset_import: ["" : 20]>
      g (uint8[64] stream) => (image) { image = ImageDecoder<pixel_format = "RGB">(stream) })",
                                      /*refusal_only=*/true},
                                     {"LinearAttention-27", R"(
      <ir_version: 13, opset_import: ["" : 27]>
      g (float[1,2,8] q, float[1,2,8] k, float[1,2,8] v) => (out, state) {
        out, state = LinearAttention<q_num_heads = 2, kv_num_heads = 2, update_rule = "linear">(q, k, v)
      })",
                                      /*refusal_only=*/true},
                                 });

}  // namespace onnx_opt::converter
