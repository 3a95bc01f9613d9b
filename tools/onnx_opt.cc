// onnx-opt: loads a model, runs a pass pipeline over it, verifies and writes the result.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <string>

#include "ir/clone.h"
#include "ir/status_macros.h"
#include "optimizer/model_stats.h"
#include "optimizer/pass_manager.h"
#include "optimizer/pass_registry.h"
#include "schema/checker/checker.h"
#include "tools/cli/command_line.h"
#include "tools/cli/input_flags.h"
#include "tools/cli/phase_times.h"
#include "tools/cli/progress.h"
#include "tools/cli/runtime_options.h"
#include "tools/cli/version_text.h"
#include "tools/dot/dot_file.h"
#include "tools/dot/graph_dot.h"
#include "tools/model_check.h"
#include "tools/model_source.h"
#include "tools/model_steps.h"
#include "tools/size_report.h"
#include "tools/verification.h"

DEFINE_string(output, "", "FILE: where to write the result (\"-\": standard output)");
DEFINE_string(passes, "default", "LIST: the pipeline to run, pass and group names (default: the 'default' group)");
DEFINE_bool(list_passes, false, "print every pass and group, then exit");
DEFINE_bool(print_stats, false, "print per-pass time, rewrites, nodes and bytes to stderr");
DEFINE_string(stats_json, "", "FILE: write the per-pass statistics as JSON");
DEFINE_int64(fold_size_limit, 1048576, "BYTES: largest folded constant that may grow the model");
DEFINE_int64(fold_growth_limit, 0,
             "BYTES: tensor data constant folding may copy into the model in all (a folded result kept next "
             "to inputs other nodes still use, such as a transposed shared weight); folds copying 64 bytes "
             "or less are always taken");
DEFINE_bool(fold_input_defaults, false,
            "treat initializers that are also graph inputs as constants and drop those inputs (IR < 4 models "
            "list every weight as an input)");
DEFINE_bool(verify, false, "check that the result computes the same outputs; write nothing if not");
DEFINE_bool(verify_each, false, "check outputs after every pass; name the first pass that breaks them");
DEFINE_string(tolerance, "", "RTOL[,ATOL]: float32 tolerance of verification (default 1e-4,1e-5)");
DEFINE_bool(strip_doc_strings, false, "remove every doc_string");
DEFINE_bool(strip_metadata, false, "remove metadata_props (model, graphs, nodes, ...)");
DEFINE_bool(strip_value_info, false, "remove every value_info entry (re-inferable types)");
DEFINE_bool(float16, false, "LOSSY: store float32 weights as float16; verifies; needs --tolerance");
DEFINE_int64(external_data_threshold, 0, "BYTES: write tensors of at least BYTES to a side file");
DEFINE_string(external_data_file, "",
              "NAME: the side file's name next to OUTPUT (default OUTPUT.data); written even if empty");
DEFINE_bool(report, false, "print the size report to stderr");
DEFINE_string(report_json, "", "FILE: write the size report as JSON");
DEFINE_string(report_text, "", "FILE: write the size report as a table");
DEFINE_string(dot, "",
              "FILE: write the result's graph as Graphviz DOT (FILE.svg, .png or .pdf: rendered with dot, which "
              "must be on the PATH)");
DEFINE_bool(dot_diff, false, "with --dot: colour the nodes the pipeline added (green) and removed (red)");

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
    "--dot=FILE draws the result's graph (Graphviz DOT; rendered by dot when FILE ends in .svg, .png\n"
    "or .pdf); --dot-diff colours what the pipeline changed.\n"
    "\n"
    "A run that takes more than a second logs what it is doing on stderr (the pass, the node count,\n"
    "the time so far) about once a second; --quiet prints none of that, --v=1 logs every pass with\n"
    "its rewrite count.\n"
    "\n"
    "Exit status: 0 on success, 1 on a model, pass or verification error, 2 on bad usage.\n";

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
    ASSIGN_OR_RETURN(std::string bytes, ir::io::SerializeModel(model));
    return MeasureModelBytes(model, static_cast<int64_t>(bytes.size()), "");
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
    ASSIGN_OR_RETURN(std::string bytes, ir::io::SerializeModel(model, options));
    ASSIGN_OR_RETURN(std::unique_ptr<ir::Model> written, ir::io::LoadModelFromString(bytes));
    return MeasureModelBytes(*written, static_cast<int64_t>(bytes.size()), "");
  }
  ASSIGN_OR_RETURN(std::unique_ptr<ir::Model> written, ir::io::LoadModel(output));
  std::error_code ec;
  const uintmax_t size = std::filesystem::file_size(output, ec);
  if (ec) return absl::NotFoundError(ec.message());
  return MeasureModelBytes(*written, static_cast<int64_t>(size), FolderOf(output));
}

