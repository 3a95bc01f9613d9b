// Whole-model interpreter speed on models shaped like real exports (tools/bench/model_zoo.h):
// ResNet-50, MobileNetV2, a two-layer LSTM, a BERT-base encoder layer and a chain of tiny nodes,
// batch 1, one interpreter thread unless --threads=N. Before anything is timed or profiled, every
// model's outputs on the CPU's ISA are checked once against the baseline (SSE2) kernels; a mismatch
// stops the run with exit status 1.
//
//   bazel run -c opt //tools/bench:model_bench                      # ms per run, 5 repetitions
//   bazel run -c opt //tools/bench:model_bench -- --profile         # share of run time per op type
//   bazel run -c opt //tools/bench:model_bench -- --threads=2       # GEMMs on 2 threads
//   bazel run -c opt //tools/bench:model_bench -- --limits          # against the machine's limits
//   bazel run -c opt //tools/bench:model_bench -- --models=lstm,bert_layer   # some models only
//
// Each benchmark reports wall-clock ms per run and, where the model has Conv/MatMul/Gemm/LSTM work,
// GFLOP/s, printed as "GFLOP=N/s" (2 per multiply-add of those ops only). Without
// --benchmark_repetitions the binary runs 5 repetitions and prints only their mean, median and
// deviation: single runs of the large models vary by 5-10% on a shared machine; read the medians.
// --profile skips the benchmarks and prints, per model, the op types by share of run time
// (Evaluator::EnableProfiling), averaged over --profile_runs=N runs (default 5) after a warm-up
// run.
// --limits skips the benchmarks too and sets each model against what the machine can do: it probes
// the FMA peak of one core per ISA and the read bandwidth at 1 and N threads (tools/bench/
// machine_limits.h; N = --threads when above 1, else the CPU's logical cores), then prints, per
// model and per configuration (the ISA in use and the baseline, each at 1 and N threads), the
// median ms of --runs=N runs (default 5, after a warm-up run), GFLOP/s as a share of that ISA's
// peak times the threads, and the model's weight bytes per run time as a share of the bandwidth at
// that thread count. --bandwidth_mib=N sizes the bandwidth probe's buffer (default 1024).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <iostream>
#include <map>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "benchmark/benchmark.h"
#include "interpreter/cpu/isa.h"
#include "interpreter/cpu/thread_pool.h"
#include "interpreter/evaluator.h"
#include "ir/status_macros.h"
#include "tools/bench/machine_limits.h"
#include "tools/bench/model_zoo.h"

