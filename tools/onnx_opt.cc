// onnx-opt: loads a model, runs a pass pipeline over it, verifies and writes the result.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "equivalence/equivalence_options.h"
#include "ir/clone.h"
#include "ir/io/model_io.h"
#include "ir/status_macros.h"
#include "optimizer/model_stats.h"
#include "optimizer/pass_manager.h"
#include "optimizer/pass_registry.h"
#include "optimizer/pipeline.h"
#include "schema/checker/checker.h"
#include "tools/cli/command_line.h"
#include "tools/cli/input_flags.h"
#include "tools/cli/phase_times.h"
#include "tools/cli/progress.h"
#include "tools/cli/runtime_options.h"
#include "tools/cli/tolerance_flag.h"
#include "tools/cli/version_text.h"
#include "tools/dot/dot_file.h"
#include "tools/dot/graph_dot.h"
#include "tools/lib/model_check.h"
#include "tools/lib/model_source.h"
#include "tools/lib/model_steps.h"
#include "tools/lib/size_report.h"
#include "tools/lib/verification.h"

DEFINE_string(output, "", "FILE: where to write the result (\"-\": standard output)");
DEFINE_string(passes, "default",
              "LIST: the pipeline to run, pass and group names (default: the 'default' group)");
DEFINE_bool(list_passes, false, "print every pass and group, then exit");
DEFINE_bool(print_stats, false, "print per-pass time, rewrites, nodes and bytes to stderr");
DEFINE_string(stats_json, "", "FILE: write the per-pass statistics as JSON");
DEFINE_int64(fold_size_limit, 1048576, "BYTES: largest folded constant that may grow the model");
DEFINE_int64(
    fold_growth_limit, 0,
    "BYTES: tensor data constant folding may copy into the model in all (a folded result kept next "
    "to inputs other nodes still use, such as a transposed shared weight); folds copying 64 bytes "
    "or less are always taken");
DEFINE_bool(fold_input_defaults, false,
            "treat initializers that are also graph inputs as constants and drop those inputs (IR "
            "< 4 models "
            "list every weight as an input)");
DEFINE_bool(verify, false, "check that the result computes the same outputs; write nothing if not");
DEFINE_bool(verify_each, false,
            "check outputs after every pass; name the first pass that breaks them");
DEFINE_bool(strip_doc_strings, false, "remove every doc_string");
DEFINE_bool(strip_metadata, false, "remove metadata_props (model, graphs, nodes, ...)");
DEFINE_bool(strip_value_info, false, "remove every value_info entry (re-inferable types)");
DEFINE_bool(
    float16, false,
    "LOSSY: store float32 weights as float16; always verifies (--lossy-tolerance, or --tolerance)");
DEFINE_int64(external_data_threshold, 0, "BYTES: write tensors of at least BYTES to a side file");
DEFINE_string(
    external_data_file, "",
    "NAME: the side file's name next to OUTPUT (default OUTPUT.data); written even if empty");
DEFINE_bool(report, false, "print the size report to stderr");
DEFINE_string(report_json, "", "FILE: write the size report as JSON");
DEFINE_string(report_text, "", "FILE: write the size report as a table");
DEFINE_string(dot, "",
              "FILE: write the result's graph as Graphviz DOT (FILE.svg, .png or .pdf: rendered "
              "with dot, which "
              "must be on the PATH)");
DEFINE_bool(dot_diff, false,
            "with --dot: colour the nodes the pipeline added (green) and removed (red)");

