// Writes models in the ONNX text syntax as binary .onnx files, so that shell tests (compare_test
// here, tools/ort_interop's interop suite) keep their models readable beside the commands that use
// them. Usage: text_to_onnx INPUT.onnxtxt OUTPUT.onnx [INPUT.onnxtxt OUTPUT.onnx ...]
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "ir/io/model_io.h"
#include "ir/text/parser.h"

int main(int argc, char** argv) {
  if (argc < 3 || argc % 2 != 1) {
    std::cerr << "usage: text_to_onnx INPUT.onnxtxt OUTPUT.onnx [INPUT.onnxtxt OUTPUT.onnx ...]\n";
    return 2;
  }
  for (int i = 1; i < argc; i += 2) {
    std::ifstream in(argv[i]);
    if (!in) {
      std::cerr << "text_to_onnx: cannot read " << argv[i] << "\n";
      return 1;
    }
    std::stringstream text;
    text << in.rdbuf();
    auto model = onnx_opt::ir::text::ParseModel(text.str());
    if (!model.ok()) {
      std::cerr << argv[i] << ":" << model.status().message() << "\n";
      return 1;
    }
    if (absl::Status s = onnx_opt::ir::io::SaveModel(**model, argv[i + 1]); !s.ok()) {
      std::cerr << argv[i + 1] << ": " << s.message() << "\n";
      return 1;
    }
  }
  return 0;
}
