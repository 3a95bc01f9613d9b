// onnx-run: runs a model with the bundled interpreter on inputs read from a folder (input_K.pb) or
// made at random, and writes the outputs as output_K.pb (the layout of ONNX's node tests).
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "equivalence/equivalence.h"
#include "interpreter/cpu/thread_pool.h"
#include "interpreter/data_value.h"
#include "interpreter/evaluator.h"
#include "ir/io/model_io.h"
#include "ir/resident_weights.h"
#include "schema/checker/checker.h"
#include "tools/cli/command_line.h"
#include "tools/cli/input_flags.h"
#include "tools/cli/runtime_options.h"
#include "tools/cli/vector_kernels.h"
#include "tools/cli/version_text.h"
#include "tools/lib/model_check.h"
#include "tools/lib/model_source.h"
#include "tools/lib/model_steps.h"
#include "tools/lib/verification.h"

DEFINE_string(outputs, "", "DIR: write output_K.pb files into DIR (created if missing)");
DEFINE_bool(time, false,
            "print wall time per operator type (and in total), the vector kernels, threads and "
            "peak memory to "
            "stderr");
DEFINE_int32(
    repeat, 1,
    "N: run the model N times; nodes computed from constants only run on the first run alone and "
    "weights mapped from the model's files stay resident between runs, MatMul weights are packed "
    "for the GEMM once; with --time the first run "
    "is a warm-up and the figures are the median total and the mean per op type of the other "
    "runs");

