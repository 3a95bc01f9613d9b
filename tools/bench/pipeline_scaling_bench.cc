// How the default pipeline's time grows with model size: synthetic chains and DAGs of 10^3 to 10^6
// nodes. The "ns_per_node" counter should stay flat (within 2x) across sizes.
//
// The process sets up its heap and the IR's slab pools as the tools do (platform/heap_tuning.h:
// reserved, marked for huge pages; tools/cli/ir_slab_pools.h), since that is how onnx-opt runs the
// pipeline; --glibc_default_heap measures with glibc's defaults and IR objects on the heap instead,
// as a library user embedding the optimizer would get; --no_slab_pools keeps the tools' heap but
// puts IR objects on it, to tell what the pools alone are worth.
#include <cstring>
#include <map>
#include <string>

#include "benchmark/benchmark.h"
#include "optimizer/pass_manager.h"
#include "platform/heap_tuning.h"
#include "tools/bench/synthetic_models.h"
#include "tools/cli/ir_slab_pools.h"

namespace onnx_opt::bench {
namespace {

template <std::unique_ptr<ir::Model> (*Make)(int64_t)>
void BM_DefaultPipeline(benchmark::State& state) {
  const int64_t nodes = state.range(0);
  int64_t before = 0, after = 0;
  std::map<std::string, double> per_pass;
  for (auto _ : state) {
    state.PauseTiming();
    std::unique_ptr<ir::Model> model = Make(nodes);
    before = static_cast<int64_t>(model->graph().num_nodes());
    optimizer::PassManagerOptions options;
    // The structural verifier runs after every pass in tests; a production run does not need it.
    options.verify_structure = false;
    optimizer::PassManager manager(options);
    state.ResumeTiming();
    auto result = manager.Run(*model, "default");
    if (!result.ok()) {
      state.SkipWithError(std::string(result.status().message()).c_str());
      return;
    }
    state.PauseTiming();
    // Per-pass share, in ns per input node, to see which pass grows with size.
    for (const optimizer::PassRun& run : result->runs) {
      per_pass[run.pass] += run.seconds * 1e9 / static_cast<double>(before);
    }
    after = static_cast<int64_t>(model->graph().num_nodes());
    model.reset();
    state.ResumeTiming();
  }
  for (const auto& [pass, ns] : per_pass) {
    if (ns / state.iterations() >= 20) state.counters[pass] = ns / state.iterations();
  }
  state.counters["nodes_before"] = static_cast<double>(before);
  state.counters["nodes_after"] = static_cast<double>(after);
  state.counters["ns_per_node"] =
      benchmark::Counter(static_cast<double>(before) * state.iterations(),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

std::unique_ptr<ir::Model> Dag(int64_t nodes) { return MakeDag(nodes); }

// The baseline every pass pays: one walk over the node list reading each node's op type. Its time
// per node shows how much of the pipeline's growth is memory access rather than pass logic.
void BM_WalkNodes(benchmark::State& state) {
  std::unique_ptr<ir::Model> model = MakeChain(state.range(0));
  const int64_t nodes = static_cast<int64_t>(model->graph().num_nodes());
  for (auto _ : state) {
    int64_t adds = 0;
    for (const ir::Node* n : model->graph().nodes()) adds += n->op_type() == "Add";
    benchmark::DoNotOptimize(adds);
  }
  state.counters["ns_per_node"] =
      benchmark::Counter(static_cast<double>(nodes) * state.iterations(),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_WalkNodes)
    ->Name("walk")
    ->RangeMultiplier(10)
    ->Range(1000, 1000000)
    ->Unit(benchmark::kMicrosecond);

BENCHMARK(BM_DefaultPipeline<MakeChain>)
    ->Name("chain")
    ->RangeMultiplier(10)
    ->Range(1000, 1000000)
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->UseRealTime();
BENCHMARK(BM_DefaultPipeline<Dag>)
    ->Name("dag")
    ->RangeMultiplier(10)
    ->Range(1000, 1000000)
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->UseRealTime();

}  // namespace
}  // namespace onnx_opt::bench

int main(int argc, char** argv) {
  bool default_heap = false;
  bool slab_pools = true;
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--glibc_default_heap") == 0) {
      default_heap = true;
      slab_pools = false;
    } else if (std::strcmp(argv[i], "--no_slab_pools") == 0) {
      slab_pools = false;
    } else {
      argv[kept++] = argv[i];
    }
  }
  argc = kept;
  if (!default_heap) onnx_opt::platform::TuneHeapForTool();
  if (slab_pools) onnx_opt::cli::UseSlabPoolsForIr();
  benchmark::AddCustomContext(
      "heap", default_heap ? "glibc defaults" : "as the tools set it up (huge pages)");
  benchmark::AddCustomContext("ir_objects",
                              slab_pools ? "slab pools (as the tools)" : "on the heap");
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
