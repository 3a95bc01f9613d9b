// Writes a model given in the ONNX text syntax as a .onnx file, so that shell tests can keep their
// models readable beside the commands that use them.
// Usage: text_to_onnx MODEL.txt OUTPUT.onnx
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "ir/io/model_io.h"
#include "ir/text/parser.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: text_to_onnx MODEL.txt OUTPUT.onnx\n";
    return 2;
  }
  std::ifstream in(argv[1]);
  if (!in) {
    std::cerr << argv[1] << ": cannot read\n";
    return 1;
  }
  std::stringstream text;
  text << in.rdbuf();
  auto model = onnx_opt::ir::text::ParseModel(text.str());
  if (!model.ok()) {
    std::cerr << argv[1] << ": " << model.status().message() << "\n";
    return 1;
  }
  if (auto s = onnx_opt::ir::io::SaveModel(**model, argv[2]); !s.ok()) {
    std::cerr << argv[2] << ": " << s.message() << "\n";
    return 1;
  }
  return 0;
}