int Main(int argc, char** argv) {
  cli::PhaseTimes phases("onnx-opt");
  const cli::Tool tool{"onnx-opt", kUsage, __FILE__, {{{"o", "output"}}, cli::RepeatedInputFlags()}};
  const cli::ParsedCommandLine command_line = cli::ParseCommandLine(argc, argv, tool);
  if (command_line.exit_status) return *command_line.exit_status;
  if (absl::Status s = cli::ApplyThreadsFlag(cli::AllCores()); !s.ok()) return cli::UsageError(tool, std::string(s.message()));
  if (absl::Status s = cli::ApplyIsaFlag(); !s.ok()) return cli::UsageError(tool, std::string(s.message()));
  if (FLAGS_version) {
    std::cout << cli::VersionText(tool.name);
    return 0;
  }
  if (FLAGS_list_passes) {
    ListPasses();
    return 0;
  }
  if (command_line.positional.size() != 1 || FLAGS_output.empty()) {
    return cli::UsageError(tool, "expected one INPUT and -o OUTPUT");
  }
  const std::string input = command_line.positional[0];
  const std::string output = FLAGS_output;

  optimizer::PassManagerOptions options;
  if (FLAGS_fold_size_limit < 0) {
    return cli::UsageError(tool, absl::StrCat("--fold-size-limit needs a byte count, got ", FLAGS_fold_size_limit));
  }
  options.pass_options.fold_size_limit = FLAGS_fold_size_limit;
  if (FLAGS_fold_growth_limit < 0) {
    return cli::UsageError(tool, absl::StrCat("--fold-growth-limit needs a byte count, got ", FLAGS_fold_growth_limit));
  }
  options.pass_options.fold_growth_limit = FLAGS_fold_growth_limit;
  options.pass_options.fold_overridable_initializers = FLAGS_fold_input_defaults;

  optimizer::EquivalenceOptions eq_options;
  if (absl::Status s = cli::ApplyInputFlags(eq_options); !s.ok()) return cli::UsageError(tool, std::string(s.message()));
  const bool tolerance_given = !gflags::GetCommandLineFlagInfoOrDie("tolerance").is_default;
  if (tolerance_given) {
    absl::StatusOr<optimizer::Tolerance> t = ParseTolerance(FLAGS_tolerance);
    if (!t.ok()) return cli::UsageError(tool, absl::StrCat("--tolerance: ", t.status().message()));
    eq_options.float32 = *t;
  }
  const bool float16 = FLAGS_float16;
  if (float16 && !tolerance_given) {
    return cli::UsageError(tool,
                           "--float16 changes the weights; give the output error you accept with "
                           "--tolerance=RTOL[,ATOL] (e.g. --tolerance=1e-2,1e-3)");
  }
  // A lossy result is never written unchecked.
  const bool verify = FLAGS_verify || FLAGS_verify_each || float16;

  ir::io::SaveOptions save_options;
  save_options.force_raw_data = true;
  if (!gflags::GetCommandLineFlagInfoOrDie("external_data_threshold").is_default) {
    if (FLAGS_external_data_threshold < 0) {
      return cli::UsageError(tool, absl::StrCat("--external-data-threshold needs a byte count, got ",
                                                FLAGS_external_data_threshold));
    }
    save_options.external_data_threshold = static_cast<uint64_t>(FLAGS_external_data_threshold);
  }
  const std::optional<std::string> data_file =
      gflags::GetCommandLineFlagInfoOrDie("external_data_file").is_default ? std::nullopt
                                                                          : std::optional(FLAGS_external_data_file);
  if (data_file) {
    if (data_file->empty() || data_file->find('/') != std::string::npos || *data_file == "." || *data_file == "..") {
      return cli::UsageError(tool, "--external-data-file is a file name next to OUTPUT, got '" + *data_file + "'");
    }
    save_options.external_data_file = *data_file;
  }
  if (output == "-" && (save_options.external_data_threshold || data_file)) {
    return cli::UsageError(tool, "external data needs an OUTPUT file, not standard output");
  }

  std::string pipeline = FLAGS_passes;
  if (FLAGS_strip_doc_strings) pipeline += ",strip-doc-strings";
  if (FLAGS_strip_metadata) pipeline += ",strip-metadata";
  if (FLAGS_strip_value_info) pipeline += ",strip-value-info";
  if (float16) pipeline += ",float16-weights";  // last: folding would undo it
  const bool want_report = FLAGS_report || !FLAGS_report_json.empty() || !FLAGS_report_text.empty();
  cli::Progress progress;

  phases.Begin("load");
  absl::StatusOr<std::unique_ptr<ir::Model>> model = ReadModel(input);
  if (!model.ok()) {
    std::cerr << "onnx-opt: " << input << ": " << model.status().message() << "\n";
    return 1;
  }
  // Passes assume a valid model, and an invalid input cannot give a valid output.
  phases.Begin("check");
  absl::StatusOr<schema::checker::CheckResult> input_check =
      CheckInputModel(**model, input, StderrWarnings("onnx-opt: " + input));
  if (!input_check.ok()) {
    std::cerr << "onnx-opt: " << input_check.status().message() << "\n";
    return 1;
  }
  if (FLAGS_dot_diff && FLAGS_dot.empty()) return cli::UsageError(tool, "--dot-diff needs --dot=FILE");
  // The picture's reference: the input as it was.
  std::unique_ptr<ir::Model> dot_input;
  if (FLAGS_dot_diff) {
    absl::StatusOr<std::unique_ptr<ir::Model>> copy = ir::CloneModel(**model);
    if (!copy.ok()) {
      std::cerr << "onnx-opt: cannot keep a copy of the input for --dot-diff: " << copy.status().message() << "\n";
      return 1;
    }
    dot_input = std::move(*copy);
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
  request.verify_each = FLAGS_verify_each;
  request.inputs_dir = FLAGS_inputs;
  request.equivalence = eq_options;
  request.progress = [&progress, &phases](std::string_view phase, std::string_view what) {
    phases.Begin(phase);
    progress.Report(what);
  };
  request.manager.before_each = [&progress, &phases](const std::string& pass, const optimizer::ModelSize& size) {
    phases.Begin("passes");
    progress.Report(absl::StrCat("pass ", pass, ": ", size.nodes, " nodes"));
  };
  bool usage_error = false;
  phases.Begin("passes");
  absl::StatusOr<OptimizeOutcome> outcome = OptimizeCheckedModel(
      **model, *input_check, request, StderrWarnings("onnx-opt: " + output), &usage_error);
  if (!outcome.ok()) {
    if (usage_error) return cli::UsageError(tool, std::string(outcome.status().message()));
    std::cerr << "onnx-opt: " << outcome.status().message() << "\n";
    return 1;
  }
  phases.Begin("other");
  const optimizer::PipelineResult& result = outcome->pipeline;
  if (FLAGS_print_stats) std::cerr << optimizer::FormatStatsTable(result);
  if (const std::string& json = FLAGS_stats_json; !json.empty()) {
    if (absl::Status s = WriteTextFile(json, optimizer::FormatStatsJson(result)); !s.ok()) {
      std::cerr << "onnx-opt: " << json << ": " << s.message() << "\n";
      return 1;
    }
  }
  if (verify) {
    std::cerr << "onnx-opt: verified: " << DescribeMatch(outcome->differences) << "\n";
    report.verification = SummarizeVerification(outcome->differences, eq_options);
  }
  if (!FLAGS_dot.empty()) {
    const std::string dot = ToDot(**model, {.compare_with = dot_input.get()});
    if (absl::Status s = WriteDotFile(FLAGS_dot, dot); !s.ok()) {
      std::cerr << "onnx-opt: --dot: " << s.message() << "\n";
      return 1;
    }
  }
  phases.Begin("save");
  if (absl::Status s = WriteModel(**model, output, save_options); !s.ok()) {
    std::cerr << "onnx-opt: " << output << ": " << s.message() << "\n";
    return 1;
  }
  if (!want_report && !data_file) return 0;
  phases.Begin("other");

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
  if (FLAGS_report) std::cerr << FormatReportTable(report);
  for (const auto& [path, text] : {std::pair{FLAGS_report_json, FormatReportJson(report)},
                                   std::pair{FLAGS_report_text, FormatReportTable(report)}}) {
    if (path.empty()) continue;
    if (absl::Status s = WriteTextFile(path, text); !s.ok()) {
      std::cerr << "onnx-opt: " << path << ": " << s.message() << "\n";
      return 1;
    }
  }
  return 0;
}

}  // namespace
}  // namespace onnx_opt::tools

int main(int argc, char** argv) { return onnx_opt::tools::Main(argc, argv); }
