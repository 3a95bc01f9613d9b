// onnx-convert: moves a model to another opset of ai.onnx (and ai.onnx.ml), one opset step at a
// time, checks the result and, with --verify, proves it computes what the input did.
#include <filesystem>
#include <iostream>
#include <string>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "converter/convert.h"
#include "equivalence/equivalence.h"
#include "ir/io/model_io.h"
#include "schema/checker/checker.h"
#include "tools/cli/command_line.h"
#include "tools/cli/input_flags.h"
#include "tools/cli/phase_times.h"
#include "tools/cli/progress.h"
#include "tools/cli/version_text.h"
#include "tools/lib/model_check.h"
#include "tools/lib/model_source.h"
#include "tools/lib/model_steps.h"
#include "tools/lib/verification.h"

DEFINE_string(output, "", "FILE: where to write the result (\"-\": standard output)");
DEFINE_int64(opset, 0, "N: target opset of the default ONNX domain");
DEFINE_int64(ml_opset, 0, "M: target opset of ai.onnx.ml");
DEFINE_bool(verify, false, "check that the result computes the same outputs; write nothing if not");
DEFINE_bool(
    standardize, false,
    "after converting, rewrite onnxruntime's com.microsoft contrib operators into standard ONNX "
    "operators where the target opset has a standard form; the nodes left are listed on stderr");

