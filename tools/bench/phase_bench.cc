// The steps of a whole-process run (tools/bench/process_bench.cc), each timed in process and warm:
// load, check, convert to opset 21, write the wire bytes and save, on the generated ~700-node
// models. A process pays these once, cold, plus start-up and page faults; here they repeat, so a
// change to one step shows up without the machine's process-level noise (a run of process_bench
// drifts by more than a step's share). Confirm any gain whole-process with process_bench before
// believing it.
//
//   bazel run -c opt //tools/bench:phase_bench [-- --benchmark_filter=Check]
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "benchmark/benchmark.h"
#include "converter/convert.h"
#include "ir/clone.h"
#include "ir/io/model_io.h"
#include "ir/io/wire_export.h"
#include "ir/verifier.h"
#include "platform/heap_tuning.h"
#include "schema/checker/checker.h"
#include "tools/bench/model_zoo.h"
#include "tools/cli/ir_slab_pools.h"

namespace onnx_opt::bench {
namespace {

struct Generated {
  std::string name;
  std::string path;  // the model written once, as the tools would read it
};

// The model at `path`, loaded; aborts the benchmark with a message otherwise.
std::unique_ptr<ir::Model> MustLoad(const std::string& path, benchmark::State& state) {
  absl::StatusOr<std::unique_ptr<ir::Model>> model = ir::io::LoadModel(path);
  if (!model.ok()) {
    state.SkipWithError(std::string(model.status().message()).c_str());
    return nullptr;
  }
  return *std::move(model);
}

void BM_Load(benchmark::State& state, const Generated* g) {
  for (auto _ : state) {
    std::unique_ptr<ir::Model> model = MustLoad(g->path, state);
    if (model == nullptr) return;
    benchmark::DoNotOptimize(model.get());
  }
}

void BM_Verify(benchmark::State& state, const Generated* g) {
  std::unique_ptr<ir::Model> model = MustLoad(g->path, state);
  if (model == nullptr) return;
  for (auto _ : state) benchmark::DoNotOptimize(ir::Verify(*model).ok());
}

void BM_Check(benchmark::State& state, const Generated* g) {
  std::unique_ptr<ir::Model> model = MustLoad(g->path, state);
  if (model == nullptr) return;
  for (auto _ : state) benchmark::DoNotOptimize(schema::checker::Check(*model).ok());
}

// Each iteration converts a fresh clone (the clone is not timed).
void BM_Convert(benchmark::State& state, const Generated* g) {
  std::unique_ptr<ir::Model> model = MustLoad(g->path, state);
  if (model == nullptr) return;
  converter::ConvertOptions options;
  options.onnx_opset = 21;
  for (auto _ : state) {
    state.PauseTiming();
    absl::StatusOr<std::unique_ptr<ir::Model>> copy = ir::CloneModel(*model);
    state.ResumeTiming();
    if (!copy.ok()) {
      state.SkipWithError(std::string(copy.status().message()).c_str());
      return;
    }
    converter::ConvertReport report;
    absl::StatusOr<std::unique_ptr<ir::Model>> converted =
        converter::ConvertOwnedModel(*std::move(copy), options, &report);
    if (!converted.ok()) {
      state.SkipWithError(std::string(converted.status().message()).c_str());
      return;
    }
    benchmark::DoNotOptimize(converted->get());
  }
}

void BM_WriteWire(benchmark::State& state, const Generated* g) {
  std::unique_ptr<ir::Model> model = MustLoad(g->path, state);
  if (model == nullptr) return;
  for (auto _ : state) {
    absl::StatusOr<ir::io::SplicedModel> wire = ir::io::WriteModelWire(*model, {});
    if (!wire.ok()) {
      state.SkipWithError(std::string(wire.status().message()).c_str());
      return;
    }
    benchmark::DoNotOptimize(wire->size);
  }
}

void BM_Save(benchmark::State& state, const Generated* g) {
  std::unique_ptr<ir::Model> model = MustLoad(g->path, state);
  if (model == nullptr) return;
  const std::string out = g->path + ".saved.onnx";
  for (auto _ : state) {
    // A new file, as the tools usually write (writing over one also syncs it: ir/io/atomic_file.h).
    state.PauseTiming();
    std::remove(out.c_str());
    state.ResumeTiming();
    if (absl::Status s = ir::io::SaveModel(*model, out); !s.ok()) {
      state.SkipWithError(std::string(s.message()).c_str());
      return;
    }
  }
  std::remove(out.c_str());
}

}  // namespace
}  // namespace onnx_opt::bench

int main(int argc, char** argv) {
  using namespace onnx_opt::bench;
  // The heap and the mutexes set up as the tools set them (platform/heap_tuning.h,
  // command_line.cc).
  onnx_opt::platform::TuneHeapForTool();
  onnx_opt::cli::UseSlabPoolsForIr();
  benchmark::Initialize(&argc, argv);
  // Debian's Abseil leaves deadlock detection on.
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
  const char* tmp = std::getenv("TMPDIR");
  std::string dir =
      absl::StrCat(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp", "/phase_bench.XXXXXX");
  if (::mkdtemp(dir.data()) == nullptr) {
    std::cerr << "phase_bench: cannot make a folder under " << dir << "\n";
    return 1;
  }
  const std::vector<std::string_view> names = {"cnn-700", "transformer-700"};
  static std::vector<Generated> generated;  // outlives the registered benchmarks
  generated.reserve(names.size());
  for (const GeneratedModel& spec : GeneratedModels()) {
    if (std::find(names.begin(), names.end(), spec.name) == names.end()) continue;
    absl::StatusOr<ZooModel> zoo = spec.make();
    const std::string path = absl::StrCat(dir, "/", std::string(spec.name), ".onnx");
    absl::Status saved = zoo.ok() ? onnx_opt::ir::io::SaveModel(*zoo->model, path) : zoo.status();
    if (!saved.ok()) {
      std::cerr << "phase_bench: " << spec.name << ": " << saved.message() << "\n";
      return 1;
    }
    generated.push_back({std::string(spec.name), path});
  }
  for (const Generated& g : generated) {
    const auto add = [&](const char* step, void (*fn)(benchmark::State&, const Generated*)) {
      benchmark::RegisterBenchmark(absl::StrCat(step, "/", g.name).c_str(), fn, &g)
          ->Unit(benchmark::kMicrosecond);
    };
    add("Load", BM_Load);
    add("Verify", BM_Verify);
    add("Check", BM_Check);
    add("Convert21", BM_Convert);
    add("WriteWire", BM_WriteWire);
    add("Save", BM_Save);
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  for (const Generated& g : generated) std::remove(g.path.c_str());
  ::rmdir(dir.c_str());
  return 0;
}
