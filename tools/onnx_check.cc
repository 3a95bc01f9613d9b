// onnx-check: loads each model and verifies it; prints "MODEL: ok" or "MODEL: <one clear error>".
#include <iostream>
#include <string>

#include "ir/verifier.h"
#include "tools/cli/args.h"
#include "tools/model_source.h"

namespace onnx_opt::tools {
namespace {

constexpr char kUsage[] =
    "usage: onnx-check [options] MODEL...\n"
    "\n"
    "Loads each ONNX model (\"-\" reads standard input) and checks that it is well formed: it parses,\n"
    "every name is defined once, every node input is defined in scope before it is used, there are\n"
    "no cycles, external data stays inside the model's folder and matches the declared sizes.\n"
    "Prints \"MODEL: ok\" or \"MODEL: error: ...\" for each model.\n"
    "\n"
    "Exit status: 0 if every model is ok, 1 if any is not, 2 on bad usage.\n"
    "\n"
    "options:\n";

int Main(int argc, char** argv) {
  cli::Args args({{"help", "h", false, false, "", "print this help"}});
  if (absl::Status s = args.Parse(argc, argv); !s.ok()) {
    std::cerr << "onnx-check: " << s.message() << "\n" << kUsage << args.OptionsHelp();
    return 2;
  }
  if (args.Has("help")) {
    std::cout << kUsage << args.OptionsHelp();
    return 0;
  }
  if (args.positional().empty()) {
    std::cerr << "onnx-check: no model given\n" << kUsage << args.OptionsHelp();
    return 2;
  }
  int status = 0;
  for (const std::string& path : args.positional()) {
    absl::StatusOr<std::unique_ptr<ir::Model>> model = ReadModel(path);
    absl::Status s = model.ok() ? ir::Verify(**model) : model.status();
    if (s.ok()) {
      std::cout << path << ": ok\n";
    } else {
      std::cout << path << ": error: " << s.message() << "\n";
      status = 1;
    }
  }
  return status;
}

}  // namespace
}  // namespace onnx_opt::tools

int main(int argc, char** argv) { return onnx_opt::tools::Main(argc, argv); }