namespace onnx_opt::tools {
namespace {

constexpr char kUsage[] =
    "usage: onnx-convert INPUT -o OUTPUT --opset=N [--standardize] [options]\n"
    "\n"
    "Converts an ONNX model (\"-\" reads standard input) to opset N of the default domain (up or "
    "down,\n"
    "one opset step at a time; --ml-opset=M does the same for ai.onnx.ml) and writes it to OUTPUT "
    "(\"-\"\n"
    "writes standard output). ir_version follows the target opset. Nothing is written unless the "
    "result\n"
    "passes the checker and, with --verify, computes the same outputs as the input on the same "
    "inputs\n"
    "(random ones from the declared types, or --inputs=DIR).\n"
    "\n"
    "--standardize then rewrites onnxruntime's contrib operators (com.microsoft: "
    "SkipLayerNormalization,\n"
    "FastGelu, MatMulNBits, Attention, ...) into standard ONNX operators at the target opset, so "
    "that\n"
    "other runtimes can run the model (--opset=23 gives most of them a standard form); each node "
    "left\n"
    "is listed on stderr with the reason. Without --opset it standardizes at the model's own "
    "opset.\n"
    "\n"
    "A conversion that takes more than a second logs each opset step on stderr (--quiet: none);\n"
    "--v=1 logs every step.\n"
    "\n"
    "Exit status: 0 on success, 1 on a model, conversion or verification error, 2 on bad usage.\n";

int Main(int argc, char** argv) {
  cli::PhaseTimes phases("onnx-convert");
  const cli::Tool tool{
      "onnx-convert", kUsage, __FILE__, {{{"o", "output"}}, cli::RepeatedInputFlags()}};
  const cli::ParsedCommandLine command_line = cli::ParseCommandLine(argc, argv, tool);
  if (command_line.exit_status) return *command_line.exit_status;
  if (FLAGS_version) {
    std::cout << cli::VersionText(tool.name);
    return 0;
  }
  const bool opset_given = !gflags::GetCommandLineFlagInfoOrDie("opset").is_default;
  const bool ml_opset_given = !gflags::GetCommandLineFlagInfoOrDie("ml_opset").is_default;
  if (command_line.positional.size() != 1 || FLAGS_output.empty() ||
      (!opset_given && !ml_opset_given && !FLAGS_standardize)) {
    return cli::UsageError(
        tool, "expected one INPUT, -o OUTPUT and --opset=N (or --ml-opset=M, or --standardize)");
  }
  converter::ConvertOptions options;
  for (const auto& [given, value, flag] :
       {std::tuple{opset_given, FLAGS_opset, "--opset"},
        std::tuple{ml_opset_given, FLAGS_ml_opset, "--ml-opset"}}) {
    if (given && value < 1) {
      return cli::UsageError(tool,
                             absl::StrCat(flag, " needs a positive opset number, got ", value));
    }
  }
  if (opset_given) options.onnx_opset = FLAGS_opset;
  if (ml_opset_given) options.ml_opset = FLAGS_ml_opset;
  equivalence::EquivalenceOptions eq_options;
  if (absl::Status s = cli::ApplyInputFlags(eq_options); !s.ok())
    return cli::UsageError(tool, std::string(s.message()));
  cli::Progress progress;
  options.before_step = [&progress](const std::string& domain, int64_t from, int64_t to,
                                    int64_t nodes) {
    progress.Report(
        absl::StrCat("converting ", domain, " opset ", from, " -> ", to, " (", nodes, " nodes)"));
  };
  const std::string input = command_line.positional[0];
  const std::string output = FLAGS_output;
  phases.Begin("load");
  absl::StatusOr<std::unique_ptr<ir::Model>> model = ReadModel(input);
  if (!model.ok()) {
    std::cerr << "onnx-convert: " << input << ": " << model.status().message() << "\n";
    return 1;
  }
  phases.Begin("check");
  absl::StatusOr<schema::checker::CheckResult> input_check =
      CheckInputModel(**model, input, StderrWarnings("onnx-convert: " + input));
  if (!input_check.ok()) {
    std::cerr << "onnx-convert: " << input_check.status().message() << "\n";
    return 1;
  }
  ConvertRequest request;
  request.options = options;
  request.verify = FLAGS_verify;
  request.standardize = FLAGS_standardize;
  // Checked below by WriteCheckedModel (a verification checks it first itself).
  request.check_result = FLAGS_verify;
  request.inputs_dir = FLAGS_inputs;
  request.progress = [&progress, &phases](std::string_view phase, std::string_view what) {
    phases.Begin(phase);
    progress.Report(what);
  };
  request.equivalence = eq_options;
  phases.Begin("convert");
  absl::StatusOr<ConvertOutcome> outcome = ConvertCheckedModel(
      *std::move(model), *input_check, request, StderrWarnings("onnx-convert: " + output));
  if (!outcome.ok()) {
    std::cerr << "onnx-convert: " << outcome.status().message() << "\n";
    return 1;
  }
  phases.Begin("other");
  if (request.verify) {
    for (const std::string& note : outcome->verification.notes)
      std::cerr << "onnx-convert: note: " << note << "\n";
    std::cerr << "onnx-convert: verified: " << DescribeMatch(outcome->verification) << "\n";
  }
  if (outcome->standardized) {
    std::cerr << "onnx-convert: standardize: " << outcome->standardized->rewritten
              << " contrib nodes rewritten, " << outcome->standardized->kept.size() << " left\n";
    for (const std::string& kept : outcome->standardized->kept)
      std::cerr << "onnx-convert: kept " << kept << "\n";
  }
  const converter::ConvertReport& report = outcome->report;
  for (const std::string& w : report.warnings) std::cerr << "onnx-convert: warning: " << w << "\n";
  std::cerr << "onnx-convert: ir_version " << report.ir_from << " -> " << report.ir_to << ", "
            << report.nodes_adapted << " nodes adapted, " << report.nodes_rewritten
            << " rewritten\n";
  phases.Begin("save");
  const ir::Model& result = *outcome->model;
  absl::Status check_status;
  const absl::Status written = request.check_result
                                   ? WriteModel(result, output)
                                   : WriteCheckedModel(
                                         result, output, {},
                                         [&](const WarningSink& warn) {
                                           return CheckResultModel(result, *input_check, warn);
                                         },
                                         StderrWarnings("onnx-convert: " + output), &check_status);
  if (!check_status.ok()) {
    std::cerr << "onnx-convert: " << check_status.message() << "\n";
    return 1;
  }
  if (!written.ok()) {
    std::cerr << "onnx-convert: " << output << ": " << written.message() << "\n";
    return 1;
  }
  KeepUntilExit(std::move(outcome->model));
  return 0;
}

}  // namespace
}  // namespace onnx_opt::tools

int main(int argc, char** argv) { return onnx_opt::tools::Main(argc, argv); }
