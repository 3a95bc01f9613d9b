// Writes Llama/Qwen-style decoder LLMs the way current PyTorch exporters spell them (opset 17,
// dynamic batch/sequence/past): token embedding by Gather; per layer RMSNorm as
// Pow/ReduceMean/Add/Sqrt/ Reciprocal/Mul, rotary tables computed from position_ids (inv_freq
// expanded to the batch, MatMul with the positions, Transpose, Concat(freqs, freqs), Cos/Sin, Cast,
// Unsqueeze), rotate_half by Slice/Neg/ Concat, K and V repeated to the query heads by
// Unsqueeze/Expand/Reshape, an optional KV cache concatenated on the sequence axis (present_* graph
// outputs), an additive [batch, 1, seq, total] mask, SwiGLU; then a final RMSNorm and the LM head.
// With float16, weights and activations are float16 and the norms and softmax compute in float32
// between Casts, as Hugging Face models exported in half precision do.
//
// So tests and benchmarks need no download: a few KB for tests, a 7B-class model (13.5 GB of
// float16) for the memory benchmarks. Weights stream to `<name>.onnx.data` (page-aligned, a few MiB
// in memory at any time); the graph is written with protobuf directly, independent of our exporter.
#ifndef ONNX_OPT_TOOLS_BENCH_DECODER_GENERATOR_H_
#define ONNX_OPT_TOOLS_BENCH_DECODER_GENERATOR_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"

namespace onnx_opt::bench {

struct DecoderShape {
  int64_t layers = 2;
  int64_t hidden = 64;
  int64_t heads = 8;
  int64_t kv_heads = 2;
  int64_t intermediate = 128;
  int64_t vocab = 256;
  bool cache = true;     // past_key_i/past_value_i inputs, present_key_i/present_value_i outputs
  bool float16 = false;  // float16 weights and activations (else float32)
  uint64_t seed = 1;

  int64_t head_dim() const { return hidden / heads; }
  // The number of weight elements (what the parameter count of a model card says).
  int64_t parameters() const;
};

struct WrittenDecoder {
  std::string model_path;  // FOLDER/NAME.onnx
  std::string data_path;   // FOLDER/NAME.onnx.data
  int64_t weight_bytes = 0;
  int64_t nodes = 0;
};

// Writes FOLDER/NAME.onnx and FOLDER/NAME.onnx.data. Fails on a shape that makes no model (heads
// not dividing hidden, kv_heads not dividing heads, an odd head size) or when the files cannot be
// written.
absl::StatusOr<WrittenDecoder> WriteDecoder(const DecoderShape& shape, const std::string& folder,
                                            const std::string& name);

}  // namespace onnx_opt::bench

#endif  // ONNX_OPT_TOOLS_BENCH_DECODER_GENERATOR_H_
