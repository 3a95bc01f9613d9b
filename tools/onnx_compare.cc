// onnx-compare: do two models compute the same outputs? Runs both with the bundled interpreter on
// the same inputs and compares every output as onnx-opt's verification does
// (tools/lib/model_compare.h).
#include <iostream>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "tools/cli/command_line.h"
#include "tools/cli/input_flags.h"
#include "tools/cli/runtime_options.h"
#include "tools/cli/tolerance_flag.h"
#include "tools/cli/version_text.h"
#include "tools/lib/model_compare.h"
#include "tools/lib/model_source.h"
#include "tools/lib/model_steps.h"

namespace onnx_opt::tools {
namespace {

constexpr char kUsage[] =
    "usage: onnx-compare A.onnx B.onnx [options]\n"
    "\n"
    "Tells whether two models compute the same outputs: runs both with the bundled interpreter on "
    "the\n"
    "same inputs and compares every output as onnx-opt's verification does. Inputs are random, "
    "from A's\n"
    "declared types and shapes (--seed, --shape); symbolic dims are run at 2 and, for small "
    "models,\n"
    "again at 3 and 4, unless --dim fixes them (a model that refuses sizes other than 1 is run at "
    "1,\n"
    "with a note). --inputs=DIR reads input_K.pb instead: the K-th input of A that has no "
    "initializer,\n"
    "or the input a file's value is named after. B's inputs are fed by name; outputs are matched "
    "by\n"
    "name when both models name the same ones, else by position.\n"
    "\n"
    "A float32 element matches when |b - a| <= ATOL + RTOL * max(|a|, rms), rms the root mean "
    "square\n"
    "of A's output (--tolerance=RTOL[,ATOL], default 1e-4,1e-5); NaN matches only NaN, an "
    "infinity\n"
    "only the same infinity; integers, booleans and strings must be equal. To compare a model "
    "with\n"
    "a lossy version of it (float16 or quantized weights), --lossy-tolerance=REL_L2[,MIN_COSINE\n"
    "[,MAX_ABS]] judges each float output as a whole instead: by its relative L2 error, cosine\n"
    "similarity and max abs error against A's.\n"
    "\n"
    "Prints one line per output, then the verdict (\"equal\" or \"different\").\n"
    "\n"
    "Exit status: 0 when every output is equal, 1 when one differs or a model does not load or "
    "run,\n"
    "2 on bad usage.\n";

int Main(int argc, char** argv) {
  const cli::Tool tool{"onnx-compare", kUsage, __FILE__, {{}, cli::RepeatedInputFlags()}};
  const cli::ParsedCommandLine command_line = cli::ParseCommandLine(argc, argv, tool);
  if (command_line.exit_status) return *command_line.exit_status;
  for (absl::Status s : {cli::ApplyThreadsFlag(cli::AllCores()), cli::ApplyIsaFlag()}) {
    if (!s.ok()) return cli::UsageError(tool, std::string(s.message()));
  }
  if (FLAGS_version) {
    std::cout << cli::VersionText(tool.name);
    return 0;
  }
  if (command_line.positional.size() != 2)
    return cli::UsageError(tool, "expected two models, A and B");
  CompareRequest request;
  request.inputs_dir = FLAGS_inputs;
  for (absl::Status s : {cli::ApplyInputFlags(request.equivalence),
                         cli::ApplyToleranceFlag(request.equivalence.tolerances)}) {
    if (!s.ok()) return cli::UsageError(tool, std::string(s.message()));
  }
  std::unique_ptr<ir::Model> models[2];
  for (int i = 0; i < 2; ++i) {
    const std::string& path = command_line.positional[i];
    absl::StatusOr<std::unique_ptr<ir::Model>> model = ReadModel(path);
    if (!model.ok()) {
      std::cerr << "onnx-compare: " << path << ": " << model.status().message() << "\n";
      return 1;
    }
    if (absl::Status s =
            CheckInputModel(**model, path, StderrWarnings("onnx-compare: " + path)).status();
        !s.ok()) {
      std::cerr << "onnx-compare: " << s.message() << "\n";
      return 1;
    }
    models[i] = *std::move(model);
  }
  absl::StatusOr<CompareOutcome> outcome = CompareModels(*models[0], *models[1], request);
  if (!outcome.ok()) {
    std::cerr << "onnx-compare: " << outcome.status().message() << "\n";
    return 1;
  }
  const Verification& v = outcome->verification;
  for (const std::string& note : v.notes) std::cerr << "onnx-compare: note: " << note << "\n";
  for (const std::string& line : DescribeOutputs(v)) std::cout << line << "\n";
  int different = 0;
  for (const equivalence::OutputDifference& d : v.differences) different += !d.equal;
  const std::string at =
      v.sizes.empty() ? "" : absl::StrCat(" at ", absl::StrJoin(v.sizes, " and at "));
  if (outcome->equal) {
    std::cout << "equal: " << v.differences.size() << " output"
              << (v.differences.size() == 1 ? "" : "s") << at << "\n";
    return 0;
  }
  std::cout << "different: " << different << " of " << v.differences.size() << " outputs" << at
            << "\n";
  return 1;
}

}  // namespace
}  // namespace onnx_opt::tools

int main(int argc, char** argv) { return onnx_opt::tools::Main(argc, argv); }
