// Real-world-shaped models for whole-model interpreter benchmarks, built in C++ with random weights
// from a fixed seed: ResNet-50, MobileNetV2, a two-layer LSTM, one BERT-base encoder layer and a
// chain of tiny elementwise nodes (the cost per node). Each is laid out the way an exporter
// (PyTorch, opset 17, batch 1) writes it: Conv, BatchNormalization and activations as separate
// nodes, Gelu decomposed into Erf arithmetic, and so on, so that the time per op type looks like
// what users of exported models see.
//
//   absl::StatusOr<ZooModel> resnet = MakeResNet50({.image_size = 224});
//   interpreter::Evaluator evaluator(*resnet->model);
//   auto outputs = evaluator.RunByName(resnet->make_inputs(/*seed=*/1));
#ifndef ONNX_OPT_TOOLS_BENCH_MODEL_ZOO_H_
#define ONNX_OPT_TOOLS_BENCH_MODEL_ZOO_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "interpreter/value.h"
#include "ir/model.h"

namespace onnx_opt::bench {

// Graph inputs by name, as Evaluator::RunByName takes them.
using NamedInputs = absl::flat_hash_map<std::string, interpreter::RuntimeValue>;

struct ZooModel {
  std::string name;
  // Every value has its inferred static type, so costs can be read off the graph.
  std::unique_ptr<ir::Model> model;
  // Random inputs for every graph input, reproducible from `seed`.
  std::function<NamedInputs(uint64_t seed)> make_inputs;
};

struct CnnOptions {
  // Height and width of the square input image; tests use a small one to stay fast in fastbuild.
  // Must be a multiple of 32 (both networks downsample by 32).
  int64_t image_size = 224;
  uint64_t weight_seed = 1;
  // MobileNetV2 only, to scale it for whole-process benchmarks: channels in percent of the paper's
  // (rounded up to a multiple of 8), and each stage's blocks repeated `depth` times.
  int64_t width_percent = 100;
  int64_t depth = 1;
};

struct SequenceOptions {
  // 0: the model's standard length (LSTM 100, BERT 128).
  int64_t sequence_length = 0;
  uint64_t weight_seed = 1;
  // BERT only, to scale it for whole-process benchmarks: encoder layers stacked (names get a
  // "layer.N." prefix when there is more than one), hidden size (FFN 4x) and attention heads, which
  // must divide it.
  int64_t layers = 1;
  int64_t hidden = 768;
  int64_t heads = 12;
};

// ResNet-50 v1 as torchvision builds it (stride on the 3x3 conv of a bottleneck, "v1.5"): input
// "input" float[1,3,S,S], output "output" float[1,1000].
absl::StatusOr<ZooModel> MakeResNet50(const CnnOptions& options = {});

// MobileNetV2 (width 1.0): input "input" float[1,3,S,S], output "output" float[1,1000].
absl::StatusOr<ZooModel> MakeMobileNetV2(const CnnOptions& options = {});

// Two stacked LSTM layers (input 64, hidden 128) over "input" float[T,1,64], then a Gemm on the
// last step's hidden state: output "output" float[1,10].
absl::StatusOr<ZooModel> MakeLstm(const SequenceOptions& options = {});

// One BERT-base encoder layer (hidden 768, 12 heads, FFN 3072; or as SequenceOptions say): inputs
// "hidden_states" float[1,T,768] and "attention_mask" float[1,1,1,T] (0 to attend, -10000 for
// padding), output "output" float[1,T,768].
absl::StatusOr<ZooModel> MakeBertLayer(const SequenceOptions& options = {});

struct SmallOpsOptions {
  int64_t blocks = 200;  // 7 nodes each (a Reshape more every tenth)
  uint64_t weight_seed = 1;
};

// Many tiny nodes: gated residual blocks (Mul, Add, Sigmoid, Tanh on float[1,64]) like a streaming
// audio model's per-frame step, so the run time is the interpreter's cost per node: input "input"
// float[1,64], output "output" float[1,64].
absl::StatusOr<ZooModel> MakeSmallOps(const SmallOpsOptions& options = {});

// A dynamically quantized CNN as onnxruntime's quantize_dynamic writes one (DynamicQuantizeLinear
// -> ConvInteger -> Cast -> Mul by the scales, nine 3x3 layers, 3 to 256 channels, then the
// classifier in float): input "input" float[1,3,S,S], output "output" float[1,10].
absl::StatusOr<ZooModel> MakeQuantizedCnn(const CnnOptions& options = {});

struct BranchyOptions {
  int64_t blocks = 50;
  uint64_t weight_seed = 1;
};

// A streaming step whose every block picks its weights by sample rate, as Silero VAD exports do: an
// If on `sr == 16000` per block (each branch Relu(x * w + b) with weights of its own), added back
// to x. Inputs "input" float[1,64] and "sr" int64 scalar (16000), output "output" float[1,64]. The
// run time is the interpreter's cost per subgraph call.
absl::StatusOr<ZooModel> MakeBranchySteps(const BranchyOptions& options = {});

// A model by name, built when asked for (the large ones take seconds).
struct NamedModelMaker {
  std::string_view name;
  absl::StatusOr<ZooModel> (*make)();
};

// All seven at their standard sizes, in the order above, named as ZooModel::name names them
// ("resnet50", "mobilenetv2", "lstm", "bert_layer", "small_ops", "quantized_cnn",
// "branchy_steps"): for a caller that wants only some of them.
absl::Span<const NamedModelMaker> ModelZooMakers();

// All seven built.
absl::StatusOr<std::vector<ZooModel>> MakeModelZoo();

// The whole-process benchmarks' generated models, sized near issue 16's targets: "cnn-700" and
// "transformer-700" (~700 nodes / ~5 MB), "cnn-2k", "cnn-4k", "cnn-10k" and "transformer-10k"
// (~10,000 nodes / ~60-100 MB): MobileNetV2 scaled by width and depth, and stacked BERT layers.
using GeneratedModel = NamedModelMaker;
absl::Span<const GeneratedModel> GeneratedModels();

// Floating-point operations (2 per multiply-add) of the main graph's Conv, ConvInteger, MatMul,
// Gemm and LSTM nodes, read from the values' static shapes; other ops (elementwise, pooling, ...)
// are not counted.
absl::StatusOr<double> CountMatrixFlops(const ir::Model& model);

}  // namespace onnx_opt::bench

#endif  // ONNX_OPT_TOOLS_BENCH_MODEL_ZOO_H_
