// onnx-check: loads each model and verifies it; prints "MODEL: ok" on stdout, or "MODEL: error:
// ..." (one line, the first error) on stderr, so that a script can tell the verdicts apart.
#include <iostream>
#include <string>

#include "ir/captures.h"
#include "schema/checker/checker.h"
#include "schema/inference/inference.h"
#include "tools/cli/command_line.h"
#include "tools/cli/phase_times.h"
#include "tools/cli/version_text.h"
#include "tools/lib/model_check.h"
#include "tools/lib/model_source.h"

DEFINE_bool(all_errors, false, "print every error, not just the first");
DEFINE_bool(infer, false, "also infer types and shapes, and print every value's type");

namespace onnx_opt::tools {
namespace {

constexpr char kUsage[] =
    "usage: onnx-check [options] MODEL...\n"
    "\n"
    "Loads each ONNX model (\"-\" reads standard input) and checks that it is valid: it parses, "
    "external\n"
    "data stays inside the model's folder and matches the declared sizes, every name is defined "
    "once and\n"
    "before it is used, there are no cycles, the opset imports are known, every node matches its\n"
    "operator's schema at the imported opset (inputs, outputs, attributes, type constraints), and "
    "If,\n"
    "Loop and Scan bodies fit their nodes. An opset newer than the IR version by ONNX's release "
    "table\n"
    "is a warning, not an error.\n"
    "Prints \"MODEL: ok\" on standard output for each valid model; errors (\"MODEL: error: ...\", "
    "the first\n"
    "one unless --all-errors) and warnings (\"MODEL: warning: ...\") go to standard error.\n"
    "\n"
    "Exit status: 0 if every model is ok, 1 if any is not, 2 on bad usage.\n";

// Runs inference and prints "MODEL: NAME: TYPE" for every node output of the main graph and its
// subgraphs; warnings (contradictions with declared types) go to stderr. Returns 1 on failure.
int PrintInferred(const std::string& path, ir::Model& model) {
  std::vector<std::string> warnings;
  schema::inference::InferOptions options;
  options.warnings = &warnings;
  const absl::Status s = schema::inference::InferShapes(model, options);
  for (const std::string& w : warnings) std::cerr << path << ": inference warning: " << w << "\n";
  if (!s.ok()) {
    std::cerr << path << ": error: inference failed: " << s.message() << "\n";
    return 1;
  }
  int64_t typed = 0, total = 0;
  ir::ForEachNodeRecursive(model.graph(), [&](ir::Node* n) {
    for (size_t i = 0; i < n->num_outputs(); ++i) {
      const ir::Value* v = n->output(i);
      if (v->is_omitted()) continue;
      ++total;
      typed += !v->type().is_none();
      std::cout << path << ": " << v->name() << ": " << v->type().ToString() << "\n";
    }
  });
  std::cerr << path << ": inferred types for " << typed << " of " << total << " values\n";
  return 0;
}

int Main(int argc, char** argv) {
  cli::PhaseTimes phases("onnx-check");
  const cli::Tool tool{"onnx-check", kUsage, __FILE__, {}};
  const cli::ParsedCommandLine command_line = cli::ParseCommandLine(argc, argv, tool);
  if (command_line.exit_status) return *command_line.exit_status;
  if (FLAGS_version) {
    std::cout << cli::VersionText(tool.name);
    return 0;
  }
  if (command_line.positional.empty()) return cli::UsageError(tool, "no model given");
  int status = 0;
  for (const std::string& path : command_line.positional) {
    phases.Begin("load");
    absl::StatusOr<std::unique_ptr<ir::Model>> model = ReadModel(path);
    if (!model.ok()) {
      std::cerr << path << ": error: " << model.status().message() << "\n";
      status = 1;
      continue;
    }
    phases.Begin("check");
    const schema::checker::CheckResult result = CheckAndWarn(**model, StderrWarnings(path));
    phases.Begin("other");
    if (result.ok()) {
      std::cout << path << ": ok" << std::endl;  // in order with stderr when both go to a terminal
      if (FLAGS_infer) status |= PrintInferred(path, **model);
    } else {
      status = 1;
      if (FLAGS_all_errors) {
        for (const std::string& e : result.errors) std::cerr << path << ": error: " << e << "\n";
      } else {
        std::cerr << path << ": error: " << result.errors[0];
        if (result.errors.size() > 1) std::cerr << " (and " << result.errors.size() - 1 << " more)";
        std::cerr << "\n";
      }
    }
    if (&path == &command_line.positional.back()) KeepUntilExit(*std::move(model));
  }
  return status;
}

}  // namespace
}  // namespace onnx_opt::tools

int main(int argc, char** argv) { return onnx_opt::tools::Main(argc, argv); }
