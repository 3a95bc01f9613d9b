// onnx-opt: loads a model, runs a pass pipeline over it, verifies and writes the result.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

#include "schema/checker/checker.h"
#include "optimizer/pass_manager.h"
#include "optimizer/pass_registry.h"
#include "tools/cli/args.h"
#include "tools/model_source.h"
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
    "\n"
    "Exit status: 0 on success, 1 on a model, pass or verification error, 2 on bad usage.\n"
    "\n"
    "options:\n";

void ListPasses() {
  const optimizer::PassRegistry& registry = optimizer::PassRegistry::Global();
  std::cout << "groups:\n";
  for (const auto& [name, group] : registry.groups()) {
    std::cout << "  " << name << std::string(name.size() < 24 ? 24 - name.size() : 1, ' ') << group.summary
              << "\n" << std::string(26, ' ') << "= " << group.pipeline << "\n";
  }
  std::cout << "passes:\n";
  for (const auto& [name, pass] : registry.passes()) {
    if (name.rfind("test-", 0) == 0) continue;
    std::cout << "  " << name << std::string(name.size() < 24 ? 24 - name.size() : 1, ' ') << pass.summary << "\n";
  }
}

int Main(int argc, char** argv) {
  std::vector<cli::OptionSpec> specs = {
      {"output", "o", true, false, "FILE", "where to write the result (\"-\": standard output)"},
      {"passes", "", true, false, "LIST", "the pipeline to run (default: \"default\")"},
      {"list-passes", "", false, false, "", "print every pass and group, then exit"},
      {"print-stats", "", false, false, "", "print per-pass time, rewrites, nodes and bytes to stderr"},
      {"stats-json", "", true, false, "FILE", "write the per-pass statistics as JSON"},
      {"fold-size-limit", "", true, false, "BYTES", "largest folded constant that may grow the model (default 1048576)"},
      {"verify", "", false, false, "", "check that the result computes the same outputs; write nothing if not"},
      {"verify-each", "", false, false, "", "check outputs after every pass; name the first pass that breaks them"},
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

  optimizer::EquivalenceOptions eq_options;
  if (absl::Status s = ParseInputOptions(args, eq_options); !s.ok()) {
    std::cerr << "onnx-opt: " << s.message() << "\n";
    return 2;
  }
  const bool verify = args.Has("verify") || args.Has("verify-each");

  absl::StatusOr<std::unique_ptr<ir::Model>> model = ReadModel(input);
  if (!model.ok()) {
    std::cerr << "onnx-opt: " << input << ": " << model.status().message() << "\n";
    return 1;
  }
  // Passes assume a valid model, and an invalid input cannot give a valid output.
  if (const auto check = schema::checker::Check(**model); !check.ok()) {
    std::cerr << "onnx-opt: " << input << " is not a valid model: " << check.errors[0] << "\n";
    return 1;
  }

  // The original, kept for verification: a lossless copy through the serialized form.
  std::unique_ptr<ir::Model> original;
  Reference reference;
  if (verify) {
    absl::StatusOr<std::string> bytes = ir::io::SerializeModel(**model);
    ir::io::LoadOptions load_options;
    if (input != "-") load_options.external_data_dir = std::filesystem::path(input).parent_path().string();
    absl::StatusOr<std::unique_ptr<ir::Model>> copy =
        bytes.ok() ? ir::io::LoadModelFromString(*bytes, load_options) : bytes.status();
    if (!copy.ok()) {
      std::cerr << "onnx-opt: cannot keep a copy of the input for verification: " << copy.status().message() << "\n";
      return 1;
    }
    original = std::move(*copy);
    absl::StatusOr<Reference> ref = MakeReference(*original, args.Get("inputs").value_or(""), eq_options);
    if (!ref.ok()) {
      std::cerr << "onnx-opt: " << ref.status().message() << "\n";
      return 1;
    }
    reference = std::move(*ref);
  }
  if (args.Has("verify-each")) {
    options.after_each = [&](const ir::Model& m, const std::string&) {
      return optimizer::CheckOutputs(m, reference.inputs, reference.outputs, eq_options);
    };
  }
  optimizer::PassManager manager(options);
  absl::StatusOr<optimizer::PipelineResult> result =
      manager.Run(**model, args.Get("passes").value_or("default"));
  if (!result.ok()) {
    const bool usage = absl::IsInvalidArgument(result.status()) &&
                       std::string(result.status().message()).find("pipeline") != std::string::npos;
    std::cerr << "onnx-opt: " << result.status().message() << "\n";
    return usage || std::string(result.status().message()).rfind("unknown pass", 0) == 0 ? 2 : 1;
  }
  if (args.Has("print-stats")) std::cerr << optimizer::FormatStatsTable(*result);
  if (std::optional<std::string> json = args.Get("stats-json")) {
    std::ofstream out(*json);
    out << optimizer::FormatStatsJson(*result);
    if (!out) {
      std::cerr << "onnx-opt: cannot write " << *json << "\n";
      return 1;
    }
  }
  if (const auto check = schema::checker::Check(**model); !check.ok()) {
    std::cerr << "onnx-opt: the result would be invalid, nothing written: " << check.errors[0] << "\n";
    return 1;
  }
  if (verify) {
    std::vector<optimizer::OutputDifference> report;
    if (absl::Status s = optimizer::CheckOutputs(**model, reference.inputs, reference.outputs, eq_options, &report);
        !s.ok()) {
      std::cerr << "onnx-opt: verification failed, nothing written: " << s.message() << "\n";
      return 1;
    }
    std::cerr << "onnx-opt: verified: " << DescribeMatch(report) << "\n";
  }
  if (absl::Status s = WriteModel(**model, output); !s.ok()) {
    std::cerr << "onnx-opt: " << output << ": " << s.message() << "\n";
    return 1;
  }
  return 0;
}

}  // namespace
}  // namespace onnx_opt::tools

int main(int argc, char** argv) { return onnx_opt::tools::Main(argc, argv); }