namespace onnx_opt::tools {
namespace {

constexpr char kUsage[] =
    "usage: onnx-opt INPUT -o OUTPUT [options]\n"
    "\n"
    "Loads an ONNX model (\"-\" reads standard input), runs a pipeline of passes over it, checks "
    "the\n"
    "result and writes it to OUTPUT (\"-\" writes standard output). The output is written whole or "
    "not\n"
    "at all; INPUT is never modified.\n"
    "\n"
    "Pipelines are comma-separated pass and group names; fixed(a,b) repeats a,b until nothing "
    "changes\n"
    "(fixed<N>(...) at most N rounds). Without --passes the 'default' group runs. --list-passes "
    "shows\n"
    "every pass and group.\n"
    "\n"
    "--verify runs the input and the result through the bundled interpreter on the same inputs "
    "(random\n"
    "ones from the declared types, or --inputs=DIR) and writes nothing unless every output "
    "matches;\n"
    "--verify-each does that after every pass and names the first pass that changed an output.\n"
    "A float element matches when |got - expected| <= ATOL + RTOL * max(|expected|, rms), rms "
    "being\n"
    "the root mean square of that output (rounding errors scale with the output, not the "
    "element).\n"
    "The interpreter (verification, constant folding) runs large matrix products on --threads=N\n"
    "threads, by default all cores; results are the same bits for every N.\n"
    "\n"
    "Shrinking: --strip-doc-strings, --strip-metadata and --strip-value-info append the passes of\n"
    "those names to the pipeline. --float16 (lossy) appends float16-weights last, which stores "
    "float32\n"
    "weights of 128 or more elements as float16 with a Cast back. A pipeline with a lossy pass "
    "always\n"
    "verifies, by whole-output figures of each output against the input model's: relative L2 "
    "error\n"
    "<= 1e-2 and cosine similarity >= 0.9999 for float16 (--lossy-tolerance=REL_L2[,MIN_COSINE\n"
    "[,MAX_ABS]] sets them), or element by element with --tolerance. Tensors are always written "
    "as\n"
    "raw_data. --external-data-threshold moves\n"
    "tensors of that many bytes or more to a side file (models over 2 GB always get one).\n"
    "--report prints bytes and nodes before and after, the passes that made the difference and "
    "the\n"
    "largest output error seen by verification; --report-json and --report-text write it to "
    "files.\n"
    "\n"
    "--dot=FILE draws the result's graph (Graphviz DOT; rendered by dot when FILE ends in .svg, "
    ".png\n"
    "or .pdf); --dot-diff colours what the pipeline changed.\n"
    "\n"
    "A run that takes more than a second logs what it is doing on stderr (the pass, the node "
    "count,\n"
    "the time so far) about once a second; --quiet prints none of that, --v=1 logs every pass "
    "with\n"
    "its rewrite count.\n"
    "\n"
    "Exit status: 0 on success, 1 on a model, pass or verification error, 2 on bad usage.\n";

void ListPasses() {
  std::cout << "groups:\n";
  for (const auto& [name, group] : optimizer::PassRegistry::Global().groups()) {
    std::cout << "  " << name << std::string(name.size() < 24 ? 24 - name.size() : 1, ' ')
              << group.summary << "\n"
              << std::string(26, ' ') << "= " << group.pipeline << "\n";
  }
  std::cout << "passes:\n";
  for (const optimizer::PassInfo* pass : ListedPasses()) {
    const std::string& name = pass->name;
    std::cout << "  " << name << std::string(name.size() < 24 ? 24 - name.size() : 1, ' ')
              << pass->summary << "\n";
  }
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
  absl::StatusOr<ModelBytes> bytes =
      MeasureModelBytes(model, static_cast<int64_t>(size), FolderOf(input));
  if (bytes.ok()) return bytes;
  // A symlinked model may keep its external data beside its target (as the loader allows).
  const std::filesystem::path target = std::filesystem::canonical(input, ec);
  return ec ? bytes
            : MeasureModelBytes(model, static_cast<int64_t>(size), FolderOf(target.string()));
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

// `status` with `context` before its message: the one line a failure prints after "onnx-opt: ".
absl::Status WithContext(absl::string_view context, const absl::Status& status) {
  if (status.ok()) return status;
  return absl::Status(status.code(), absl::StrCat(context, status.message()));
}

// A BYTES flag's value (gflags has parsed the integer); a negative count is a usage error.
absl::StatusOr<int64_t> ByteCount(absl::string_view flag, int64_t value) {
  if (value < 0)
    return absl::InvalidArgumentError(absl::StrCat("--", flag, " needs a byte count, got ", value));
  return value;
}

// What the command line asks for, checked.
struct Options {
  std::string input;
  std::string output;
  // The pipeline (--passes and the passes the shrinking flags append), pass options and
  // verification; Optimize attaches the progress hooks.
  OptimizeRequest request;
  ir::io::SaveOptions save;
  std::optional<std::string> data_file;  // --external-data-file, when given
  bool print_stats = false;
  std::string stats_json;
  std::string dot;
  bool dot_diff = false;
  bool report = false;
  std::string report_json;
  std::string report_text;

  bool want_report() const { return report || !report_json.empty() || !report_text.empty(); }
};

// The flags (after --version and --list-passes) into Options. Every mistake on the command line is
// found here, before the input is read, and is an InvalidArgument (a usage error).
absl::StatusOr<Options> ParseOptions(const cli::ParsedCommandLine& command_line) {
  if (command_line.positional.size() != 1 || FLAGS_output.empty()) {
    return absl::InvalidArgumentError("expected one INPUT and -o OUTPUT");
  }
  Options o;
  o.input = command_line.positional[0];
  o.output = FLAGS_output;

  optimizer::PassOptions& passes = o.request.manager.pass_options;
  ASSIGN_OR_RETURN(passes.fold_size_limit, ByteCount("fold-size-limit", FLAGS_fold_size_limit));
  ASSIGN_OR_RETURN(passes.fold_growth_limit,
                   ByteCount("fold-growth-limit", FLAGS_fold_growth_limit));
  passes.fold_overridable_initializers = FLAGS_fold_input_defaults;
  // Weights a pass computes from mapped ones (quantize-weights) wait for the save in a temporary
  // file beside the output, not in memory; the save then gives its disk back as it goes (below).
  if (FLAGS_output != "-") passes.spill_directory = FolderOf(FLAGS_output);

  equivalence::EquivalenceOptions& equivalence = o.request.equivalence;
  RETURN_IF_ERROR(cli::ApplyInputFlags(equivalence));
  RETURN_IF_ERROR(cli::ApplyToleranceFlag(equivalence.tolerances));
  // Lossy passes (--float16) are judged by whole-output figures unless --tolerance asks for
  // elements.
  o.request.elementwise_tolerance = cli::ToleranceGiven();
  o.request.verify = FLAGS_verify || FLAGS_verify_each;
  o.request.verify_each = FLAGS_verify_each;
  o.request.inputs_dir = FLAGS_inputs;

  o.save.force_raw_data = true;
  if (!gflags::GetCommandLineFlagInfoOrDie("external_data_threshold").is_default) {
    ASSIGN_OR_RETURN(const int64_t threshold,
                     ByteCount("external-data-threshold", FLAGS_external_data_threshold));
    o.save.external_data_threshold = static_cast<uint64_t>(threshold);
  }
  if (!gflags::GetCommandLineFlagInfoOrDie("external_data_file").is_default) {
    const std::string& file = FLAGS_external_data_file;
    if (file.empty() || file.find('/') != std::string::npos || file == "." || file == "..") {
      return absl::InvalidArgumentError(
          "--external-data-file is a file name next to OUTPUT, got '" + file + "'");
    }
    o.data_file = file;
    o.save.external_data_file = file;
  }
  if (o.output == "-" && (o.save.external_data_threshold || o.data_file)) {
    return absl::InvalidArgumentError("external data needs an OUTPUT file, not standard output");
  }

  std::string& pipeline = o.request.pipeline;
  pipeline = FLAGS_passes;
  if (FLAGS_strip_doc_strings) pipeline += ",strip-doc-strings";
  if (FLAGS_strip_metadata) pipeline += ",strip-metadata";
  if (FLAGS_strip_value_info) pipeline += ",strip-value-info";
  if (FLAGS_float16) pipeline += ",float16-weights";  // last: folding would undo it
  // The parser's InvalidArgument is the caller's mistake (optimizer/pipeline.h).
  RETURN_IF_ERROR(optimizer::ParsePipeline(pipeline, optimizer::PassRegistry::Global()).status());

  if (FLAGS_dot_diff && FLAGS_dot.empty())
    return absl::InvalidArgumentError("--dot-diff needs --dot=FILE");
  o.dot = FLAGS_dot;
  o.dot_diff = FLAGS_dot_diff;
  o.print_stats = FLAGS_print_stats;
  o.stats_json = FLAGS_stats_json;
  o.report = FLAGS_report;
  o.report_json = FLAGS_report_json;
  o.report_text = FLAGS_report_text;
  return o;
}

// The model after the pipeline, and what reporting on the run needs from before it.
struct Optimized {
  std::unique_ptr<ir::Model> model;
  std::unique_ptr<ir::Model> original;  // the input as it was, for --dot-diff
  OptimizeOutcome outcome;
  ShrinkReport report;  // with its "before" half filled in when a report is wanted
  // The input's checker result, when the result is still to be checked (while it is saved).
  std::optional<schema::checker::CheckResult> unchecked;
};

// Loads and checks the input, then runs the pipeline over it (verifying when asked).
absl::StatusOr<Optimized> Optimize(const Options& options, cli::PhaseTimes& phases,
                                   cli::Progress& progress) {
  Optimized run;
  phases.Begin("load");
  absl::StatusOr<std::unique_ptr<ir::Model>> model = ReadModel(options.input);
  if (!model.ok()) return WithContext(options.input + ": ", model.status());
  run.model = *std::move(model);
  // Passes assume a valid model, and an invalid input cannot give a valid output.
  phases.Begin("check");
  ASSIGN_OR_RETURN(
      schema::checker::CheckResult input_check,
      CheckInputModel(*run.model, options.input, StderrWarnings("onnx-opt: " + options.input)));
  if (options.dot_diff) {
    absl::StatusOr<std::unique_ptr<ir::Model>> copy = ir::CloneModel(*run.model);
    if (!copy.ok())
      return WithContext("cannot keep a copy of the input for --dot-diff: ", copy.status());
    run.original = *std::move(copy);
  }
  if (options.want_report()) {
    run.report.input = options.input;
    run.report.output = options.output;
    run.report.pipeline = options.request.pipeline;
    run.report.ops_before = optimizer::CountOpTypes(*run.model);
    absl::StatusOr<ModelBytes> before = MeasureInput(*run.model, options.input);
    if (!before.ok()) return WithContext(options.input + ": ", before.status());
    run.report.before = *before;
  }

  OptimizeRequest request = options.request;
  // The result is checked while it is saved, unless something before the save needs it checked: a
  // verification, or files written before the model (--stats-json, --dot), which a failed check
  // must leave unwritten.
  request.check_result =
      request.verify || request.verify_each || !options.stats_json.empty() || !options.dot.empty();
  request.progress = [&progress, &phases](std::string_view phase, std::string_view what) {
    phases.Begin(phase);
    progress.Report(what);
  };
  request.manager.before_each = [&progress, &phases](const std::string& pass,
                                                     const optimizer::ModelSize& size) {
    phases.Begin("passes");
    progress.Report(absl::StrCat("pass ", pass, ": ", size.nodes, " nodes"));
  };
  phases.Begin("passes");
  ASSIGN_OR_RETURN(run.outcome,
                   OptimizeCheckedModel(*run.model, input_check, request,
                                        StderrWarnings("onnx-opt: " + options.output)));
  if (!request.check_result) run.unchecked = std::move(input_check);
  return run;
}

// --print-stats, --stats-json, the verification line and --dot: what the run did, before the save
// (a failure here writes nothing).
absl::Status ReportRun(const Options& options, Optimized& run) {
  const optimizer::PipelineResult& result = run.outcome.pipeline;
  if (options.print_stats) std::cerr << optimizer::FormatStatsTable(result);
  if (!options.stats_json.empty()) {
    RETURN_IF_ERROR(
        WithContext(options.stats_json + ": ",
                    WriteTextFile(options.stats_json, optimizer::FormatStatsJson(result))));
  }
  if (run.outcome.verification.ran) {
    for (const std::string& note : run.outcome.verification.notes)
      std::cerr << "onnx-opt: note: " << note << "\n";
    std::cerr << "onnx-opt: verified: " << DescribeMatch(run.outcome.verification) << "\n";
    run.report.verification =
        SummarizeVerification(run.outcome.verification.differences, run.outcome.verification.lossy,
                              options.request.equivalence);
  }
  if (!options.dot.empty()) {
    const std::string dot = ToDot(*run.model, {.compare_with = run.original.get()});
    RETURN_IF_ERROR(WithContext("--dot: ", WriteDotFile(options.dot, dot)));
  }
  return absl::OkStatus();
}

// A build rule declares the side file, so it must exist (empty) even when no tensor went there.
absl::Status EnsureSideFile(const std::string& output, const std::string& data_file,
                            const ModelBytes& written) {
  const std::vector<std::string>& named = written.external_files_named;
  if (std::find(named.begin(), named.end(), data_file) != named.end()) return absl::OkStatus();
  const std::string side = (std::filesystem::path(output).parent_path() / data_file).string();
  return WithContext(side + ": ", WriteTextFile(side, ""));
}

// --report, --report-json and --report-text: the size report, from the bytes as written.
absl::Status ReportSize(const Options& options, Optimized& run, const ModelBytes& written) {
  ShrinkReport& report = run.report;
  report.passes = ContributionsOf(run.outcome.pipeline);
  report.ops_after = optimizer::CountOpTypes(*run.model);
  report.after = written;
  if (options.report) std::cerr << FormatReportTable(report);
  for (const auto& [path, text] : {std::pair{options.report_json, FormatReportJson(report)},
                                   std::pair{options.report_text, FormatReportTable(report)}}) {
    if (path.empty()) continue;
    RETURN_IF_ERROR(WithContext(path + ": ", WriteTextFile(path, text)));
  }
  return absl::OkStatus();
}

// Reports on the run, saves the result, then what needs the written file (side file, size report).
absl::Status Report(const Options& options, Optimized& run, cli::PhaseTimes& phases) {
  phases.Begin("other");
  RETURN_IF_ERROR(ReportRun(options, run));
  phases.Begin("save");
  if (run.unchecked.has_value()) {
    const ir::Model& result = *run.model;
    absl::Status check_status;
    absl::Status written = WriteCheckedModel(
        result, options.output, options.save,
        [&](const WarningSink& warn) { return CheckResultModel(result, *run.unchecked, warn); },
        StderrWarnings("onnx-opt: " + options.output), &check_status);
    RETURN_IF_ERROR(check_status);
    RETURN_IF_ERROR(WithContext(options.output + ": ", written));
  } else {
    // Checked already, so nothing reads the model's tensors after they are written: spilled
    // weights give back their disk as the side file grows (a 7B model's quantized weights and their
    // saved copy need not fit on disk together).
    ir::io::SaveOptions save = options.save;
    save.discard_written = true;
    RETURN_IF_ERROR(
        WithContext(options.output + ": ", WriteModel(*run.model, options.output, save)));
  }
  if (!options.want_report() && !options.data_file) return absl::OkStatus();
  phases.Begin("other");
  absl::StatusOr<ModelBytes> written = MeasureOutput(*run.model, options.output, options.save);
  if (!written.ok()) return WithContext("measuring " + options.output + ": ", written.status());
  if (options.data_file)
    RETURN_IF_ERROR(EnsureSideFile(options.output, *options.data_file, *written));
  if (!options.want_report()) return absl::OkStatus();
  return ReportSize(options, run, *written);
}

// Exit status 1: a model, pass, verification or file error.
int Failure(const absl::Status& status) {
  std::cerr << "onnx-opt: " << status.message() << "\n";
  return 1;
}

int Main(int argc, char** argv) {
  cli::PhaseTimes phases("onnx-opt");
  const cli::Tool tool{
      "onnx-opt", kUsage, __FILE__, {{{"o", "output"}}, cli::RepeatedInputFlags()}};
  const cli::ParsedCommandLine command_line = cli::ParseCommandLine(argc, argv, tool);
  if (command_line.exit_status) return *command_line.exit_status;
  if (absl::Status s = cli::ApplyThreadsFlag(cli::AllCores()); !s.ok())
    return cli::UsageError(tool, std::string(s.message()));
  if (absl::Status s = cli::ApplyIsaFlag(); !s.ok())
    return cli::UsageError(tool, std::string(s.message()));
  if (FLAGS_version) {
    std::cout << cli::VersionText(tool.name);
    return 0;
  }
  if (FLAGS_list_passes) {
    ListPasses();
    return 0;
  }
  absl::StatusOr<Options> options = ParseOptions(command_line);
  // Exit status 2 for what the caller wrote wrong (InvalidArgument), 1 for anything else.
  if (absl::IsInvalidArgument(options.status()))
    return cli::UsageError(tool, std::string(options.status().message()));
  if (!options.ok()) return Failure(options.status());
  cli::Progress progress;
  absl::StatusOr<Optimized> run = Optimize(*options, phases, progress);
  if (!run.ok()) return Failure(run.status());
  if (absl::Status s = Report(*options, *run, phases); !s.ok()) return Failure(s);
  KeepUntilExit(std::move(run->model));
  KeepUntilExit(std::move(run->original));
  return 0;
}

}  // namespace
}  // namespace onnx_opt::tools

int main(int argc, char** argv) { return onnx_opt::tools::Main(argc, argv); }
