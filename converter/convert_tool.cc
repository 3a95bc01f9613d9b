// A small driver for trying the converter by hand (the user-facing tool belongs in tools/):
//   convert_tool MODEL.onnx --opset=N [--ml-opset=M] [--lowest] [-o OUT.onnx]
// Prints the converted model in the text syntax (or writes it), and the conversion report.
#include <cstdlib>
#include <iostream>
#include <string>

#include "absl/strings/numbers.h"
#include "converter/convert.h"
#include "ir/io/model_io.h"
#include "ir/text/printer.h"
#include "schema/checker/checker.h"

int main(int argc, char** argv) {
  using namespace onnx_opt;
  std::string in, out;
  converter::ConvertOptions options;
  bool lowest = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    int64_t v = 0;
    if (a.rfind("--opset=", 0) == 0 && absl::SimpleAtoi(a.substr(8), &v)) {
      options.onnx_opset = v;
    } else if (a.rfind("--ml-opset=", 0) == 0 && absl::SimpleAtoi(a.substr(11), &v)) {
      options.ml_opset = v;
    } else if (a == "--lowest") {
      lowest = true;
    } else if (a == "-o" && i + 1 < argc) {
      out = argv[++i];
    } else if (in.empty() && a[0] != '-') {
      in = a;
    } else {
      std::cerr << "usage: convert_tool MODEL --opset=N [--ml-opset=M] [--lowest] [-o OUT]\n";
      return 2;
    }
  }
  if (in.empty()) {
    std::cerr << "usage: convert_tool MODEL --opset=N [--ml-opset=M] [--lowest] [-o OUT]\n";
    return 2;
  }
  auto model = ir::io::LoadModel(in);
  if (!model.ok()) {
    std::cerr << model.status() << "\n";
    return 1;
  }
  std::unique_ptr<ir::Model> result;
  converter::ConvertReport report;
  if (lowest) {
    auto low = converter::ConvertToLowestOpset(**model, options);
    if (!low.ok()) {
      std::cerr << low.status() << "\n";
      return 1;
    }
    std::cerr << "lowest opset: " << low->opset << (low->refusal.empty() ? "" : "; below: " + low->refusal) << "\n";
    result = std::move(low->model);
  } else {
    auto r = converter::ConvertModel(**model, options, &report);
    if (!r.ok()) {
      std::cerr << r.status() << "\n";
      return 1;
    }
    result = std::move(*r);
    std::cerr << "ir_version " << report.ir_from << " -> " << report.ir_to << " (" << report.ir_reason << "); "
              << report.nodes_adapted << " nodes adapted, " << report.nodes_rewritten << " rewritten, "
              << report.nodes_folded << " folded\n";
    for (const std::string& w : report.warnings) std::cerr << "warning: " << w << "\n";
  }
  absl::Status check = schema::checker::CheckModel(*result);
  if (!check.ok()) std::cerr << "checker: " << check << "\n";
  if (out.empty()) {
    std::cout << ir::text::PrintModel(*result);
    return 0;
  }
  absl::Status s = ir::io::SaveModel(*result, out);
  if (!s.ok()) {
    std::cerr << s << "\n";
    return 1;
  }
  return 0;
}
