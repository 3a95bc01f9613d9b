// onnx-convert: moves a model to another opset of ai.onnx (and ai.onnx.ml), one opset step at a time,
// checks the result and, with --verify, proves it computes what the input did.
#include <filesystem>
#include <iostream>
#include <string>

#include "converter/convert.h"
#include "ir/io/model_io.h"
#include "optimizer/equivalence.h"
#include "schema/checker/checker.h"
#include "tools/cli/args.h"
#include "tools/model_check.h"
#include "tools/model_source.h"
#include "tools/model_steps.h"
#include "tools/verification.h"

namespace onnx_opt::tools {
namespace {

constexpr char kUsage[] =
    "usage: onnx-convert INPUT -o OUTPUT --opset=N [options]\n"
    "\n"
    "Converts an ONNX model (\"-\" reads standard input) to opset N of the default domain (up or down,\n"
    "one opset step at a time; --ml-opset=M does the same for ai.onnx.ml) and writes it to OUTPUT (\"-\"\n"
    "writes standard output). ir_version follows the target opset. Nothing is written unless the result\n"
    "passes the checker and, with --verify, computes the same outputs as the input on the same inputs\n"
    "(random ones from the declared types, or --inputs=DIR).\n"
    "\n"
    "Exit status: 0 on success, 1 on a model, conversion or verification error, 2 on bad usage.\n"
    "\n"
    "options:\n";

absl::StatusOr<int64_t> ParseOpset(const std::string& text, const char* flag) {
  char* end = nullptr;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || v < 1) {
    return absl::InvalidArgumentError(std::string(flag) + " needs a positive opset number, got '" + text + "'");
  }
  return v;
}

int Main(int argc, char** argv) {
  std::vector<cli::OptionSpec> specs = {
      {"output", "o", true, false, "FILE", "where to write the result (\"-\": standard output)"},
      {"opset", "", true, false, "N", "target opset of the default ONNX domain"},
      {"ml-opset", "", true, false, "M", "target opset of ai.onnx.ml"},
      {"verify", "", false, false, "", "check that the result computes the same outputs; write nothing if not"},
      {"help", "h", false, false, "", "print this help"},
  };
  for (cli::OptionSpec& spec : InputOptionSpecs()) specs.push_back(std::move(spec));
  cli::Args args(std::move(specs));
  if (absl::Status s = args.Parse(argc, argv); !s.ok()) {
    std::cerr << "onnx-convert: " << s.message() << "\n" << kUsage << args.OptionsHelp();
    return 2;
  }
  if (args.Has("help")) {
    std::cout << kUsage << args.OptionsHelp();
    return 0;
  }
  if (args.positional().size() != 1 || !args.Has("output") || (!args.Has("opset") && !args.Has("ml-opset"))) {
    std::cerr << "onnx-convert: expected one INPUT, -o OUTPUT and --opset=N (or --ml-opset=M)\n"
              << kUsage << args.OptionsHelp();
    return 2;
  }
  converter::ConvertOptions options;
  for (const char* flag : {"opset", "ml-opset"}) {
    if (std::optional<std::string> v = args.Get(flag)) {
      absl::StatusOr<int64_t> n = ParseOpset(*v, flag[0] == 'o' ? "--opset" : "--ml-opset");
      if (!n.ok()) {
        std::cerr << "onnx-convert: " << n.status().message() << "\n";
        return 2;
      }
      (flag[0] == 'o' ? options.onnx_opset : options.ml_opset) = *n;
    }
  }
  optimizer::EquivalenceOptions eq_options;
  if (absl::Status s = ParseInputOptions(args, eq_options); !s.ok()) {
    std::cerr << "onnx-convert: " << s.message() << "\n";
    return 2;
  }
  const std::string input = args.positional()[0];
  const std::string output = *args.Get("output");
  absl::StatusOr<std::unique_ptr<ir::Model>> model = ReadModel(input);
  if (!model.ok()) {
    std::cerr << "onnx-convert: " << input << ": " << model.status().message() << "\n";
    return 1;
  }
  absl::StatusOr<schema::checker::CheckResult> input_check =
      CheckInputModel(**model, input, StderrWarnings("onnx-convert: " + input));
  if (!input_check.ok()) {
    std::cerr << "onnx-convert: " << input_check.status().message() << "\n";
    return 1;
  }
  ConvertRequest request;
  request.options = options;
  request.verify = args.Has("verify");
  request.inputs_dir = args.Get("inputs").value_or("");
  request.equivalence = eq_options;
  absl::StatusOr<ConvertOutcome> outcome =
      ConvertCheckedModel(**model, *input_check, request, StderrWarnings("onnx-convert: " + output));
  if (!outcome.ok()) {
    std::cerr << "onnx-convert: " << outcome.status().message() << "\n";
    return 1;
  }
  if (request.verify) std::cerr << "onnx-convert: verified: " << DescribeMatch(outcome->differences) << "\n";
  const converter::ConvertReport& report = outcome->report;
  for (const std::string& w : report.warnings) std::cerr << "onnx-convert: warning: " << w << "\n";
  std::cerr << "onnx-convert: ir_version " << report.ir_from << " -> " << report.ir_to << ", "
            << report.nodes_adapted << " nodes adapted, " << report.nodes_rewritten << " rewritten\n";
  if (absl::Status s = WriteModel(*outcome->model, output); !s.ok()) {
    std::cerr << "onnx-convert: " << output << ": " << s.message() << "\n";
    return 1;
  }
  return 0;
}

}  // namespace
}  // namespace onnx_opt::tools

int main(int argc, char** argv) { return onnx_opt::tools::Main(argc, argv); }
