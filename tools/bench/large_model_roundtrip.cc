// Loads a large model with external data, saves it elsewhere (external data again), reloads the
// copy, checks the recorded hashes of a few tensors in both, and prints the peak resident memory.
//
//   large_model_roundtrip INPUT.onnx OUTPUT_FOLDER
#include <sys/resource.h>

#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <string>
#include <vector>

#include "ir/io/model_io.h"
#include "ir/io/testing/large_model_common.h"

namespace {

using namespace onnx_opt;

double PeakRssMiB() {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss / 1024.0;  // KiB on Linux
}

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

// Hashes the tensor's bytes in chunks, dropping mapped pages behind us to keep the resident size
// low.
std::string Hash(const ir::Tensor& t) {
  uint64_t h = ir::io::kFnvSeed;
  t.ScanRaw([&](const char* chunk, size_t n) { h = ir::io::Fnv1a(h, chunk, n); });
  char hex[17];
  std::snprintf(hex, sizeof(hex), "%016" PRIx64, h);
  return hex;
}

// Checks the first, middle and last external tensors; returns the number of mismatches.
int Verify(const ir::Model& model, const char* label) {
  std::vector<const ir::Tensor*> external;
  for (const ir::Value* v : model.graph().initializers()) {
    if (v->initializer()->storage() == ir::Tensor::Storage::kExternal)
      external.push_back(v->initializer());
  }
  if (external.empty()) {
    std::printf("%s: no external tensors\n", label);
    return 1;
  }
  int bad = 0;
  for (size_t i : {size_t{0}, external.size() / 2, external.size() - 1}) {
    const ir::Tensor& t = *external[i];
    std::string want;
    for (const auto& [k, v] : t.metadata_props()) {
      if (k == ir::io::kChecksumKey) want = v;
    }
    const std::string got = Hash(t);
    std::printf("%s: %s %s (%s)\n", label, t.name().c_str(), got == want ? "ok" : "MISMATCH",
                got.c_str());
    bad += got != want;
  }
  return bad;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s INPUT.onnx OUTPUT_FOLDER\n", argv[0]);
    return 2;
  }
  const std::string out = std::string(argv[2]) + "/copy.onnx";
  auto start = std::chrono::steady_clock::now();
  absl::StatusOr<std::unique_ptr<ir::Model>> model = ir::io::LoadModel(argv[1]);
  if (!model.ok()) {
    std::fprintf(stderr, "%s\n", std::string(model.status().message()).c_str());
    return 1;
  }
  uint64_t bytes = 0;
  for (const ir::Value* v : (*model)->graph().initializers()) bytes += v->initializer()->raw_size();
  std::printf("loaded %s: %zu initializers, %.2f GiB, %.2f s, peak RSS %.1f MiB\n", argv[1],
              (*model)->graph().initializers().size(), bytes / double(uint64_t{1} << 30),
              Seconds(start), PeakRssMiB());

  start = std::chrono::steady_clock::now();
  if (absl::Status s = ir::io::SaveModel(**model, out); !s.ok()) {
    std::fprintf(stderr, "%s\n", std::string(s.message()).c_str());
    return 1;
  }
  std::printf("saved %s (+ .data): %.2f s, peak RSS %.1f MiB\n", out.c_str(), Seconds(start),
              PeakRssMiB());

  absl::StatusOr<std::unique_ptr<ir::Model>> copy = ir::io::LoadModel(out);
  if (!copy.ok()) {
    std::fprintf(stderr, "%s\n", std::string(copy.status().message()).c_str());
    return 1;
  }
  int bad = Verify(**model, "input") + Verify(**copy, "copy");

  // Over 2 GiB with no external data asked for: the tensors are marked inline (still views of the
  // mapping, so no memory is used). Serializing to memory must refuse; saving must move the large
  // tensors to external data by itself.
  for (ir::Value* v : (*copy)->graph().initializers()) {
    v->mutable_initializer()->set_storage(ir::Tensor::Storage::kRaw);
    v->mutable_initializer()->mutable_external_data().clear();
  }
  absl::StatusOr<std::string> refused = ir::io::SerializeModel(**copy);
  std::printf("serialize to memory: %s\n",
              refused.ok() ? "UNEXPECTEDLY OK" : std::string(refused.status().message()).c_str());
  bad += refused.ok();
  const std::string auto_out = std::string(argv[2]) + "/auto.onnx";
  start = std::chrono::steady_clock::now();
  if (absl::Status s = ir::io::SaveModel(**copy, auto_out); !s.ok()) {
    std::fprintf(stderr, "%s\n", std::string(s.message()).c_str());
    return 1;
  }
  absl::StatusOr<std::unique_ptr<ir::Model>> auto_copy = ir::io::LoadModel(auto_out);
  if (!auto_copy.ok()) {
    std::fprintf(stderr, "%s\n", std::string(auto_copy.status().message()).c_str());
    return 1;
  }
  int moved = 0;
  for (const ir::Value* v : (*auto_copy)->graph().initializers()) {
    moved += v->initializer()->storage() == ir::Tensor::Storage::kExternal;
  }
  std::printf(
      "saved %s without a threshold: %d tensors moved to external data automatically, %.2f s\n",
      auto_out.c_str(), moved, Seconds(start));
  bad += moved == 0;
  bad += Verify(**auto_copy, "auto");
  std::printf("peak RSS over load, save, reload and checks: %.1f MiB\n", PeakRssMiB());
  return bad == 0 ? 0 : 1;
}
