// onnx-run: runs a model with the bundled interpreter on inputs read from a folder (input_K.pb) or
// made at random, and writes the outputs as output_K.pb (the layout of ONNX's node tests).
#include <chrono>
#include <filesystem>
#include <iostream>
#include <string>

#include "absl/strings/str_cat.h"
#include "interpreter/data_value.h"
#include "ir/io/model_io.h"
#include "optimizer/equivalence.h"
#include "schema/checker/checker.h"
#include "tools/cli/args.h"
#include "tools/model_source.h"
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
    "Exit status: 0 on success, 1 on a model or run error, 2 on bad usage.\n"
    "\n"
    "options:\n";

int Main(int argc, char** argv) {
  std::vector<cli::OptionSpec> specs = {
      {"outputs", "", true, false, "DIR", "write output_K.pb files into DIR (created if missing)"},
      {"time", "", false, false, "", "print the wall time of the run"},
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
  if (const auto check = schema::checker::Check(**model); !check.ok()) {
    std::cerr << "onnx-run: " << path << " is not a valid model: " << check.errors[0] << "\n";
    return 1;
  }
  const auto start = std::chrono::steady_clock::now();
  // MakeReference reads or generates the inputs and runs the model on them.
  absl::StatusOr<Reference> run = MakeReference(**model, args.Get("inputs").value_or(""), options);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!run.ok()) {
    std::cerr << "onnx-run: " << run.status().message() << "\n";
    return 1;
  }
  const std::vector<ir::Value*>& outputs = (*model)->graph().outputs();
  if (std::optional<std::string> dir = args.Get("outputs")) {
    std::error_code ec;
    std::filesystem::create_directories(*dir, ec);
    for (size_t i = 0; i < run->outputs.size(); ++i) {
      absl::StatusOr<ir::io::DataValue> data = interpreter::ToDataValue(run->outputs[i]);
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
    for (size_t i = 0; i < run->outputs.size(); ++i) {
      std::cout << (i < outputs.size() ? outputs[i]->name() : absl::StrCat("#", i)) << ": "
                << run->outputs[i].DebugString() << "\n";
    }
  }
  if (args.Has("time")) std::cerr << "onnx-run: ran in " << seconds * 1e3 << " ms\n";
  return 0;
}

}  // namespace
}  // namespace onnx_opt::tools

int main(int argc, char** argv) { return onnx_opt::tools::Main(argc, argv); }