namespace onnx_opt::tools {
namespace {

constexpr char kUsage[] =
    "usage: onnx-run MODEL [--inputs=DIR] [--outputs=DIR] [options]\n"
    "\n"
    "Runs MODEL with the bundled CPU interpreter. Inputs are read from DIR/input_0.pb, input_1.pb, "
    "...\n"
    "(TensorProto, or SequenceProto/OptionalProto/MapProto by the input's type): input_K.pb is the "
    "K-th\n"
    "graph input that has no initializer (IR < 4 models list their weights among the inputs), or "
    "the\n"
    "input its value is named after, which may also override an initializer;\n"
    "without --inputs they are random, from the declared types and shapes (--seed, --dim, "
    "--shape).\n"
    "With --outputs the results are written to DIR/output_K.pb in graph-output order; otherwise a\n"
    "summary of each output is printed.\n"
    "\n"
    "--threads=N runs large matrix products (MatMul, Gemm, Conv, ...) on N threads (default 1); "
    "the\n"
    "outputs are the same bits for every N. --isa forces the instruction set of the vector "
    "kernels\n"
    "(one the CPU lacks is a usage error; ONNX_OPT_ISA in the environment also lowers it). "
    "--version\n"
    "prints the version, the vector kernels in use and the thread count.\n"
    "\n"
    "Exit status: 0 on success, 1 on a model or run error, 2 on bad usage.\n";

int Main(int argc, char** argv) {
  const cli::Tool tool{"onnx-run", kUsage, __FILE__, {{}, cli::RepeatedInputFlags()}};
  const cli::ParsedCommandLine command_line = cli::ParseCommandLine(argc, argv, tool);
  if (command_line.exit_status) return *command_line.exit_status;
  for (absl::Status s : {cli::ApplyThreadsFlag(1), cli::ApplyIsaFlag()}) {
    if (!s.ok()) return cli::UsageError(tool, std::string(s.message()));
  }
  if (FLAGS_version) {
    std::cout << cli::VersionText(tool.name) << "threads: " << interpreter::NumThreads() << "\n";
    return 0;
  }
  if (command_line.positional.size() != 1) return cli::UsageError(tool, "expected one MODEL");
  if (FLAGS_repeat < 1) {
    return cli::UsageError(
        tool, absl::StrCat("--repeat needs a whole number of at least 1, got ", FLAGS_repeat));
  }
  equivalence::EquivalenceOptions options;
  if (absl::Status s = cli::ApplyInputFlags(options); !s.ok())
    return cli::UsageError(tool, std::string(s.message()));
  const std::string path = command_line.positional[0];
  absl::StatusOr<std::unique_ptr<ir::Model>> model = ReadModel(path);
  if (!model.ok()) {
    std::cerr << "onnx-run: " << path << ": " << model.status().message() << "\n";
    return 1;
  }
  if (absl::Status s = CheckInputModel(**model, path, StderrWarnings("onnx-run: " + path)).status();
      !s.ok()) {
    std::cerr << "onnx-run: " << s.message() << "\n";
    return 1;
  }
  absl::StatusOr<std::vector<interpreter::RuntimeValue>> inputs =
      MakeInputs(**model, FLAGS_inputs, options);
  if (!inputs.ok()) {
    std::cerr << "onnx-run: " << inputs.status().message() << "\n";
    return 1;
  }
  const int repeat = FLAGS_repeat;
  // With --time: the bytes of weights read into memory before the runs and how long that took.
  std::string resident_line;
  if (repeat > 1) {
    // Every run streams every weight: read them into memory once (huge pages), off their mapping.
    const auto start = std::chrono::steady_clock::now();
    absl::StatusOr<ir::ResidentWeights> resident =
        ir::ReadMappedWeightsIntoMemory((*model)->graph());
    if (!resident.ok()) {
      std::cerr << "onnx-run: " << resident.status().message() << "\n";
      return 1;
    }
    if (resident->files > 0) {
      resident_line = absl::StrFormat(
          "weights read into memory: %.1f MiB from %d file(s) in %.3f s\n",
          static_cast<double>(resident->bytes) / (1 << 20), static_cast<int>(resident->files),
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
  }
  // The first run builds the evaluator's plans, loads the initializers, computes the constant-only
  // nodes (kept for the later runs when there are any) and touches fresh memory; with --repeat it
  // is a warm-up left out of the figures. Later runs read the same weights again: their pages stay.
  interpreter::Evaluator evaluator(
      **model,
      {.cache_constants = repeat > 1, .keep_weight_pages = repeat > 1, .pack_weights = repeat > 1});
  std::map<std::string, interpreter::Evaluator::OpProfile> profile;
  std::vector<double> run_seconds;
  absl::StatusOr<std::vector<interpreter::RuntimeValue>> results;
  for (int run = 0; run < repeat; ++run) {
    const bool timed = repeat == 1 || run > 0;
    evaluator.EnableProfiling(FLAGS_time && timed ? &profile : nullptr);
    const auto start = std::chrono::steady_clock::now();
    results = evaluator.Run(*inputs);
    if (timed)
      run_seconds.push_back(
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    if (!results.ok()) {
      std::cerr << "onnx-run: " << results.status().message() << "\n";
      return 1;
    }
  }
  std::sort(run_seconds.begin(), run_seconds.end());
  const double seconds = run_seconds[run_seconds.size() / 2];
  const double timed_runs = static_cast<double>(run_seconds.size());
  // Per-op figures are means over the timed runs, so their shares are of the mean run (against the
  // median, one slow run, say with another process busy, could push a share past 100%).
  double mean_seconds = 0;
  for (double s : run_seconds) mean_seconds += s / timed_runs;
  const std::vector<interpreter::RuntimeValue>& values = *results;
  const std::vector<ir::Value*>& outputs = (*model)->graph().outputs();
  if (const std::string& dir = FLAGS_outputs; !dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    for (size_t i = 0; i < values.size(); ++i) {
      // By the declared type: an optional output is written as an OptionalProto holding the value.
      const ir::Type type = i < outputs.size() ? outputs[i]->type() : ir::Type();
      absl::StatusOr<ir::io::DataValue> data = interpreter::ToDataValue(values[i], type);
      if (data.ok() && i < outputs.size()) {
        if (data->kind == ir::io::DataValue::Kind::kTensor) {
          data->tensor.set_name(outputs[i]->name());
        } else {
          data->name = outputs[i]->name();
        }
      }
      const std::string file = absl::StrCat(dir, "/output_", i, ".pb");
      absl::Status s = data.ok() ? ir::io::SaveDataValueFile(*data, file) : data.status();
      if (!s.ok()) {
        std::cerr << "onnx-run: " << file << ": " << s.message() << "\n";
        return 1;
      }
    }
  } else {
    for (size_t i = 0; i < values.size(); ++i) {
      std::cout << (i < outputs.size() ? outputs[i]->name() : absl::StrCat("#", i)) << ": "
                << values[i].DebugString() << "\n";
    }
  }
  if (FLAGS_time) {
    std::vector<std::pair<std::string, interpreter::Evaluator::OpProfile>> rows(profile.begin(),
                                                                                profile.end());
    std::sort(rows.begin(), rows.end(),
              [](const auto& a, const auto& b) { return a.second.seconds > b.second.seconds; });
    std::cerr << absl::StrFormat("%-28s %8s %12s %7s\n", "op type", "calls", "time (ms)", "share");
    for (const auto& [op, p] : rows) {
      const double ms = p.seconds * 1e3 / timed_runs;
      std::cerr << absl::StrFormat("%-28s %8d %12.3f %6.1f%%\n", op,
                                   static_cast<int64_t>(p.calls / timed_runs), ms,
                                   mean_seconds > 0 ? 100.0 * ms / (mean_seconds * 1e3) : 0.0);
    }
    if (repeat > 1) {
      std::cerr << absl::StrFormat("total: %.3f ms (median of %d runs after a warm-up)\n",
                                   seconds * 1e3, static_cast<int>(timed_runs));
    } else {
      std::cerr << absl::StrFormat("total: %.3f ms\n", seconds * 1e3);
    }
    std::cerr << resident_line;
    std::cerr << absl::StrFormat("%s, threads: %d, peak RSS: %.1f MiB\n",
                                 cli::DescribeVectorKernels(), interpreter::NumThreads(),
                                 cli::PeakRssMib());
  }
  return 0;
}

}  // namespace
}  // namespace onnx_opt::tools

int main(int argc, char** argv) { return onnx_opt::tools::Main(argc, argv); }