namespace onnx_opt::bench {
namespace {

constexpr uint64_t kInputSeed = 1;
constexpr int kDefaultRepetitions = 5;
constexpr int kDefaultProfileRuns = 5;
constexpr int kDefaultLimitRuns = 5;
constexpr int64_t kDefaultBandwidthMib = 1024;

// A model with everything a run needs, made once per process: ResNet-50 alone draws 25M weights.
struct BenchModel {
  ZooModel zoo;
  NamedInputs inputs;
  double flops = 0;  // of the Conv/MatMul/Gemm/LSTM nodes; 0 when there are none
};

// The zoo's models named in `names` (all of them when it is empty), in the zoo's order; only those
// are built.
absl::StatusOr<std::vector<BenchModel>> LoadModels(const std::vector<std::string>& names) {
  std::vector<std::string> known;
  for (const NamedModelMaker& maker : ModelZooMakers()) known.emplace_back(maker.name);
  for (const std::string& name : names) {
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      return absl::InvalidArgumentError(absl::StrCat("--models: no model '", name, "' in the zoo (",
                                                     absl::StrJoin(known, ", "), ")"));
    }
  }
  std::vector<BenchModel> models;
  for (const NamedModelMaker& maker : ModelZooMakers()) {
    if (!names.empty() && std::find(names.begin(), names.end(), maker.name) == names.end()) {
      continue;
    }
    ASSIGN_OR_RETURN(ZooModel z, maker.make());
    ASSIGN_OR_RETURN(double flops, CountMatrixFlops(*z.model));
    NamedInputs inputs = z.make_inputs(kInputSeed);
    models.push_back({std::move(z), std::move(inputs), flops});
  }
  return models;
}

// Runs the model once on the baseline (SSE2) kernels and once on the active ISA and compares the
// outputs (|a - b| <= 1e-4 + 1e-3 |b|, the vector kernels reorder sums): a fast wrong kernel must
// not post a figure.
absl::Status CheckAgainstBaselineIsa(const BenchModel& model) {
  const interpreter::Isa active = interpreter::ActiveIsa();
  if (active == interpreter::Isa::kBaseline) return absl::OkStatus();
  RETURN_IF_ERROR(interpreter::SetActiveIsa(interpreter::Isa::kBaseline));
  auto reference = interpreter::Evaluator(*model.zoo.model).RunByName(model.inputs);
  RETURN_IF_ERROR(interpreter::SetActiveIsa(active));
  if (!reference.ok()) return reference.status();
  ASSIGN_OR_RETURN(auto outputs, interpreter::Evaluator(*model.zoo.model).RunByName(model.inputs));
  if (outputs.size() != reference->size()) {
    return absl::InternalError(absl::StrCat(model.zoo.name, ": ", outputs.size(), " outputs, ",
                                            reference->size(), " on the baseline kernels"));
  }
  for (size_t k = 0; k < outputs.size(); ++k) {
    const interpreter::Tensor& got = outputs[k].tensor();
    const interpreter::Tensor& want = (*reference)[k].tensor();
    if (got.dims() != want.dims() || got.dtype() != ir::DataType::kFloat) {
      return absl::InternalError(
          absl::StrCat(model.zoo.name, ": output ", k, " differs in shape or type"));
    }
    for (int64_t i = 0; i < got.size(); ++i) {
      const double a = got.data<float>()[i], b = want.data<float>()[i];
      if (!(std::abs(a - b) <= 1e-4 + 1e-3 * std::abs(b))) {
        return absl::InternalError(absl::StrFormat(
            "%s: output %d element %d is %.9g on %s but %.9g on the baseline kernels",
            model.zoo.name, k, i, a, std::string(interpreter::IsaName(active)), b));
      }
    }
  }
  return absl::OkStatus();
}

// Checks every model once before anything is timed or profiled; a mismatch stops the run with exit
// status 1 (a skipped benchmark would leave the other figures and a zero status). On a CPU whose
// best ISA is the baseline there is nothing to compare with, and the output says so.
bool CheckAllAgainstBaselineIsa(const std::vector<BenchModel>& models) {
  if (interpreter::ActiveIsa() == interpreter::Isa::kBaseline) {
    std::cerr << "model_bench: the vector kernels are the baseline ones: outputs NOT checked "
                 "against another ISA\n";
    return true;
  }
  for (const BenchModel& m : models) {
    if (absl::Status st = CheckAgainstBaselineIsa(m); !st.ok()) {
      std::cerr << "model_bench: " << st.message() << "; no figures are valid, stopping\n";
      return false;
    }
  }
  std::cerr << "model_bench: outputs on " << interpreter::IsaName(interpreter::ActiveIsa())
            << " match the baseline kernels for every model\n";
  return true;
}

void BM_Model(benchmark::State& state, const BenchModel* model) {
  // One evaluator for all iterations, as a caller running a model repeatedly would keep one.
  interpreter::Evaluator evaluator(
      *model->zoo.model,
      {.cache_constants = true, .keep_weight_pages = true, .pack_weights = true});
  for (auto _ : state) {
    absl::StatusOr<std::vector<interpreter::RuntimeValue>> outputs =
        evaluator.RunByName(model->inputs);
    if (!outputs.ok()) {
      state.SkipWithError(std::string(outputs.status().message()).c_str());
      return;
    }
    benchmark::DoNotOptimize(outputs->data());
  }
  if (model->flops > 0) {
    // A rate over the benchmark's time, which is wall-clock time here (UseRealTime); the report
    // prints it as "GFLOP=12.3/s".
    state.counters["GFLOP"] =
        benchmark::Counter(model->flops * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
  }
}

void RegisterBenchmarks(const std::vector<BenchModel>& models) {
  for (const BenchModel& m : models) {
    benchmark::RegisterBenchmark(m.zoo.name.c_str(), BM_Model, &m)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  }
}

// --- Profile mode
// ----------------------------------------------------------------------------------

struct ProfileRow {
  std::string op;
  double calls_per_run = 0;
  double ms_per_run = 0;
  double share = 0;  // of the wall time of a run
};

// Runs `model` once to warm up, then `runs` times with profiling on; rows sorted by share, plus
// "(between ops)" for the evaluator's own time that no op accounts for.
absl::StatusOr<std::vector<ProfileRow>> ProfileModel(const BenchModel& model, int runs,
                                                     double* ms_per_run) {
  interpreter::Evaluator evaluator(
      *model.zoo.model, {.cache_constants = true, .keep_weight_pages = true, .pack_weights = true});
  RETURN_IF_ERROR(evaluator.RunByName(model.inputs).status());
  std::map<std::string, interpreter::Evaluator::OpProfile> profile;
  evaluator.EnableProfiling(&profile);
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < runs; ++i) {
    RETURN_IF_ERROR(evaluator.RunByName(model.inputs).status());
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::vector<ProfileRow> rows;
  double op_seconds = 0;
  for (const auto& [op, p] : profile) {
    rows.push_back(
        {op, static_cast<double>(p.calls) / runs, p.seconds * 1e3 / runs, p.seconds / seconds});
    op_seconds += p.seconds;
  }
  rows.push_back(
      {"(between ops)", 0, (seconds - op_seconds) * 1e3 / runs, (seconds - op_seconds) / seconds});
  std::sort(rows.begin(), rows.end(),
            [](const ProfileRow& a, const ProfileRow& b) { return a.share > b.share; });
  *ms_per_run = seconds * 1e3 / runs;
  return rows;
}

void PrintProfile(const BenchModel& model, double ms_per_run, const std::vector<ProfileRow>& rows) {
  std::cout << absl::StrFormat("\n%s: %.2f ms per run", model.zoo.name, ms_per_run);
  if (model.flops > 0) {
    std::cout << absl::StrFormat(", %.3f GFLOP in Conv/MatMul/Gemm/LSTM (%.1f GFLOP/s)",
                                 model.flops * 1e-9, model.flops * 1e-6 / ms_per_run);
  }
  std::cout << "\n";
  std::cout << absl::StrFormat("  %-22s %10s %12s %7s\n", "op type", "calls/run", "ms/run",
                               "share");
  for (const ProfileRow& row : rows) {
    std::cout << absl::StrFormat("  %-22s %10.0f %12.3f %6.1f%%\n", row.op, row.calls_per_run,
                                 row.ms_per_run, 100.0 * row.share);
  }
}

int RunProfiles(const std::vector<BenchModel>& models, int runs) {
  for (const BenchModel& m : models) {
    double ms_per_run = 0;
    absl::StatusOr<std::vector<ProfileRow>> rows = ProfileModel(m, runs, &ms_per_run);
    if (!rows.ok()) {
      std::cerr << "model_bench: " << m.zoo.name << ": " << rows.status().message() << "\n";
      return 1;
    }
    PrintProfile(m, ms_per_run, *rows);
  }
  return 0;
}

// --- Limits mode
// -----------------------------------------------------------------------------------

// Bytes of the main graph's initializers: what a run reads at least once. A figure per run time is
// a floor on the weight traffic (an LSTM reads its weights at every step, and weights small enough
// to stay in a cache are not read from memory at all, so the share of the bandwidth can pass 100%).
// Subgraph initializers are left out: of an If's two branches only one runs.
int64_t WeightBytes(const ir::Model& model) {
  int64_t bytes = 0;
  for (const ir::Value* value : model.graph().initializers()) {
    if (value->initializer() != nullptr) {
      bytes += static_cast<int64_t>(value->initializer()->raw_size());
    }
  }
  return bytes;
}

// One way to run the models: an ISA at a thread count.
struct RunConfig {
  interpreter::Isa isa;
  int threads;
};

std::string ConfigName(const RunConfig& config) {
  return absl::StrCat(std::string(interpreter::IsaName(config.isa)), " x", config.threads);
}

// The median wall time of `runs` runs after a warm-up run (which caches the constants, packs the
// weights and starts the threads), on one evaluator as BM_Model keeps one, in `config`. The ISA and
// thread count in force before are restored.
absl::StatusOr<double> MedianRunSeconds(const BenchModel& model, const RunConfig& config,
                                        int runs) {
  const interpreter::Isa previous_isa = interpreter::ActiveIsa();
  const int previous_threads = interpreter::NumThreads();
  RETURN_IF_ERROR(interpreter::SetActiveIsa(config.isa));
  interpreter::SetNumThreads(config.threads);
  auto time_runs = [&]() -> absl::StatusOr<double> {
    interpreter::Evaluator evaluator(
        *model.zoo.model,
        {.cache_constants = true, .keep_weight_pages = true, .pack_weights = true});
    RETURN_IF_ERROR(evaluator.RunByName(model.inputs).status());
    std::vector<double> seconds;
    for (int i = 0; i < runs; ++i) {
      const auto start = std::chrono::steady_clock::now();
      absl::StatusOr<std::vector<interpreter::RuntimeValue>> outputs =
          evaluator.RunByName(model.inputs);
      seconds.push_back(
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
      RETURN_IF_ERROR(outputs.status());
    }
    return Median(std::move(seconds));
  };
  absl::StatusOr<double> median = time_runs();
  interpreter::SetNumThreads(previous_threads);
  RETURN_IF_ERROR(interpreter::SetActiveIsa(previous_isa));
  return median;
}

// The probes' figures, each measured once: the FMA peak of one core per ISA timed, and the read
// bandwidth per thread count timed.
struct MeasuredLimits {
  std::map<interpreter::Isa, double> peak_gflops;  // one core
  std::map<int, double> bandwidth_gbs;             // by thread count
};

absl::StatusOr<MeasuredLimits> MeasureLimits(const std::vector<RunConfig>& configs,
                                             int64_t bandwidth_bytes) {
  MeasuredLimits limits;
  for (const RunConfig& config : configs) {
    if (!limits.peak_gflops.count(config.isa)) {
      limits.peak_gflops[config.isa] = PeakGflops(config.isa);
    }
    if (!limits.bandwidth_gbs.count(config.threads)) {
      ASSIGN_OR_RETURN(limits.bandwidth_gbs[config.threads],
                       ReadBandwidthGBs(config.threads, {.bytes = bandwidth_bytes}));
    }
  }
  return limits;
}

// A share in percent, or "-" when there is nothing to share.
std::string Percent(double part, double whole) {
  return whole > 0 && part > 0 ? absl::StrFormat("%.1f%%", 100 * part / whole) : "-";
}

int RunLimits(const std::vector<BenchModel>& models, int many_threads, int runs,
              int64_t bandwidth_bytes) {
  const interpreter::Isa active = interpreter::ActiveIsa();
  std::vector<interpreter::Isa> isas = {active};
  if (active != interpreter::Isa::kBaseline) isas.push_back(interpreter::Isa::kBaseline);
  std::vector<int> thread_counts = {1};
  if (many_threads > 1) thread_counts.push_back(many_threads);
  std::vector<RunConfig> configs;
  for (interpreter::Isa isa : isas) {
    for (int threads : thread_counts) configs.push_back({isa, threads});
  }

  absl::StatusOr<MeasuredLimits> limits = MeasureLimits(configs, bandwidth_bytes);
  if (!limits.ok()) {
    std::cerr << "model_bench: " << limits.status().message() << "\n";
    return 1;
  }
  std::cout << "CPU: " << CpuModelName() << "; ISA in use: " << interpreter::IsaName(active)
            << "\n";
  for (const auto& [isa, gflops] : limits->peak_gflops) {
    std::cout << absl::StrFormat("peak of one core, %s (FMA probe): %.1f GFLOP/s\n",
                                 std::string(interpreter::IsaName(isa)), gflops);
  }
  for (const auto& [threads, gbs] : limits->bandwidth_gbs) {
    std::cout << absl::StrFormat("read bandwidth, %d thread(s): %.2f GB/s\n", threads, gbs);
  }
  // The N-thread peak is the one-core peak times N: what N threads reach when each has a core of
  // its own. GFLOP/s counts Conv/ConvInteger/MatMul/Gemm/LSTM work only and sets ConvInteger's
  // integer operations against the float peak.
  std::cout << absl::StrFormat("\n%-14s %-12s %10s %9s %7s %10s %12s %7s\n", "model", "config",
                               "ms", "GFLOP/s", "%peak", "weight MB", "weight GB/s", "%bw");
  for (const BenchModel& model : models) {
    const double weight_bytes = static_cast<double>(WeightBytes(*model.zoo.model));
    for (const RunConfig& config : configs) {
      absl::StatusOr<double> seconds = MedianRunSeconds(model, config, runs);
      if (!seconds.ok()) {
        std::cerr << "model_bench: " << model.zoo.name << " on " << ConfigName(config) << ": "
                  << seconds.status().message() << "\n";
        return 1;
      }
      const double gflops = model.flops / *seconds / 1e9;
      const double weight_gbs = weight_bytes / *seconds / 1e9;
      std::cout << absl::StrFormat(
          "%-14s %-12s %10.3f %9s %7s %10.2f %12.2f %7s\n", model.zoo.name, ConfigName(config),
          *seconds * 1e3, model.flops > 0 ? absl::StrFormat("%.1f", gflops) : "-",
          Percent(gflops, limits->peak_gflops[config.isa] * config.threads), weight_bytes / 1e6,
          weight_gbs, Percent(weight_gbs, limits->bandwidth_gbs[config.threads]));
      std::cout.flush();  // a row as soon as it is measured: the whole table takes minutes
    }
  }
  return 0;
}

// --- Command line
// ----------------------------------------------------------------------------------

struct Flags {
  bool profile = false;
  int profile_runs = kDefaultProfileRuns;
  int threads = 1;
  bool limits = false;
  int limit_runs = kDefaultLimitRuns;
  int64_t bandwidth_mib = kDefaultBandwidthMib;
  std::vector<std::string> models;  // empty: all of them
};

// The positive count in "--name=COUNT", into `count`.
template <typename Int>
absl::Status ParseCount(const std::string& arg, std::string_view name, Int* count) {
  if (!absl::SimpleAtoi(arg.substr(name.size()), count) || *count <= 0) {
    return absl::InvalidArgumentError(absl::StrCat("bad ", arg, ": expected a positive count"));
  }
  return absl::OkStatus();
}

// Takes our own flags out of argv (Google Benchmark rejects flags it does not know) and, unless the
// user chose a repetition count, asks for repetitions with aggregates only. A per-benchmark
// Repetitions() would override --benchmark_repetitions, so the default goes in as a flag instead.
absl::StatusOr<Flags> ParseFlags(int& argc, char** argv, std::vector<std::string>& storage) {
  Flags flags;
  std::vector<char*> kept = {argv[0]};
  bool repetitions_given = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--profile") {
      flags.profile = true;
    } else if (arg == "--limits") {
      flags.limits = true;
    } else if (arg.rfind("--profile_runs=", 0) == 0) {
      RETURN_IF_ERROR(ParseCount(arg, "--profile_runs=", &flags.profile_runs));
    } else if (arg.rfind("--threads=", 0) == 0) {
      RETURN_IF_ERROR(ParseCount(arg, "--threads=", &flags.threads));
    } else if (arg.rfind("--runs=", 0) == 0) {
      RETURN_IF_ERROR(ParseCount(arg, "--runs=", &flags.limit_runs));
    } else if (arg.rfind("--bandwidth_mib=", 0) == 0) {
      RETURN_IF_ERROR(ParseCount(arg, "--bandwidth_mib=", &flags.bandwidth_mib));
    } else if (arg.rfind("--models=", 0) == 0) {
      flags.models = absl::StrSplit(arg.substr(std::strlen("--models=")), ',', absl::SkipEmpty());
    } else {
      repetitions_given |= arg.rfind("--benchmark_repetitions", 0) == 0;
      kept.push_back(argv[i]);
    }
  }
  if (!repetitions_given) {
    storage = {absl::StrCat("--benchmark_repetitions=", kDefaultRepetitions),
               "--benchmark_report_aggregates_only=true"};
    for (std::string& s : storage) kept.push_back(s.data());
  }
  argc = static_cast<int>(kept.size());
  std::copy(kept.begin(), kept.end(), argv);
  return flags;
}

int Main(int argc, char** argv) {
  // Room for the two default flags ParseFlags may add.
  std::vector<char*> args(argv, argv + argc);
  args.resize(argc + 2, nullptr);
  std::vector<std::string> added_flags;
  absl::StatusOr<Flags> flags = ParseFlags(argc, args.data(), added_flags);
  if (!flags.ok()) {
    std::cerr << "model_bench: " << flags.status().message() << "\n";
    return 2;
  }
  interpreter::SetNumThreads(flags->threads);
  benchmark::AddCustomContext("interpreter_threads", absl::StrCat(flags->threads));
  benchmark::Initialize(&argc, args.data());
  if (benchmark::ReportUnrecognizedArguments(argc, args.data())) return 2;
  absl::StatusOr<std::vector<BenchModel>> models = LoadModels(flags->models);
  if (!models.ok()) {
    std::cerr << "model_bench: cannot build the models: " << models.status().message() << "\n";
    return absl::IsInvalidArgument(models.status()) ? 2 : 1;
  }
  if (!CheckAllAgainstBaselineIsa(*models)) return 1;
  if (flags->profile) return RunProfiles(*models, flags->profile_runs);
  if (flags->limits) {
    const int many_threads =
        flags->threads > 1 ? flags->threads
                           : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    return RunLimits(*models, many_threads, flags->limit_runs, flags->bandwidth_mib << 20);
  }
  RegisterBenchmarks(*models);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

}  // namespace
}  // namespace onnx_opt::bench

int main(int argc, char** argv) { return onnx_opt::bench::Main(argc, argv); }
