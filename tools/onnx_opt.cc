// onnx-opt: loads a model, runs a pass pipeline over it, verifies and writes the result.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <string>

#include "optimizer/model_stats.h"
#include "optimizer/pass_manager.h"
#include "optimizer/pass_registry.h"
#include "schema/checker/checker.h"
#include "tools/cli/args.h"
#include "tools/cli/runtime_options.h"
#include "tools/model_check.h"
#include "tools/model_source.h"
#include "tools/model_steps.h"
#include "tools/size_report.h"
#include "tools/verification.h"

namespace onnx_opt::tools {
namespace {

constexpr char kUsage[] =
    "usage: onnx-opt INPUT -o OUTPUT [options]\n"
    "\n"
    "Loads an ONNX model (\"-\" reads standard input), runs a pipeline of passes over it, checks the\n"
    "result and writes it to OUTPUT (\"-\" writes standard output). The output is written whole or not\n"
    "at all; INPUT is never modified.\n"
    "\n"
    "Pipelines are comma-separated pass and group names; fixed(a,b) repeats a,b until nothing changes\n"
    "(fixed<N>(...) at most N rounds). Without --passes the 'default' group runs. --list-passes shows\n"
    "every pass and group.\n"
    "\n"
    "--verify runs the input and the result through the bundled interpreter on the same inputs (random\n"
    "ones from the declared types, or --inputs=DIR) and writes nothing unless every output matches;\n"
    "--verify-each does that after every pass and names the first pass that changed an output.\n"
    "The interpreter (verification, constant folding) runs large matrix products on --threads=N\n"
    "threads, by default all cores; results are the same bits for every N.\n"
    "\n"
    "Shrinking: --strip-doc-strings, --strip-metadata and --strip-value-info append the passes of\n"
    "those names to the pipeline. --float16 (lossy) appends float16-weights last, which stores float32\n"
    "weights of 128 or more elements as float16 with a Cast back; it always verifies and needs an\n"
    "explicit --tolerance. Tensors are always written as raw_data. --external-data-threshold moves\n"
    "tensors of that many bytes or more to a side file (models over 2 GB always get one).\n"
    "--report prints bytes and nodes before and after, the passes that made the difference and the\n"
    "largest output error seen by verification; --report-json and --report-text write it to files.\n"
    "\n"
    "Exit status: 0 on success, 1 on a model, pass or verification error, 2 on bad usage.\n"
    "\n"
    "options:\n";

void ListPasses() {
  std::cout << "groups:\n";
  for (const auto& [name, group] : optimizer::PassRegistry::Global().groups()) {
    std::cout << "  " << name << std::string(name.size() < 24 ? 24 - name.size() : 1, ' ') << group.summary
              << "\n" << std::string(26, ' ') << "= " << group.pipeline << "\n";
  }
  std::cout << "passes:\n";
  for (const optimizer::PassInfo* pass : ListedPasses()) {
    const std::string& name = pass->name;
    std::cout << "  " << name << std::string(name.size() < 24 ? 24 - name.size() : 1, ' ') << pass->summary << "\n";
  }
}

// "RTOL" or "RTOL,ATOL" (ATOL defaults to RTOL/10).
absl::StatusOr<optimizer::Tolerance> ParseTolerance(const std::string& text) {
  const size_t comma = text.find(',');
  auto parse = [](const std::string& part) -> std::optional<double> {
    char* end = nullptr;
    const double v = std::strtod(part.c_str(), &end);
    if (part.empty() || *end != '\0' || !(v >= 0) || !std::isfinite(v)) return std::nullopt;
    return v;
  };
  std::optional<double> rtol = parse(text.substr(0, comma));
  std::optional<double> atol = comma == std::string::npos ? (rtol ? std::optional<double>(*rtol / 10) : std::nullopt)
                                                          : parse(text.substr(comma + 1));
  if (!rtol || !atol) return absl::InvalidArgumentError("expected RTOL[,ATOL] as non-negative numbers, got '" + text + "'");
  return optimizer::Tolerance{*rtol, *atol};
}

// Where a model file's external data paths start.
std::string FolderOf(const std::string& path) {
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  return parent.empty() ? "." : parent.string();
}

// The input's bytes: its file (and external data files) on disk, or its serialized size from stdin.
absl::StatusOr<ModelBytes> MeasureInput(const ir::Model& model, const std::string& input) {
  if (input == "-") {
    absl::StatusOr<std::string> bytes = ir::io::SerializeModel(model);
    if (!bytes.ok()) return bytes.status();
    return MeasureModelBytes(model, static_cast<int64_t>(bytes->size()), "");
  }
  std::error_code ec;
  const uintmax_t size = std::filesystem::file_size(input, ec);
  if (ec) return absl::NotFoundError(ec.message());
  absl::StatusOr<ModelBytes> bytes = MeasureModelBytes(model, static_cast<int64_t>(size), FolderOf(input));
  if (bytes.ok()) return bytes;
  // A symlinked model may keep its external data beside its target (as the loader allows).
  const std::filesystem::path target = std::filesystem::canonical(input, ec);
  return ec ? bytes : MeasureModelBytes(model, static_cast<int64_t>(size), FolderOf(target.string()));
}

// The output's bytes as written: the file is loaded again so that the figures are those of the
// bytes on disk, external data included.
absl::StatusOr<ModelBytes> MeasureOutput(const ir::Model& model, const std::string& output,
                                         const ir::io::SaveOptions& options) {
  if (output == "-") {
    absl::StatusOr<std::string> bytes = ir::io::SerializeModel(model, options);
    if (!bytes.ok()) return bytes.status();
    absl::StatusOr<std::unique_ptr<ir::Model>> written = ir::io::LoadModelFromString(*bytes);
    if (!written.ok()) return written.status();
    return MeasureModelBytes(**written, static_cast<int64_t>(bytes->size()), "");
  }
  absl::StatusOr<std::unique_ptr<ir::Model>> written = ir::io::LoadModel(output);
  if (!written.ok()) return written.status();
  std::error_code ec;
  const uintmax_t size = std::filesystem::file_size(output, ec);
  if (ec) return absl::NotFoundError(ec.message());
  return MeasureModelBytes(**written, static_cast<int64_t>(size), FolderOf(output));
}

int Main(int argc, char** argv) {
  std::vector<cli::OptionSpec> specs = {
      {"output", "o", true, false, "FILE", "where to write the result (\"-\": standard output)"},
      {"passes", "", true, false, "LIST", "the pipeline to run (default: \"default\")"},
      {"list-passes", "", false, false, "", "print every pass and group, then exit"},
      {"print-stats", "", false, false, "", "print per-pass time, rewrites, nodes and bytes to stderr"},
      {"stats-json", "", true, false, "FILE", "write the per-pass statistics as JSON"},
      {"fold-size-limit", "", true, false, "BYTES", "largest folded constant that may grow the model (default 1048576)"},
      {"fold-input-defaults", "", false, false, "",
       "treat initializers that are also graph inputs as constants and drop those inputs (IR < 4 models list every weight as an input)"},
      {"verify", "", false, false, "", "check that the result computes the same outputs; write nothing if not"},
      {"verify-each", "", false, false, "", "check outputs after every pass; name the first pass that breaks them"},
      {"tolerance", "", true, false, "RTOL[,ATOL]", "float32 tolerance of verification (default 1e-4,1e-5)"},
      {"strip-doc-strings", "", false, false, "", "remove every doc_string"},
      {"strip-metadata", "", false, false, "", "remove metadata_props (model, graphs, nodes, ...)"},
      {"strip-value-info", "", false, false, "", "remove every value_info entry (re-inferable types)"},
      {"float16", "", false, false, "", "LOSSY: store float32 weights as float16; verifies; needs --tolerance"},
      {"external-data-threshold", "", true, false, "BYTES", "write tensors of at least BYTES to a side file"},
      {"external-data-file", "", true, false, "NAME",
       "the side file's name next to OUTPUT (default OUTPUT.data); written even if empty"},
      {"report", "", false, false, "", "print the size report to stderr"},
      {"report-json", "", true, false, "FILE", "write the size report as JSON"},
      {"report-text", "", true, false, "FILE", "write the size report as a table"},
      cli::ThreadsOptionSpec("default: all cores"),
      {"help", "h", false, false, "", "print this help"},
  };
  for (cli::OptionSpec& spec : InputOptionSpecs()) specs.push_back(std::move(spec));
  cli::Args args(std::move(specs));
  if (absl::Status s = args.Parse(argc, argv); !s.ok()) {
    std::cerr << "onnx-opt: " << s.message() << "\n" << kUsage << args.OptionsHelp();
    return 2;
  }
  if (args.Has("help")) {
    std::cout << kUsage << args.OptionsHelp();
    return 0;
  }
  if (args.Has("list-passes")) {
    ListPasses();
    return 0;
  }
  if (args.positional().size() != 1 || !args.Has("output")) {
    std::cerr << "onnx-opt: expected one INPUT and -o OUTPUT\n" << kUsage << args.OptionsHelp();
    return 2;
  }
  const std::string input = args.positional()[0];
  const std::string output = *args.Get("output");
  if (absl::Status s = cli::ApplyThreadsOption(args, cli::AllCores()); !s.ok()) {
    std::cerr << "onnx-opt: " << s.message() << "\n";
    return 2;
  }

  optimizer::PassManagerOptions options;
  if (std::optional<std::string> limit = args.Get("fold-size-limit")) {
    char* end = nullptr;
    const long long v = std::strtoll(limit->c_str(), &end, 10);
    if (limit->empty() || *end != '\0' || v < 0) {
      std::cerr << "onnx-opt: --fold-size-limit needs a byte count, got '" << *limit << "'\n";
      return 2;
    }
    options.pass_options.fold_size_limit = v;
  }

  options.pass_options.fold_overridable_initializers = args.Has("fold-input-defaults");

  optimizer::EquivalenceOptions eq_options;
  if (absl::Status s = ParseInputOptions(args, eq_options); !s.ok()) {
    std::cerr << "onnx-opt: " << s.message() << "\n";
    return 2;
  }
  if (std::optional<std::string> tolerance = args.Get("tolerance")) {
    absl::StatusOr<optimizer::Tolerance> t = ParseTolerance(*tolerance);
    if (!t.ok()) {
      std::cerr << "onnx-opt: --tolerance: " << t.status().message() << "\n";
      return 2;
    }
    eq_options.float32 = *t;
  }
  const bool float16 = args.Has("float16");
  if (float16 && !args.Has("tolerance")) {
    std::cerr << "onnx-opt: --float16 changes the weights; give the output error you accept with "
                 "--tolerance=RTOL[,ATOL] (e.g. --tolerance=1e-2,1e-3)\n";
    return 2;
  }
  // A lossy result is never written unchecked.
  const bool verify = args.Has("verify") || args.Has("verify-each") || float16;

  ir::io::SaveOptions save_options;
  save_options.force_raw_data = true;
  if (std::optional<std::string> threshold = args.Get("external-data-threshold")) {
    char* end = nullptr;
    const long long v = std::strtoll(threshold->c_str(), &end, 10);
    if (threshold->empty() || *end != '\0' || v < 0) {
      std::cerr << "onnx-opt: --external-data-threshold needs a byte count, got '" << *threshold << "'\n";
      return 2;
    }
    save_options.external_data_threshold = static_cast<uint64_t>(v);
  }
  const std::optional<std::string> data_file = args.Get("external-data-file");
  if (data_file) {
    if (data_file->empty() || data_file->find('/') != std::string::npos || *data_file == "." || *data_file == "..") {
      std::cerr << "onnx-opt: --external-data-file is a file name next to OUTPUT, got '" << *data_file << "'\n";
      return 2;
    }
    save_options.external_data_file = *data_file;
  }
  if (output == "-" && (save_options.external_data_threshold || data_file)) {
    std::cerr << "onnx-opt: external data needs an OUTPUT file, not standard output\n";
    return 2;
  }

  std::string pipeline = args.Get("passes").value_or("default");
  if (args.Has("strip-doc-strings")) pipeline += ",strip-doc-strings";
  if (args.Has("strip-metadata")) pipeline += ",strip-metadata";
  if (args.Has("strip-value-info")) pipeline += ",strip-value-info";
  if (float16) pipeline += ",float16-weights";  // last: folding would undo it
  const bool want_report = args.Has("report") || args.Has("report-json") || args.Has("report-text");

  absl::StatusOr<std::unique_ptr<ir::Model>> model = ReadModel(input);
  if (!model.ok()) {
    std::cerr << "onnx-opt: " << input << ": " << model.status().message() << "\n";
    return 1;
  }
  // Passes assume a valid model, and an invalid input cannot give a valid output.
  absl::StatusOr<schema::checker::CheckResult> input_check =
      CheckInputModel(**model, input, StderrWarnings("onnx-opt: " + input));
  if (!input_check.ok()) {
    std::cerr << "onnx-opt: " << input_check.status().message() << "\n";
    return 1;
  }
  ShrinkReport report;
  if (want_report) {
    report.input = input;
    report.output = output;
    report.pipeline = pipeline;
    report.ops_before = optimizer::CountOpTypes(**model);
    absl::StatusOr<ModelBytes> before = MeasureInput(**model, input);
    if (!before.ok()) {
      std::cerr << "onnx-opt: " << input << ": " << before.status().message() << "\n";
      return 1;
    }
    report.before = *before;
  }

  OptimizeRequest request;
  request.pipeline = pipeline;
  request.manager = options;
  request.verify = verify;
  request.verify_each = args.Has("verify-each");
  request.inputs_dir = args.Get("inputs").value_or("");
  request.equivalence = eq_options;
  bool usage_error = false;
  absl::StatusOr<OptimizeOutcome> outcome = OptimizeCheckedModel(
      **model, *input_check, request, StderrWarnings("onnx-opt: " + output), &usage_error);
  if (!outcome.ok()) {
    std::cerr << "onnx-opt: " << outcome.status().message() << "\n";
    return usage_error ? 2 : 1;
  }
  const optimizer::PipelineResult& result = outcome->pipeline;
  if (args.Has("print-stats")) std::cerr << optimizer::FormatStatsTable(result);
  if (std::optional<std::string> json = args.Get("stats-json")) {
    if (absl::Status s = WriteTextFile(*json, optimizer::FormatStatsJson(result)); !s.ok()) {
      std::cerr << "onnx-opt: " << *json << ": " << s.message() << "\n";
      return 1;
    }
  }
  if (verify) {
    std::cerr << "onnx-opt: verified: " << DescribeMatch(outcome->differences) << "\n";
    report.verification = SummarizeVerification(outcome->differences, eq_options);
  }
  if (absl::Status s = WriteModel(**model, output, save_options); !s.ok()) {
    std::cerr << "onnx-opt: " << output << ": " << s.message() << "\n";
    return 1;
  }
  if (!want_report && !data_file) return 0;

  absl::StatusOr<ModelBytes> after = MeasureOutput(**model, output, save_options);
  if (!after.ok()) {
    std::cerr << "onnx-opt: measuring " << output << ": " << after.status().message() << "\n";
    return 1;
  }
  if (data_file && std::find(after->external_files_named.begin(), after->external_files_named.end(), *data_file) ==
                       after->external_files_named.end()) {
    // A build rule declares the side file, so it must exist (empty) even when no tensor went there.
    const std::string side = (std::filesystem::path(output).parent_path() / *data_file).string();
    if (absl::Status s = WriteTextFile(side, ""); !s.ok()) {
      std::cerr << "onnx-opt: " << side << ": " << s.message() << "\n";
      return 1;
    }
  }
  if (!want_report) return 0;
  report.passes = ContributionsOf(result);
  report.ops_after = optimizer::CountOpTypes(**model);
  report.after = *after;
  if (args.Has("report")) std::cerr << FormatReportTable(report);
  for (const auto& [flag, text] : {std::pair{"report-json", FormatReportJson(report)},
                                   std::pair{"report-text", FormatReportTable(report)}}) {
    std::optional<std::string> path = args.Get(flag);
    if (!path) continue;
    if (absl::Status s = WriteTextFile(*path, text); !s.ok()) {
      std::cerr << "onnx-opt: " << *path << ": " << s.message() << "\n";
      return 1;
    }
  }
  return 0;
}

}  // namespace
}  // namespace onnx_opt::tools

int main(int argc, char** argv) { return onnx_opt::tools::Main(argc, argv); }
