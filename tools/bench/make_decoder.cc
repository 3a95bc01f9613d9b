// Writes an exporter-style decoder LLM (tools/bench/decoder_generator.h) for tests and benchmarks:
//
//   make_decoder --out=FOLDER [--name=decoder] [--preset=tiny|small|1b|7b] [--layers=N --hidden=N
//                --heads=N --kv_heads=N --intermediate=N --vocab=N] [--float16] [--cache=false]
//
// Presets: tiny (2 layers, hidden 64, a few hundred KB), small (8 layers, hidden 2048, GQA 32/8:
// ~490M parameters), 1b (16 layers, hidden 2048, intermediate 8192, GQA 32/8, vocab 32000: ~1.2B),
// 7b (Llama-2-7B's shape: 32 layers, hidden 4096, 32 heads, intermediate 11008, vocab 32000: ~6.7B;
// 13.5 GB with --float16). Flags given after a preset override it.
#include <cstdio>
#include <string>

#include "absl/strings/str_format.h"
#include "gflags/gflags.h"
#include "tools/bench/decoder_generator.h"

DEFINE_string(out, "", "folder to write NAME.onnx and NAME.onnx.data into (required)");
DEFINE_string(name, "decoder", "file name stem");
DEFINE_string(preset, "tiny", "tiny, small, 1b or 7b");
DEFINE_int64(layers, 0, "decoder layers (0: the preset's)");
DEFINE_int64(hidden, 0, "hidden size (0: the preset's)");
DEFINE_int64(heads, 0, "query heads (0: the preset's)");
DEFINE_int64(kv_heads, 0, "key/value heads (0: the preset's)");
DEFINE_int64(intermediate, 0, "MLP width (0: the preset's)");
DEFINE_int64(vocab, 0, "vocabulary size (0: the preset's)");
DEFINE_bool(float16, false, "float16 weights and activations (float32 otherwise)");
DEFINE_bool(cache, true, "past/present key and value inputs and outputs per layer");
DEFINE_uint64(seed, 1, "seed of the weights");

namespace {

bool Preset(const std::string& name, onnx_opt::bench::DecoderShape& s) {
  if (name == "tiny") {
    s = {};
  } else if (name == "small") {
    s = {.layers = 8,
         .hidden = 2048,
         .heads = 32,
         .kv_heads = 8,
         .intermediate = 5632,
         .vocab = 32000};
  } else if (name == "1b") {
    s = {.layers = 16,
         .hidden = 2048,
         .heads = 32,
         .kv_heads = 8,
         .intermediate = 8192,
         .vocab = 32000};
  } else if (name == "7b") {
    s = {.layers = 32,
         .hidden = 4096,
         .heads = 32,
         .kv_heads = 32,
         .intermediate = 11008,
         .vocab = 32000};
  } else {
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  gflags::SetUsageMessage(
      "make_decoder --out=FOLDER [--preset=tiny|small|1b|7b] [--float16] [sizes]");
  gflags::SetVersionString("onnx-opt bench");
  gflags::ParseCommandLineFlags(&argc, &argv, true);
  onnx_opt::bench::DecoderShape shape;
  if (FLAGS_out.empty() || argc != 1) {
    std::fprintf(
        stderr,
        "make_decoder: --out=FOLDER is required and takes no other arguments (see --help)\n");
    return 2;
  }
  if (!Preset(FLAGS_preset, shape)) {
    std::fprintf(stderr, "make_decoder: --preset: unknown preset '%s' (tiny, small, 1b, 7b)\n",
                 FLAGS_preset.c_str());
    return 2;
  }
  for (auto [flag, field] : {std::pair{FLAGS_layers, &shape.layers},
                             {FLAGS_hidden, &shape.hidden},
                             {FLAGS_heads, &shape.heads},
                             {FLAGS_kv_heads, &shape.kv_heads},
                             {FLAGS_intermediate, &shape.intermediate},
                             {FLAGS_vocab, &shape.vocab}}) {
    if (flag != 0) *field = flag;
  }
  shape.float16 = FLAGS_float16;
  shape.cache = FLAGS_cache;
  shape.seed = FLAGS_seed;
  std::fprintf(stderr,
               "make_decoder: %lld layers, hidden %lld, %lld/%lld heads, %.2fB parameters ...\n",
               static_cast<long long>(shape.layers), static_cast<long long>(shape.hidden),
               static_cast<long long>(shape.heads), static_cast<long long>(shape.kv_heads),
               static_cast<double>(shape.parameters()) / 1e9);
  absl::StatusOr<onnx_opt::bench::WrittenDecoder> written =
      onnx_opt::bench::WriteDecoder(shape, FLAGS_out, FLAGS_name);
  if (!written.ok()) {
    std::fprintf(stderr, "make_decoder: %s\n", std::string(written.status().message()).c_str());
    return 1;
  }
  std::printf("%s", absl::StrFormat("wrote %s (%d nodes) and %s (%.2f GiB of weights)\n",
                                    written->model_path, written->nodes, written->data_path,
                                    static_cast<double>(written->weight_bytes) / (1 << 30))
                        .c_str());
  return 0;
}
