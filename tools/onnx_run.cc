// onnx-run: runs a model with the bundled interpreter on inputs read from a folder (input_K.pb) or
// made at random, and writes the outputs as output_K.pb (the layout of ONNX's node tests).
#include <algorithm>
#include <chrono>
#include <map>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "interpreter/cpu/thread_pool.h"
#include "interpreter/evaluator.h"
#include "interpreter/data_value.h"
#include "ir/io/model_io.h"
#include "optimizer/equivalence.h"
#include "schema/checker/checker.h"
#include "tools/cli/args.h"
#include "tools/cli/runtime_options.h"
#include "tools/cli/version.h"
#include "tools/model_check.h"
#include "tools/model_source.h"
#include "tools/model_steps.h"
#include "tools/verification.h"

namespace onnx_opt::tools {
namespace {

constexpr char kUsage[] =
    "usage: onnx-run MODEL [--inputs=DIR] [--outputs=DIR] [options]\n"
    "\n"
    "Runs MODEL with the bundled CPU interpreter. Inputs are read from DIR/input_0.pb, input_1.pb, ...\n"
    "in graph-input order (TensorProto, or SequenceProto/OptionalProto/MapProto by the input's type);\n"
    "without --inputs they are random, from the declared types and shapes (--seed, --dim, --shape).\n"
    "With --outputs the results are written to DIR/output_K.pb in graph-output order; otherwise a\n"
    "summary of each output is printed.\n"
    "\n"
    "--threads=N runs large matrix products (MatMul, Gemm, Conv, ...) on N threads (default 1); the\n"
    "outputs are the same bits for every N. --isa forces the instruction set of the vector kernels\n"
    "(one the CPU lacks is a usage error; ONNX_OPT_ISA in the environment also lowers it). --version\n"
    "prints the version, the vector kernels in use and the thread count.\n"
    "\n"
    "Exit status: 0 on success, 1 on a model or run error, 2 on bad usage.\n"
    "\n"
    "options:\n";

int Main(int argc, char** argv) {
  std::vector<cli::OptionSpec> specs = {
      {"outputs", "", true, false, "DIR", "write output_K.pb files into DIR (created if missing)"},
      {"time", "", false, false, "",
       "print wall time per operator type (and in total), the vector kernels, threads and peak memory to stderr"},
      {"repeat", "", true, false, "N",
       "run the model N times (default 1); with --time the first run is a warm-up and the figures are the median "
       "total and the mean per op type of the other runs"},
      cli::ThreadsOptionSpec("default 1"),
      cli::IsaOptionSpec(),
      {"version", "", false, false, "", "print the version, the vector kernels in use and the thread count"},
      {"help", "h", false, false, "", "print this help"},
  };
  for (cli::OptionSpec& spec : InputOptionSpecs()) specs.push_back(std::move(spec));
  cli::Args args(std::move(specs));
  if (absl::Status s = args.Parse(argc, argv); !s.ok()) {
    std::cerr << "onnx-run: " << s.message() << "\n" << kUsage << args.OptionsHelp();
    return 2;
  }
  if (args.Has("help")) {
    std::cout << kUsage << args.OptionsHelp();
    return 0;
  }
  for (absl::Status s : {cli::ApplyThreadsOption(args, 1), cli::ApplyIsaOption(args)}) {
    if (!s.ok()) {
      std::cerr << "onnx-run: " << s.message() << "\n";
      return 2;
    }
  }
  if (args.Has("version")) {
    std::cout << "onnx-run " << cli::kVersion << "\n"
              << cli::DescribeVectorKernels() << "\n"
              << "threads: " << interpreter::NumThreads() << "\n";
    return 0;
  }
  if (args.positional().size() != 1) {
    std::cerr << "onnx-run: expected one MODEL\n" << kUsage << args.OptionsHelp();
    return 2;
  }
  optimizer::EquivalenceOptions options;
  if (absl::Status s = ParseInputOptions(args, options); !s.ok()) {
    std::cerr << "onnx-run: " << s.message() << "\n";
    return 2;
  }
  const std::string path = args.positional()[0];
  absl::StatusOr<std::unique_ptr<ir::Model>> model = ReadModel(path);
  if (!model.ok()) {
    std::cerr << "onnx-run: " << path << ": " << model.status().message() << "\n";
    return 1;
  }
  if (absl::Status s = CheckInputModel(**model, path, StderrWarnings("onnx-run: " + path)).status(); !s.ok()) {
    std::cerr << "onnx-run: " << s.message() << "\n";
    return 1;
  }
  absl::StatusOr<std::vector<interpreter::RuntimeValue>> inputs =
      MakeInputs(**model, args.Get("inputs").value_or(""), options);
  if (!inputs.ok()) {
    std::cerr << "onnx-run: " << inputs.status().message() << "\n";
    return 1;
  }
  int repeat = 1;
  if (std::optional<std::string> text = args.Get("repeat")) {
    if (!absl::SimpleAtoi(*text, &repeat) || repeat < 1) {
      std::cerr << "onnx-run: --repeat needs a whole number of at least 1, got '" << *text << "'\n";
      return 2;
    }
  }
  // The first run builds the evaluator's plans, loads the initializers and touches fresh memory; with
  // --repeat it is a warm-up left out of the figures.
  interpreter::Evaluator evaluator(**model);
  std::map<std::string, interpreter::Evaluator::OpProfile> profile;
  std::vector<double> run_seconds;
  absl::StatusOr<std::vector<interpreter::RuntimeValue>> results;
  for (int run = 0; run < repeat; ++run) {
    const bool timed = repeat == 1 || run > 0;
    evaluator.EnableProfiling(args.Has("time") && timed ? &profile : nullptr);
    const auto start = std::chrono::steady_clock::now();
    results = evaluator.Run(*inputs);
    if (timed) run_seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    if (!results.ok()) {
      std::cerr << "onnx-run: " << results.status().message() << "\n";
      return 1;
    }
  }
  std::sort(run_seconds.begin(), run_seconds.end());
  const double seconds = run_seconds[run_seconds.size() / 2];
  const double timed_runs = static_cast<double>(run_seconds.size());
  const std::vector<interpreter::RuntimeValue>& values = *results;
  const std::vector<ir::Value*>& outputs = (*model)->graph().outputs();
  if (std::optional<std::string> dir = args.Get("outputs")) {
    std::error_code ec;
    std::filesystem::create_directories(*dir, ec);
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
      const std::string file = absl::StrCat(*dir, "/output_", i, ".pb");
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
  if (args.Has("time")) {
    std::vector<std::pair<std::string, interpreter::Evaluator::OpProfile>> rows(profile.begin(), profile.end());
    std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.second.seconds > b.second.seconds; });
    std::cerr << absl::StrFormat("%-28s %8s %12s %7s\n", "op type", "calls", "time (ms)", "share");
    for (const auto& [op, p] : rows) {
      const double ms = p.seconds * 1e3 / timed_runs;
      std::cerr << absl::StrFormat("%-28s %8d %12.3f %6.1f%%\n", op, static_cast<int64_t>(p.calls / timed_runs), ms,
                                   seconds > 0 ? 100.0 * ms / (seconds * 1e3) : 0.0);
    }
    if (repeat > 1) {
      std::cerr << absl::StrFormat("total: %.3f ms (median of %d runs after a warm-up)\n", seconds * 1e3,
                                   static_cast<int>(timed_runs));
    } else {
      std::cerr << absl::StrFormat("total: %.3f ms\n", seconds * 1e3);
    }
    std::cerr << absl::StrFormat("%s, threads: %d, peak RSS: %.1f MiB\n", cli::DescribeVectorKernels(),
                                 interpreter::NumThreads(), cli::PeakRssMib());
  }
  return 0;
}

}  // namespace
}  // namespace onnx_opt::tools

int main(int argc, char** argv) { return onnx_opt::tools::Main(argc, argv); }
